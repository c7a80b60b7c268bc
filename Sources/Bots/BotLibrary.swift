import Canvas
import DrawProtocol
import Rooms

/// The drawings bots draw from, by room language and word, best first: people's
/// well-rated drawings of a word (from the store's finished turns) ahead of the sample
/// drawings shipped with the server. Bots therefore get better as people play.
///
/// Also lets a guessing bot recognise a drawing it knows: the opening bytes of each
/// drawing are indexed, and a canvas that starts the same way is that drawing.
public struct BotLibrary: Sendable {
    /// Language -> word (as in that language's list) -> drawings, best first.
    public private(set) var drawings: [String: [String: [StrokeLog]]] = [:]
    /// Language -> opening bytes of a drawing -> its word.
    private var openings: [String: [[UInt8]: String]] = [:]

    /// How many opening bytes identify a drawing.
    static let openingLength = 24

    public init() {}

    /// Adds a drawing of `word` for `language`: in front of what is there (`preferred`:
    /// a person's rated drawing) or behind it.
    public mutating func add(_ log: StrokeLog, word: String, language: String, preferred: Bool = false) {
        guard !log.frames.isEmpty else { return }
        if preferred {
            drawings[language, default: [:]][word, default: []].insert(log, at: 0)
        } else {
            drawings[language, default: [:]][word, default: []].append(log)
        }
        let opening = Self.opening(of: log)
        if opening.count == Self.openingLength { openings[language, default: [:]][opening] = word }
    }

    /// Adds a person's drawing of `word` (a stored turn) to every language whose list
    /// holds that word; false when none does.
    @discardableResult
    public mutating func addStored(_ log: StrokeLog, word: String) -> Bool {
        let key = GuessNormalizer.normalize(word)
        var added = false
        for language in WordLanguage.all.map(\.code) {
            guard let listed = WordList.words(for: language).first(where: { GuessNormalizer.normalize($0) == key }) else { continue }
            add(log, word: listed, language: language, preferred: true)
            added = true
        }
        return added
    }

    /// Drawings of `word` in `language`, best first.
    public func drawings(of word: String, language: String) -> [StrokeLog] {
        drawings[language]?[word] ?? []
    }

    /// The words with a drawing, per language: what the room offers bot drawers.
    public var vocabulary: BotVocabulary {
        BotVocabulary(words: drawings.mapValues { Array($0.keys) })
    }

    /// Drawings in all.
    public var count: Int { drawings.values.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.count } } }

    /// The word of the known drawing a canvas's bytes start with, if any.
    func recognise(_ received: [UInt8], language: String) -> String? {
        guard received.count >= Self.openingLength else { return nil }
        return openings[language]?[Array(received.prefix(Self.openingLength))]
    }

    static func opening(of log: StrokeLog) -> [UInt8] {
        var bytes: [UInt8] = []
        for frame in log.frames where bytes.count < openingLength { bytes += frame.bytes }
        return Array(bytes.prefix(openingLength))
    }
}
