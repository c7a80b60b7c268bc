/// How well a bot plays (`addBot`'s `level`): the bot brain reads it for its guess timing
/// and mistakes; the room only keeps it, shows it nowhere and stores it with the seat.
public enum BotLevel: String, Sendable, Hashable, Codable, CaseIterable {
    case easy
    case normal
    case hard
}
