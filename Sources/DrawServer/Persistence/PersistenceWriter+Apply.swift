import Canvas
import Foundation
import GRDB
import Rooms

extension PersistenceWriter {
    /// Writes one batch inside a transaction. Only the last snapshot of each room in the
    /// batch is written (each is the room's whole state); everything else in order.
    static func apply(_ changes: [Change], to db: Database, retention: Int) throws {
        var lastSnapshot: [String: Int] = [:]
        for (index, change) in changes.enumerated() {
            if case .room(let snapshot) = change { lastSnapshot[snapshot.code] = index }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let now = GameDatabase.wallClockMs
        var turnsAdded = false
        for (index, change) in changes.enumerated() {
            switch change {
            case .player(let record):
                try db.execute(sql: """
                    INSERT INTO player (id, name, token_hash, last_seen_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET name = excluded.name, token_hash = excluded.token_hash, last_seen_at = excluded.last_seen_at
                    """, arguments: [record.id.rawValue, record.name, record.tokenHash, now])
            case .room(let snapshot):
                guard lastSnapshot[snapshot.code] == index else { continue }
                try write(snapshot, to: db, encoder: encoder, now: now)
            case .frame(let room, let generation, let frame):
                try db.execute(
                    sql: "INSERT INTO stroke (room_code, generation, at_ms, ops) VALUES (?, ?, ?, ?)",
                    arguments: [room.rawValue, generation, frame.at, Data(frame.bytes)]
                )
            case .roomClosed(let code):
                try db.execute(sql: "DELETE FROM room WHERE code = ?", arguments: [code.rawValue])
                try db.execute(sql: "DELETE FROM seat WHERE room_code = ?", arguments: [code.rawValue])
                try db.execute(sql: "DELETE FROM stroke WHERE room_code = ?", arguments: [code.rawValue])
            case .turn(let record):
                let scores = Dictionary(uniqueKeysWithValues: record.scores.map { ($0.key.rawValue, $0.value) })
                try db.execute(sql: """
                    INSERT INTO turn (room_code, game, turn, round, drawer, word, reason, scores, strokes, finished_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [
                        record.roomCode.rawValue, record.game, record.turn, record.round, record.drawer.rawValue,
                        record.word, record.reason.rawValue, String(decoding: try encoder.encode(scores), as: UTF8.self),
                        record.strokes.ndjson(), now,
                    ])
                turnsAdded = true
            case .game(let record):
                try db.execute(
                    sql: "INSERT INTO game (room_code, game, ranking, finished_at) VALUES (?, ?, ?, ?)",
                    arguments: [record.roomCode.rawValue, record.game, String(decoding: try encoder.encode(record.ranking), as: UTF8.self), now]
                )
            case .flushed, .heartbeat:
                break
            }
        }
        try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('alive_at', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", arguments: [now])
        if turnsAdded {
            try db.execute(sql: "DELETE FROM turn WHERE id <= (SELECT MAX(id) FROM turn) - ?", arguments: [retention])
        }
    }

    private static func write(_ snapshot: RoomSnapshot, to db: Database, encoder: JSONEncoder, now: Int64) throws {
        let state = String(decoding: try encoder.encode(snapshot), as: UTF8.self)
        let settings = String(decoding: try encoder.encode(snapshot.settings), as: UTF8.self)
        try db.execute(sql: """
            INSERT INTO room (code, name, public, host, settings, phase, round, drawer, word, remaining_ms, canvas_generation, state, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(code) DO UPDATE SET name = excluded.name, public = excluded.public, host = excluded.host,
                settings = excluded.settings, phase = excluded.phase, round = excluded.round, drawer = excluded.drawer,
                word = excluded.word, remaining_ms = excluded.remaining_ms, canvas_generation = excluded.canvas_generation,
                state = excluded.state, updated_at = excluded.updated_at
            """, arguments: [
                snapshot.code, snapshot.name, snapshot.isPublic, snapshot.host, settings, snapshot.phase.phase.rawValue,
                snapshot.game?.round ?? 0, snapshot.phase.drawer, snapshot.phase.word, snapshot.phase.remainingMs,
                snapshot.canvasGeneration, state, now,
            ])
        try db.execute(sql: "DELETE FROM seat WHERE room_code = ?", arguments: [snapshot.code])
        for member in snapshot.members {
            try db.execute(
                sql: "INSERT INTO seat (room_code, player_id, name, score, spectator, seat_order) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [snapshot.code, member.id, member.name, member.score, member.spectator, member.order]
            )
        }
        try db.execute(
            sql: "DELETE FROM stroke WHERE room_code = ? AND generation < ?",
            arguments: [snapshot.code, snapshot.canvasGeneration]
        )
    }
}
