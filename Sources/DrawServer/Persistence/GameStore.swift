import Canvas
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
