import DrawProtocol
import Foundation

/// The outcome of judging one guess against the current word.
public enum GuessVerdict: Sendable, Equatable {
    /// The normalised guess equals the normalised word.
    case correct
    /// Nearly right: only the guesser is told, so it can fix a typo (protocol `close`).
    case close
    /// Anything else; during `drawing` it is broadcast as ordinary chat.
    case wrong
}

/// Judges guesses against one word for a whole turn.
///
/// The word is normalised once at the start of the turn because every chat line of
/// every guesser is judged against it. Both sides go through `GuessNormalizer`, then
/// distances are measured in Unicode scalars of the normalised (NFC) text.
public struct WordJudge: Sendable {
    /// Word lengths (letters and digits, not spaces) from which two typos still count as close.
    public static let longWordLetterCount = 8

    /// The word as it was chosen, for display.
    public let word: String
    /// `GuessNormalizer.normalize(word)`.
    public let normalizedWord: String
    /// Letters and digits of the normalised word, spaces not counted.
    public let letterCount: Int
    /// The largest edit distance still judged `close`: 1, or 2 for long words.
    public let closeDistance: Int

    private let wordScalars: [Unicode.Scalar]
    /// Other spellings that count as the word: German umlauts written out ("Baer" for
    /// "Bär"), as players without an umlaut key type them. Empty for most words.
    private let alternates: [[Unicode.Scalar]]

    /// Normalises the word once, since every chat line of the turn is judged against it.
    public init(word: String) {
        self.word = word
        normalizedWord = GuessNormalizer.normalize(word)
        wordScalars = Array(normalizedWord.unicodeScalars)
        letterCount = wordScalars.count(where: { $0 != " " })
        closeDistance = letterCount >= Self.longWordLetterCount ? 2 : 1
        let spelledOut = Self.spellingOutUmlauts(word)
        if spelledOut != word {
            let alternate = Array(GuessNormalizer.normalize(spelledOut).unicodeScalars)
            alternates = alternate == wordScalars ? [] : [alternate]
        } else {
            alternates = []
        }
    }

    /// Correct on an exact normalised match (with the word or an alternate spelling),
    /// close within `closeDistance` edits of either, else wrong.
    public func judge(_ guess: String) -> GuessVerdict {
        let normalizedGuess = GuessNormalizer.normalize(guess)
        // An empty guess (only punctuation or emoji) is chatter, never a near miss.
        guard !normalizedGuess.isEmpty, !normalizedWord.isEmpty else { return .wrong }
        if normalizedGuess == normalizedWord { return .correct }
        let guessScalars = Array(normalizedGuess.unicodeScalars)
        var best: Int?
        for form in [wordScalars] + alternates {
            guard let distance = Self.editDistance(guessScalars, form, limit: closeDistance) else { continue }
            best = min(best ?? distance, distance)
        }
        guard let best else { return .wrong }
        return best >= 1 ? .close : .correct
    }

    /// "ä ö ü" (either case, composed or not) written out as "ae oe ue".
    static func spellingOutUmlauts(_ word: String) -> String {
        guard word.unicodeScalars.contains(where: { "äöüÄÖÜ\u{0308}".unicodeScalars.contains($0) }) else { return word }
        var out = ""
        for character in word.precomposedStringWithCanonicalMapping {
            switch character {
            case "ä": out += "ae"
            case "ö": out += "oe"
            case "ü": out += "ue"
            case "Ä": out += "Ae"
            case "Ö": out += "Oe"
            case "Ü": out += "Ue"
            default: out.append(character)
            }
        }
        return out
    }

    /// The Levenshtein distance between `a` and `b` when it is at most `limit`, else nil.
    ///
    /// Only the diagonal band `|i - j| <= limit` of the dynamic-programming table can hold
    /// values within the limit, so the cost is O(min(n, m) * limit) time and O(limit)
    /// extra space, and a row whose every cell exceeds the limit ends the search early.
    /// A 200-character guess against any word is therefore a few hundred steps.
    public static func editDistance<Element: Equatable>(_ a: [Element], _ b: [Element], limit: Int) -> Int? {
        guard limit >= 0 else { return nil }
        // Make `a` the shorter so rows are short and the length test is one-sided.
        if a.count > b.count { return editDistance(b, a, limit: limit) }
        let n = a.count
        let m = b.count
        if m - n > limit { return nil }
        if n == 0 { return m }

        // Row i holds cells j in (i - limit)...(i + limit); cell j lives at offset j - i + limit.
        let width = 2 * limit + 1
        let outside = limit + 1
        var previous = [Int](repeating: outside, count: width)
        var current = [Int](repeating: outside, count: width)
        // Rows walk the longer `b`, columns the shorter `a`; cell (i, j) is the distance
        // between b[0..<i] and a[0..<j], so row 0 is j insertions.
        for j in 0...min(limit, n) { previous[j + limit] = j }

        for i in 1...m {
            var rowMinimum = outside
            for offset in 0..<width {
                let j = i - limit + offset
                guard j >= 0, j <= n else {
                    current[offset] = outside
                    continue
                }
                if j == 0 {
                    current[offset] = i
                } else {
                    // Diagonal neighbour (i-1, j-1) is at the same offset in the previous row.
                    let substitution = previous[offset] + (b[i - 1] == a[j - 1] ? 0 : 1)
                    // (i-1, j) is one offset further right in the previous row.
                    let deletion = offset + 1 < width ? previous[offset + 1] + 1 : outside
                    // (i, j-1) is one offset to the left in this row.
                    let insertion = offset > 0 ? current[offset - 1] + 1 : outside
                    current[offset] = min(substitution, deletion, insertion, outside)
                }
                rowMinimum = min(rowMinimum, current[offset])
            }
            if rowMinimum > limit { return nil }
            swap(&previous, &current)
        }
        let result = previous[n - m + limit]
        return result <= limit ? result : nil
    }
}
