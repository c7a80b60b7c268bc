import Canvas
import DrawProtocol
import Rooms

/// Where the running server reports what must survive a restart. Every method returns
/// at once: implementations queue the change and write it later, off the hot path.
protocol GameStore: Sendable {
    func playerChanged(_ record: PlayerRecord)
    func roomChanged(_ snapshot: RoomSnapshot)
    func frameAppended(room: RoomCode, generation: Int, frame: StrokeLog.Frame)
    func roomClosed(_ code: RoomCode)
    func turnFinished(_ record: TurnRecord)
    func gameFinished(_ record: GameRecord)
    /// A stored turn's ratings changed (during its turnEnd).
    func turnRated(_ rating: TurnRating)
    /// Why a new room cannot be opened now, or nil: a store whose storage is failing and
    /// whose held changes reached their bound refuses new rooms (`storage_unavailable`);
    /// rooms already open keep playing. Read on every room creation: it must be cheap.
    var newRoomRefusal: ProtocolError? { get }
}

extension GameStore {
    var newRoomRefusal: ProtocolError? { nil }
}

/// Keeps nothing: for tests and tools that run without a database.
struct MemoryOnlyStore: GameStore {
    func playerChanged(_ record: PlayerRecord) {}
    func roomChanged(_ snapshot: RoomSnapshot) {}
    func frameAppended(room: RoomCode, generation: Int, frame: StrokeLog.Frame) {}
    func roomClosed(_ code: RoomCode) {}
    func turnFinished(_ record: TurnRecord) {}
    func gameFinished(_ record: GameRecord) {}
    func turnRated(_ rating: TurnRating) {}
}
