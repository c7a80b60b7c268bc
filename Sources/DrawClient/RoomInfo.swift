/// The full room state of a `room` message.
public struct RoomInfo: Sendable, Hashable {
    public var code: String
    public var name: String
    public var isPublic: Bool
    public var host: String?
    public var settings: GameSettings
    /// `lobby`, `choosing`, `drawing`, `turnEnd` or `gameEnd`.
    public var phase: String
    public var round: Int
    public var rounds: Int
    public var drawer: String?
    public var mask: String?
    /// Sent to the drawer only.
    public var word: String?
    public var remainingMs: Int
    /// During `drawing` and `turnEnd`, to a player who guessed it: the word.
    public var solvedWord: String?
    /// In the lobby after a game: time left of the countdown to the next one.
    public var nextGameMs: Int?
    public var players: [PlayerInfo]
    public var canvasWidth: Int
    public var canvasHeight: Int
    /// Every field as sent, for additions this library does not model.
    public var fields: [String: WireJSON]

    init?(_ json: WireJSON) {
        guard let fields = json.objectValue, let code = fields["code"]?.stringValue else { return nil }
        self.code = code
        name = fields["name"]?.stringValue ?? ""
        isPublic = fields["public"]?.boolValue ?? false
        host = fields["host"]?.stringValue
        settings = GameSettings(fields["settings"])
        phase = fields["phase"]?.stringValue ?? "lobby"
        round = fields["round"]?.intValue ?? 0
        rounds = fields["rounds"]?.intValue ?? 0
        drawer = fields["drawer"]?.stringValue
        mask = fields["mask"]?.stringValue
        word = fields["word"]?.stringValue
        remainingMs = fields["remainingMs"]?.intValue ?? 0
        solvedWord = fields["solvedWord"]?.stringValue
        nextGameMs = fields["nextGameMs"]?.intValue
        players = fields["players"]?.arrayValue?.compactMap { PlayerInfo($0) } ?? []
        canvasWidth = fields["canvas"]?["w"]?.intValue ?? 800
        canvasHeight = fields["canvas"]?["h"]?.intValue ?? 600
        self.fields = fields
    }
}
