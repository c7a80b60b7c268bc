/// A finished turn of the current game that left a drawing: what a resuming player needs
/// to show the game's drawings again (`gameDrawings`, docs/PROTOCOL.md 11.5).
public struct GameDrawing: Sendable, Hashable {
    public var id: DrawingID
    public var word: String
    public var drawer: PlayerID
    /// The drawer's name when the turn ended.
    public var name: String
    public var round: Int

    public init(
        id: DrawingID, word: String, drawer: PlayerID, name: String, round: Int
    ) {
        self.id = id
        self.word = word
        self.drawer = drawer
        self.name = name
        self.round = round
    }
}

/// How a game's drawings are stored with the room's snapshot.
extension GameDrawing: Codable {
    private enum CodingKeys: String, CodingKey { case id, word, drawer, name, round }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let raw = try c.decode(String.self, forKey: .id)
        guard let id = DrawingID(parsing: raw) else {
            throw DecodingError.dataCorruptedError(forKey: .id, in: c, debugDescription: "not a drawing id")
        }
        self.id = id
        word = try c.decode(String.self, forKey: .word)
        drawer = PlayerID(try c.decode(String.self, forKey: .drawer))
        name = try c.decode(String.self, forKey: .name)
        round = try c.decode(Int.self, forKey: .round)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id.rawValue, forKey: .id)
        try c.encode(word, forKey: .word)
        try c.encode(drawer.rawValue, forKey: .drawer)
        try c.encode(name, forKey: .name)
        try c.encode(round, forKey: .round)
    }
}
