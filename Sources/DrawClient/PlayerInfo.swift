/// A player entry (`room.players[]`, `joined.player`).
public struct PlayerInfo: Sendable, Hashable {
    public var id: String
    public var name: String
    public var score: Int
    public var ready: Bool
    public var connected: Bool
    public var guessed: Bool
    public var spectator: Bool
    public var avatar: PlayerAvatar?
    /// Every field as sent, for additions this library does not model (e.g. `bot`).
    public var fields: [String: WireJSON]

    /// The entry carries `"bot":true` (issue 23: a seat filled by the server's bot).
    public var isBot: Bool { fields["bot"]?.boolValue ?? false }

    init?(_ json: WireJSON?) {
        guard let fields = json?.objectValue, let id = fields["id"]?.stringValue else { return nil }
        self.id = id
        name = fields["name"]?.stringValue ?? ""
        score = fields["score"]?.intValue ?? 0
        ready = fields["ready"]?.boolValue ?? false
        connected = fields["connected"]?.boolValue ?? true
        guessed = fields["guessed"]?.boolValue ?? false
        spectator = fields["spectator"]?.boolValue ?? false
        avatar = PlayerAvatar(fields["avatar"])
        self.fields = fields
    }
}
