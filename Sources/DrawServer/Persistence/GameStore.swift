import Canvas
import DrawProtocol
import Rooms

/// Where the running server reports what must survive a restart. Every method returns
/// at once: implementations queue the change and write it later, off the hot path.
///
/// Rooms call them under their locks, so they make no system call: a store whose writer
/// must be woken for a change (a full batch) names it in `wakes`, which the room wakes once
/// its lock is released.
protocol GameStore: Sendable {
    func playerChanged(_ record: PlayerRecord, wakes: inout WakeUps)
    func roomChanged(_ snapshot: RoomSnapshot, wakes: inout WakeUps)
    func frameAppended(room: RoomCode, generation: Int, frame: StrokeLog.Frame, wakes: inout WakeUps)
    func roomClosed(_ code: RoomCode, wakes: inout WakeUps)
    func turnFinished(_ record: TurnRecord, wakes: inout WakeUps)
    func gameFinished(_ record: GameRecord, wakes: inout WakeUps)
    /// A stored turn's ratings changed (during its turnEnd).
    func turnRated(_ rating: TurnRating, wakes: inout WakeUps)
    /// Why a new room cannot be opened now, or nil: a store whose storage is failing and
    /// whose held changes reached their bound refuses new rooms (`storage_unavailable`);
    /// rooms already open keep playing. Read on every room creation: it must be cheap.
    var newRoomRefusal: ProtocolError? { get }
}

extension GameStore {
    var newRoomRefusal: ProtocolError? { nil }

    // The same, for a caller that holds no lock: wakes the store's writer itself.
    func playerChanged(_ record: PlayerRecord) { withWakeUps { playerChanged(record, wakes: &$0) } }
    func roomChanged(_ snapshot: RoomSnapshot) { withWakeUps { roomChanged(snapshot, wakes: &$0) } }
    func frameAppended(room: RoomCode, generation: Int, frame: StrokeLog.Frame) {
        withWakeUps { frameAppended(room: room, generation: generation, frame: frame, wakes: &$0) }
    }
    func roomClosed(_ code: RoomCode) { withWakeUps { roomClosed(code, wakes: &$0) } }
    func turnFinished(_ record: TurnRecord) { withWakeUps { turnFinished(record, wakes: &$0) } }
    func gameFinished(_ record: GameRecord) { withWakeUps { gameFinished(record, wakes: &$0) } }
    func turnRated(_ rating: TurnRating) { withWakeUps { turnRated(rating, wakes: &$0) } }

    private func withWakeUps(_ body: (inout WakeUps) -> Void) {
        var wakes = WakeUps()
        body(&wakes)
        wakes.run()
    }
}

/// Keeps nothing: for tests and tools that run without a database.
struct MemoryOnlyStore: GameStore {
    func playerChanged(_ record: PlayerRecord, wakes: inout WakeUps) {}
    func roomChanged(_ snapshot: RoomSnapshot, wakes: inout WakeUps) {}
    func frameAppended(room: RoomCode, generation: Int, frame: StrokeLog.Frame, wakes: inout WakeUps) {}
    func roomClosed(_ code: RoomCode, wakes: inout WakeUps) {}
    func turnFinished(_ record: TurnRecord, wakes: inout WakeUps) {}
    func gameFinished(_ record: GameRecord, wakes: inout WakeUps) {}
    func turnRated(_ rating: TurnRating, wakes: inout WakeUps) {}
}
