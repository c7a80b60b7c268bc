import DrawProtocol

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
