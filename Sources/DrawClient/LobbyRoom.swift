/// An entry of the public rooms list (`RoomSummary` in the protocol).
public struct LobbyRoom: Sendable, Hashable {
    public var code: String
    public var name: String
    public var isPublic: Bool
    public var players: Int
    public var maxPlayers: Int
    public var phase: String

    init?(_ json: WireJSON?) {
        guard let code = json?["code"]?.stringValue else { return nil }
        self.code = code
        name = json?["name"]?.stringValue ?? ""
        isPublic = json?["public"]?.boolValue ?? false
        players = json?["players"]?.intValue ?? 0
        maxPlayers = json?["maxPlayers"]?.intValue ?? 0
        phase = json?["phase"]?.stringValue ?? ""
    }
}
