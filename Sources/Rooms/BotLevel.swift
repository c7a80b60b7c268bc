/// How well a bot plays (`addBot`'s `level`): the bot brain reads it for its guess timing
/// and mistakes; the room only keeps it, shows it nowhere and stores it with the seat.
public enum BotLevel: String, Sendable, Hashable, Codable, CaseIterable {
    case easy
    case normal
    case hard
}

/// The words bots can draw, per room language (a server-wide library the shell injects).
///
/// A bot drawer is offered only words from this set (in a custom-only room, the custom
/// words among them) that were not drawn yet in the game, so it always has a real drawing
/// to replay; with none it passes its turn (`notice` `bot_passed`).
public struct BotVocabulary: Sendable {
    /// Language code -> words, in a stable order so a seeded game offers the same ones.
    public var words: [String: [String]]

    public init(words: [String: [String]] = [:]) {
        self.words = words.mapValues { Array(Set($0)).sorted() }
    }

    public func words(for language: String) -> [String] { words[language] ?? [] }
}
