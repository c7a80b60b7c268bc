import Canvas
import DrawProtocol
import Foundation
import GRDB
import Rooms

/// What is in the database at start-up.
struct StoredState: Sendable {
    struct Player: Sendable {
        var id: String
        var name: String
        var tokenHash: String
        /// Nil for players stored before avatars (or with an unreadable one): standard avatar.
        var avatar: Avatar?
    }

    struct StoredRoom: Sendable {
        var snapshot: RoomSnapshot
        var frames: [StrokeLog.Frame]
    }

    var players: [Player] = []
    var rooms: [StoredRoom] = []
    /// Rooms whose stored state could not be read back, with the reason.
    var unreadable: [(code: String, reason: String)] = []
}

extension GameDatabase {
    func load() throws -> StoredState {
        try pool.read { db in
            var state = StoredState()
            let decoder = JSONDecoder()
            for row in try Row.fetchAll(db, sql: "SELECT id, name, token_hash, avatar FROM player") {
                let avatar = (row["avatar"] as String?).flatMap { try? decoder.decode(Avatar.self, from: Data($0.utf8)) }
                state.players.append(.init(id: row["id"], name: row["name"], tokenHash: row["token_hash"], avatar: avatar))
            }
            // The server was alive until its last commit: time after a room's last write up to
            // then has passed for that room; the downtime itself does not count.
            let aliveAt = try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'alive_at'") ?? 0
            for row in try Row.fetchAll(db, sql: "SELECT code, canvas_generation, state, updated_at FROM room") {
                let code: String = row["code"]
                let json: String = row["state"]
                let updatedAt: Int64 = row["updated_at"]
                do {
                    let stored = try decoder.decode(RoomSnapshot.self, from: Data(json.utf8))
                    let snapshot = stored.advanced(byMs: Int(max(0, min(aliveAt - updatedAt, 86_400_000))))
                    var frames: [StrokeLog.Frame] = []
                    for stroke in try Row.fetchAll(
                        db, sql: "SELECT at_ms, ops, packed FROM stroke WHERE room_code = ? AND generation = ? ORDER BY id",
                        arguments: [code, snapshot.canvasGeneration]
                    ) {
                        let bytes = [UInt8](stroke["ops"] as Data)
                        if (stroke["packed"] as Int) == 1 {
                            frames += try PackedFrames.unpack(bytes)
                        } else {
                            frames.append(StrokeLog.Frame(at: stroke["at_ms"], bytes: bytes))
                        }
                    }
                    state.rooms.append(.init(snapshot: snapshot, frames: frames))
                } catch {
                    state.unreadable.append((code, "\(error)"))
                }
            }
            return state
        }
    }

    /// Finished turns of a room, oldest first: (turn id, word, NDJSON stroke log).
    func finishedTurns(room code: String) throws -> [(id: Int64, word: String, strokes: String)] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT id, word, strokes FROM turn WHERE room_code = ? ORDER BY id", arguments: [code])
                .map { ($0["id"], $0["word"], $0["strokes"]) }
        }
    }
}
