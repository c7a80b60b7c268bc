/// An entry of the public rooms list (`RoomSummary` in the protocol).
public struct LobbyRoom: Sendable, Hashable {
    public var code: String
    public var name: String
    public var isPublic: Bool
    public var players: Int
    public var maxPlayers: Int
    public var phase: String
    /// How many of `players` are bots; the word list's language; the round being played
    /// (0 outside a game) and the rounds a game has.
    public var bots: Int
    public var language: String
    public var round: Int
    public var rounds: Int

    init?(_ json: WireJSON?) {
        guard let code = json?["code"]?.stringValue else { return nil }
        self.code = code
        name = json?["name"]?.stringValue ?? ""
        isPublic = json?["public"]?.boolValue ?? false
        players = json?["players"]?.intValue ?? 0
        maxPlayers = json?["maxPlayers"]?.intValue ?? 0
        phase = json?["phase"]?.stringValue ?? ""
        bots = json?["bots"]?.intValue ?? 0
        language = json?["language"]?.stringValue ?? "en"
        round = json?["round"]?.intValue ?? 0
        rounds = json?["rounds"]?.intValue ?? 0
    }
}
