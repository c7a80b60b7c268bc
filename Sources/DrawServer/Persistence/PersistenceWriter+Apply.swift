import Canvas
import DrawProtocol
import Foundation
import GRDB
import NIOCore
import Rooms

extension PersistenceWriter {
    /// Writes one batch inside a transaction. Only the last snapshot of each room in the
    /// batch is written (each is the room's whole state); everything else in order, except
    /// that a room's stroke frames are gathered into one packed row, written before the
    /// room's next snapshot or close in the batch (which may move it to a new canvas
    /// generation or delete its frames) or at the end.
    static func apply(_ changes: [Change], to db: Database, retention: Int) throws {
        var frames = StrokeRuns()
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
                try db.cachedExecute(sql: """
                    INSERT INTO player (id, name, token_hash, last_seen_at, avatar) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET name = excluded.name, token_hash = excluded.token_hash,
                        last_seen_at = excluded.last_seen_at, avatar = excluded.avatar
                    """, arguments: [
                        record.id.rawValue, record.name, record.tokenHash, now,
                        String(decoding: try encoder.encode(record.avatar), as: UTF8.self),
                    ])
            case .room(let snapshot):
                guard lastSnapshot[snapshot.code] == index else { continue }
                try frames.write(room: snapshot.code, to: db)
                try write(snapshot, to: db, encoder: encoder, now: now)
            case .frame(let room, let generation, let frame):
                frames.add(frame, room: room.rawValue, generation: generation)
            case .strokes(let room, let runs):
                // Behind any single frames of the room before them (held ones).
                try frames.write(room: room.rawValue, to: db)
                for run in runs { try StrokeRuns.insert(run, room: room.rawValue, to: db) }
            case .roomClosed(let code):
                try frames.write(room: code.rawValue, to: db)
                try db.cachedExecute(sql: "DELETE FROM room WHERE code = ?", arguments: [code.rawValue])
                try db.cachedExecute(sql: "DELETE FROM seat WHERE room_code = ?", arguments: [code.rawValue])
                try db.cachedExecute(sql: "DELETE FROM stroke WHERE room_code = ?", arguments: [code.rawValue])
            case .turn(let record):
                let scores = Dictionary(uniqueKeysWithValues: record.scores.map { ($0.key.rawValue, $0.value) })
                // A drawing a moderator removed before its turn got here is never written.
                try db.cachedExecute(sql: """
                    INSERT INTO turn (room_code, game, turn, round, drawer, word, reason, scores, strokes, finished_at, likes, dislikes,
                        drawing_id, public, language, drawer_name, opted_out)
                    SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
                    WHERE NOT EXISTS (SELECT 1 FROM removed_drawing WHERE drawing_id = ?)
                    """, arguments: [
                        record.roomCode.rawValue, record.game, record.turn, record.round, record.drawer.rawValue,
                        record.word, record.reason.rawValue, String(decoding: try encoder.encode(scores), as: UTF8.self),
                        record.strokes.ndjson(), now, record.ratings.likes, record.ratings.dislikes, record.drawing?.rawValue,
                        record.isPublic, record.language, record.drawerName, record.drawerOptedOut, record.drawing?.rawValue,
                    ])
                if let drawing = record.drawing, db.changesCount > 0 {
                    for player in record.players {
                        try db.cachedExecute(
                            sql: "INSERT INTO drawing_player (drawing_id, player_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
                            arguments: [drawing.rawValue, player.rawValue]
                        )
                    }
                }
                // Reports of this canvas made while it was drawn name its drawing now (NULL:
                // it ended empty), in the turn's own transaction: also after a restart.
                try db.cachedExecute(
                    sql: "UPDATE report SET drawing_id = ?, turn_ended = 1 WHERE turn_key = ? AND turn_ended = 0",
                    arguments: [record.drawing?.rawValue, TurnKey(record).rawValue]
                )
                turnsAdded = true
            case .game(let record):
                try db.cachedExecute(
                    sql: "INSERT INTO game (room_code, game, ranking, finished_at) VALUES (?, ?, ?, ?)",
                    arguments: [record.roomCode.rawValue, record.game, String(decoding: try encoder.encode(record.ranking), as: UTF8.self), now]
                )
            case .turnRated(let rating):
                // The room's latest stored row of that turn (a code can be reused later).
                try db.cachedExecute(sql: """
                    UPDATE turn SET likes = ?, dislikes = ?
                    WHERE id = (SELECT MAX(id) FROM turn WHERE room_code = ? AND game = ? AND turn = ?)
                    """, arguments: [rating.counts.likes, rating.counts.dislikes, rating.roomCode.rawValue, rating.game, rating.turn])
            case .flushed, .heartbeat:
                break
            }
        }
        try frames.writeAll(to: db)
        try db.cachedExecute(sql: "INSERT INTO meta (key, value) VALUES ('alive_at', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", arguments: [now])
        if turnsAdded {
            try db.cachedExecute(sql: """
                DELETE FROM drawing_player WHERE drawing_id IN
                    (SELECT drawing_id FROM turn WHERE id <= (SELECT MAX(id) FROM turn) - ? AND drawing_id IS NOT NULL)
                """, arguments: [retention])
            try db.cachedExecute(sql: "DELETE FROM turn WHERE id <= (SELECT MAX(id) FROM turn) - ?", arguments: [retention])
        }
    }

    private static func write(_ snapshot: RoomSnapshot, to db: Database, encoder: JSONEncoder, now: Int64) throws {
        let state = String(decoding: try encoder.encode(snapshot), as: UTF8.self)
        let settings = String(decoding: try encoder.encode(snapshot.settings), as: UTF8.self)
        try db.cachedExecute(sql: """
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
        try db.cachedExecute(sql: "DELETE FROM seat WHERE room_code = ?", arguments: [snapshot.code])
        for member in snapshot.members {
            try db.cachedExecute(
                sql: "INSERT INTO seat (room_code, player_id, name, score, spectator, seat_order) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [snapshot.code, member.id, member.name, member.score, member.spectator, member.order]
            )
        }
        try db.cachedExecute(
            sql: "DELETE FROM stroke WHERE room_code = ? AND generation < ?",
            arguments: [snapshot.code, snapshot.canvasGeneration]
        )
    }
}

extension Database {
    /// Executes `sql` through GRDB's statement cache: a statement is prepared once per
    /// connection instead of once per row (preparing cost more than the insert itself;
    /// `bench-relay --persist` shows it, docs/BENCHMARKS.md).
    func cachedExecute(sql: String, arguments: StatementArguments = StatementArguments()) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}

extension StrokeRuns {
    /// Writes `room`'s gathered frames, one row per run.
    mutating func write(room: String, to db: Database) throws {
        for run in take(room: room) { try Self.insert(run, room: room, to: db) }
    }

    mutating func writeAll(to db: Database) throws {
        for (room, runs) in takeAll() {
            for run in runs { try Self.insert(run, room: room, to: db) }
        }
    }

    static func insert(_ run: Run, room: String, to db: Database) throws {
        try db.cachedExecute(
            sql: "INSERT INTO stroke (room_code, generation, at_ms, ops, packed) VALUES (?, ?, ?, ?, 1)",
            arguments: [room, run.generation, run.firstAt, Data(run.packed.readableBytesView)]
        )
    }
}
