/// A short system line for one player or the room (`notice`, docs/PROTOCOL.md): something
/// the server did on the player's behalf or held back, which the client shows translated.
public enum Notice: Sendable, Hashable {
    /// A bot had no fresh word it could draw and passed its turn (to the room).
    case botPassed(PlayerID, name: String)
    /// The sender's chat is held back by the chat budget; it goes on in about `retryMs`.
    case slowDown(retryMs: Int)
    /// A `settings` or `create` had values outside their ranges: each field and the value used.
    case settingsAdjusted([AdjustedSetting])

    /// The notice's `code`.
    public var code: String {
        switch self {
        case .botPassed: "bot_passed"
        case .slowDown: "slow_down"
        case .settingsAdjusted: "settings_adjusted"
        }
    }
}

/// One setting a client asked for outside its range, and the value the room uses instead.
public struct AdjustedSetting: Sendable, Hashable {
    public enum Value: Sendable, Hashable {
        case number(Int)
        case text(String)
    }

    public var field: String
    public var value: Value

    public init(field: String, value: Value) {
        self.field = field
        self.value = value
    }
}
