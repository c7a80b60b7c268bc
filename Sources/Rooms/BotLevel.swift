/// How well a bot plays (`addBot`'s `level`): the bot brain reads it for its guess timing
/// and mistakes; the room only keeps it, shows it nowhere and stores it with the seat.
public enum BotLevel: String, Sendable, Hashable, Codable, CaseIterable {
    case easy
    case normal
    case hard
}

/// The words bots can draw, per room language (a server-wide library the shell injects).
///
/// A bot drawer is offered only words from this set, so it always has a real drawing to
/// replay; a language without any falls back to the room's ordinary bag (the bot then
/// skips its turn rather than draw something it has no drawing for).
public struct BotVocabulary: Sendable {
    /// Language code -> words, in a stable order so a seeded game offers the same ones.
    public var words: [String: [String]]

    public init(words: [String: [String]] = [:]) {
        self.words = words.mapValues { Array(Set($0)).sorted() }
    }

    public func words(for language: String) -> [String] { words[language] ?? [] }
}
