import DrawProtocol

/// Which turn of which game in which room: how a report made while the drawing was still
/// being drawn finds that drawing once its turn ends (docs/PROTOCOL.md section 10.3).
public struct TurnKey: Hashable, Sendable, CustomStringConvertible {
    public var room: RoomCode
    public var game: Int
    public var turn: Int

    public init(room: RoomCode, game: Int, turn: Int) {
        self.room = room
        self.game = game
        self.turn = turn
    }

    /// The key of a finished turn.
    public init(_ record: TurnRecord) {
        self.init(room: record.roomCode, game: record.game, turn: record.turn)
    }

    /// `ROOM/GAME/TURN`, as stores keep it.
    public var rawValue: String { "\(room.rawValue)/\(game)/\(turn)" }
    public var description: String { rawValue }

    /// Reads `rawValue` back; nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let room = RoomCode(parsing: String(parts[0])), let game = Int(parts[1]), let turn = Int(parts[2]) else {
            return nil
        }
        self.init(room: room, game: game, turn: turn)
    }
}
