import DrawProtocol
import Foundation

/// The built-in word lists and the clean-up applied to a host's custom words.
public enum WordList {
    /// Most custom words a room keeps (protocol: `customWords`, up to 500).
    public static let maxCustomWords = 500
    /// Longest custom word or phrase, in characters; longer ones make unreadable masks.
    public static let maxWordLength = 30

    /// The bundled English list (`Resources/words-en.txt`).
    public static var english: [String] { words(for: WordLanguage.defaultCode) }

    /// Every bundled list by language code (`Resources/words-CODE.txt`). A `static let` is
    /// initialised lazily and thread-safely by the runtime, so the files are parsed once per
    /// process with no mutable global state. A language whose file is missing gets the
    /// emergency list.
    static let bundled: [String: [String]] = {
        var lists: [String: [String]] = [:]
        for language in WordLanguage.all { lists[language.code] = loadBundled(named: "words-\(language.code)") }
        return lists
    }()

    /// The built-in list of `language`; English for a code without a list.
    public static func words(for language: String) -> [String] {
        bundled[language] ?? bundled[WordLanguage.defaultCode] ?? emergencyFallback
    }

    /// Every bundled list told apart by normal form, once per process (lazily, like `bundled`).
    static let distinctBundled: [String: DistinctWords] = bundled.mapValues { DistinctWords($0) }

    /// `words(for:)` told apart by normal form.
    static func distinctWords(for language: String) -> DistinctWords {
        distinctBundled[language] ?? distinctBundled[WordLanguage.defaultCode] ?? DistinctWords(emergencyFallback)
    }

    /// Used only if the resource bundle is missing the list (a packaging mistake), so that a
    /// game can still be played instead of every turn failing.
    static let emergencyFallback = ["apple", "house", "tree", "cat", "sun", "boat", "car", "fish", "star", "hat"]

    /// Parses a word file: one word or phrase per line; lines are trimmed, blank lines and
    /// lines starting with `#` skipped, inner space runs collapsed, and repeats (after
    /// `GuessNormalizer.normalize`, so "T-Rex" repeats "trex") dropped keeping the first.
    public static func parse(_ text: String) -> [String] {
        var seen = Set<String>()
        var words: [String] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let word = collapsingWhitespace(String(line))
            guard !word.isEmpty, !word.hasPrefix("#") else { continue }
            let key = GuessNormalizer.normalize(word)
            guard !key.isEmpty, seen.insert(key).inserted else { continue }
            words.append(word)
        }
        return words
    }

    /// Cleans a host's custom words: whitespace trimmed and collapsed, control and invisible
    /// format characters removed, entries that are empty, longer than `maxWordLength`
    /// characters or without any letter dropped, repeats dropped case- and accent-insensitively
    /// (same `GuessNormalizer.normalize` form; the first spelling wins), at most
    /// `maxCustomWords` kept, in the host's order.
    public static func sanitize(_ words: [String]) -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for raw in words {
            guard result.count < maxCustomWords else { break }
            // Cheap guard before any Unicode work: a huge entry can never become valid
            // unless it is mostly whitespace or invisible characters, which we do not rescue.
            guard raw.utf8.count <= maxWordLength * 16 else { continue }
            let word = collapsingWhitespace(removingInvisibles(raw))
            guard !word.isEmpty, word.count <= maxWordLength, word.contains(where: \.isLetter) else { continue }
            let key = GuessNormalizer.normalize(word)
            guard !key.isEmpty, seen.insert(key).inserted else { continue }
            result.append(word)
        }
        return result
    }

    /// Trims the ends and turns every whitespace run (tabs, newlines, NBSP) into one space.
    static func collapsingWhitespace(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Drops control (Cc) and format (Cf) scalars: they are invisible in a mask and would
    /// let two identical-looking words differ. Whitespace controls become spaces first.
    static func removingInvisibles(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                scalars.append(" ")
                continue
            }
            switch scalar.properties.generalCategory {
            case .control, .format, .privateUse, .unassigned, .surrogate:
                continue
            default:
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    private static func loadBundled(named name: String) -> [String] {
        for directory in resourceDirectories {
            let url = directory.appendingPathComponent("\(name).txt")
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            let words = parse(text)
            if !words.isEmpty { return words }
        }
        return emergencyFallback
    }

    /// True when every bundled list was found (false means the binary was installed without
    /// its `drawserver_Rooms.resources` folder).
    public static var hasBuiltInList: Bool { WordLanguage.all.allSatisfy { words(for: $0.code) != emergencyFallback } }

    /// Where SwiftPM puts this module's resources: a folder next to the executable (or the
    /// test runner). Searched by hand because `Bundle.module` aborts the process when the
    /// folder is missing, and a server should report that instead of crashing.
    static var resourceDirectories: [URL] {
        let folder = "drawserver_Rooms.resources"
        var directories = [Bundle.main.bundleURL.appendingPathComponent(folder)]
        if let executable = CommandLine.arguments.first {
            let url = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
            directories.append(url.appendingPathComponent(folder))
        }
        for bundle in Bundle.allBundles where bundle.bundleURL.lastPathComponent == folder {
            directories.append(bundle.bundleURL)
        }
        return directories
    }
}
