import Canvas
import DrawProtocol
import Foundation
import Logging
import PostgresNIO
import Rooms
import Synchronization

extension PostgresGameStore: StorageBackend {
    /// Claims the batch's new rooms, then writes the batch in one transaction, each room
    /// only while its lease is still this node's. The batch's id names it in the store, so
    /// a batch tried again because its commit went unanswered is not written twice.
    func commit(_ batch: StorageBatch, behind: Bool) async throws -> StorageCommit {
        // Frames go into their room's packed stroke rows, which is what the store keeps
        // (held frames come one by one, the others already packed).
        var changes: [PersistenceWriter.Change] = []
        var strokes = StrokeRuns()
        for change in batch.changes {
            switch change {
            case .frame(let room, let generation, let frame): strokes.add(frame, room: room.rawValue, generation: generation)
            case .strokes(let room, let runs): strokes.add(runs: runs, room: room.rawValue)
            case .heartbeat, .flushed: break
            default: changes.append(change)
            }
        }
        let leftOut = try await write(changes, strokes: strokes, batch: batch.id)
        guard !leftOut.isEmpty else { return StorageCommit() }
        return StorageCommit(deferred: batch.changes.filter { $0.room.map(leftOut.contains) ?? false })
    }

    /// Every failure is the database unreachable, but for what PostgreSQL refused as
    /// wrong (bad data, a constraint, a query it cannot run): retried, those would block
    /// every later change.
    func fault(for error: any Error) -> StorageFault {
        let detail = StoreOpenError.reason(error)
        if let error = error as? PSQLError, let state = error.serverInfo?[.sqlState], ["22", "23", "42"].contains(String(state.prefix(2))) {
            return StorageFault(.other, detail: detail)
        }
        return StorageFault(.unreachable, detail: detail)
    }

    /// A claim that got no answer happened before the batch's transaction: nothing of it is
    /// in. Any other failure may have come after PostgreSQL committed (the answer to
    /// `COMMIT` lost with its server).
    func mayHaveCommitted(_ error: any Error) -> Bool { !(error is ClaimUnanswered) }

    func holding(rooms: Set<RoomCode>) { unwritten.withLock { $0.heldRooms = rooms } }

    var stallLimit: Duration? { configuration.stalledCommit }

    /// Writes `changes` and `strokes` under the batch id `batch`; returns the rooms it left
    /// out, to write in a later batch (a lease being acquired meanwhile). A lost room's
    /// changes are dropped: another node runs it now.
    func write(_ changes: [PersistenceWriter.Change], strokes: StrokeRuns, batch: Int64) async throws -> Set<RoomCode> {
        let rooms = PersistenceWriter.rooms(of: changes).union(strokes.rooms.compactMap(RoomCode.init(parsing:)))
        let claims = keeper.withLock { k in
            rooms.filter { !k.isTracked($0) }.sorted().flatMap { k.want($0, now: now) }
        }
        await perform(claims)
        // A claim the store could not answer (neither granted nor refused): it is
        // unreachable, and the transaction would wait out the connection patience again
        // only to fail. The batch is tried again whole.
        let unanswered = keeper.withLock { k in
            claims.contains { if case .acquire(let code) = $0 { !k.isTracked(code) } else { false } }
        }
        if unanswered { throw ClaimUnanswered() }
        var epochs: [RoomCode: Int64] = [:]
        var unclaimed = Set<RoomCode>()
        // Rooms this node stopped running when their leases ran out (the database was
        // away): what it still holds for them is written under the epoch it had, unless
        // another node has taken them since (the epoch check below refuses it then), and
        // their leases are then released so a node takes them over at once.
        var expired: [RoomCode: Int64] = [:]
        keeper.withLock { k in
            for code in rooms {
                if let epoch = k.epoch(of: code) {
                    epochs[code] = epoch
                } else if let epoch = k.ranOutEpoch(of: code) {
                    epochs[code] = epoch
                    expired[code] = epoch
                } else if !k.isLost(code) {
                    unclaimed.insert(code)
                }
            }
        }
        // What this batch's first try left out: if that try went in, they are still to write.
        let leftFirst = unwritten.withLock { u -> Set<RoomCode>? in
            if let left = u.leftOut, left.batch == batch { return left.rooms }
            u.leftOut = (batch, unclaimed)
            return nil
        }
        // Copied only when some room is left out: each copy retains every change's payload.
        let writable = epochs.count == rooms.count ? changes : changes.filter { change in change.room.map { epochs[$0] != nil } ?? true }
        var writableStrokes = strokes
        if epochs.count != rooms.count {
            writableStrokes.removeRooms { room in RoomCode(parsing: room).map { epochs[$0] == nil } ?? true }
        }
        let (nodeID, retention) = (self.nodeID, configuration.turnRetention)
        let logger = self.logger
        let limit = configuration.writeLimit(changes: writable.count + writableStrokes.frames)
        let (epochsNow, strokesNow) = (epochs, writableStrokes)
        let written = try await client.withOpenTransaction(limit: .at(limit), logger: logger) { connection in
            try await Self.apply(
                writable, strokes: strokesNow, epochs: epochsNow, batch: batch, node: nodeID, retention: retention, on: connection, logger: logger
            )
        }
        unwritten.withLock { $0.leftOut = nil }
        // Nil: the batch's first try went in, without what it left out then.
        guard let fenced = written else { return leftFirst ?? [] }
        var actions: [LeaseAction] = []
        keeper.withLock { k in
            for code in fenced.sorted() {
                if let epoch = epochs[code] { actions += k.fenced(code, epoch: epoch) }
            }
            for case .roomClosed(let code) in writable where !fenced.contains(code) {
                actions += k.release(code)
            }
            for code in expired.keys { k.heldChangesWritten(code) }
        }
        for (code, epoch) in expired.sorted(by: { $0.key < $1.key }) where !fenced.contains(code) {
            actions.append(.release(code, epoch: epoch))
        }
        for code in fenced.sorted() {
            if let epoch = epochs[code] { logger.warning("\(StaleLeaseError(room: code, node: nodeID, epoch: epoch))") }
        }
        countFenced(fenced.count)
        await perform(actions)
        return unclaimed
    }

    /// Writes one batch on `connection`, inside its transaction. Returns the rooms whose
    /// writes were refused because the store has a newer epoch for them; nil when the
    /// batch was in the store already (its id is the node's last batch).
    ///
    /// Set-based (one statement per kind of row, through UNNEST), so a batch costs about ten
    /// round trips however many rooms it touches: this node's heartbeat with the batch's
    /// id, the stroke frames of each room and canvas generation as one packed row
    /// (`PackedFrames`), each room's last snapshot, the closes, turns, games and players.
    /// A batch whose id the node's row already has is in: nothing is written again.
    static func apply(
        _ changes: [PersistenceWriter.Change], strokes: StrokeRuns, epochs: [RoomCode: Int64], batch id: Int64, node: String, retention: Int,
        on connection: PostgresConnection, logger: Logger
    ) async throws -> Set<RoomCode>? {
        let now = GameDatabase.wallClockMs
        // First, so the node's row is locked for the transaction and a batch in doubt is
        // known before anything is written twice.
        let marked = try await connection.query("""
            INSERT INTO node AS n (id, alive_at, last_batch) VALUES (\(node), \(now), \(id))
            ON CONFLICT (id) DO UPDATE SET alive_at = excluded.alive_at, last_batch = excluded.last_batch
            WHERE n.last_batch IS DISTINCT FROM excluded.last_batch
            RETURNING n.id
            """, logger: logger)
        var alreadyIn = true
        for try await _ in marked.decode(String.self) { alreadyIn = false }
        if alreadyIn {
            logger.notice("a batch whose commit went unanswered was in the store already", metadata: ["batch": "\(id)"])
            return nil
        }
        var fenced = Set<RoomCode>()
        if !epochs.isEmpty {
            // Locks the leases until the commit: a takeover (which updates the row) waits
            // for this batch, and a batch after a takeover sees the new epoch.
            var current: [String: Int64] = [:]
            let rows = try await connection.query("""
                SELECT code, epoch FROM room_leases WHERE node_id = \(node) AND code = ANY(\(epochs.keys.map(\.rawValue))::text[])
                FOR SHARE
                """, logger: logger)
            for try await (code, epoch) in rows.decode((String, Int64).self) { current[code] = epoch }
            for (code, epoch) in epochs where current[code.rawValue] != epoch { fenced.insert(code) }
        }
        var batch = Batch(strokes: strokes)
        if !fenced.isEmpty { batch.strokes.removeRooms { room in RoomCode(parsing: room).map(fenced.contains) ?? false } }
        if fenced.isEmpty {
            for change in changes { batch.add(change) }
        } else {
            for change in changes where !(change.room.map(fenced.contains) ?? false) { batch.add(change) }
        }
        try await batch.writeStrokes(on: connection, logger: logger)
        fenced.formUnion(try await batch.writeRooms(epochs: epochs, node: node, now: now, on: connection, logger: logger))
        try await batch.writeClosesTurnsGames(retention: retention, now: now, on: connection, logger: logger)
        try await writeDrawings(batch.turns, on: connection, logger: logger)
        try await batch.writePlayers(now: now, on: connection, logger: logger)
        return fenced
    }
}

/// One batch's rows, gathered by kind so each kind is one statement.
private struct Batch {
    /// Each room's stroke frames, one packed row per run.
    var strokes: StrokeRuns
    /// Each room's last snapshot in the batch (a snapshot is the room's whole state).
    var snapshots: [String: RoomSnapshot] = [:]
    var closed: Set<String> = []
    var turns: [TurnRecord] = []
    var games: [GameRecord] = []
    var players: [String: PlayerRecord] = [:]
    var ratings: [TurnRating] = []

    mutating func add(_ change: PersistenceWriter.Change) {
        switch change {
        case .player(let record): players[record.id.rawValue] = record
        case .room(let snapshot): snapshots[snapshot.code] = snapshot
        case .roomClosed(let code): closed.insert(code.rawValue)
        case .turn(let record): turns.append(record)
        case .game(let record): games.append(record)
        case .turnRated(let rating): ratings.append(rating)
        case .frame, .strokes, .heartbeat, .flushed: break
        }
    }

    mutating func writeStrokes(on connection: PostgresConnection, logger: Logger) async throws {
        var (codes, generations, atMs, ops) = ([String](), [Int64](), [Int64](), [ByteBuffer]())
        for (room, runs) in strokes.takeAll() where !closed.contains(room) {
            for run in runs {
                codes.append(room)
                generations.append(Int64(run.generation))
                atMs.append(Int64(run.firstAt))
                ops.append(run.packed)
            }
        }
        guard !codes.isEmpty else { return }
        try await connection.query("""
            INSERT INTO stroke (room_code, generation, at_ms, ops)
            SELECT * FROM UNNEST(\(codes)::text[], \(generations)::bigint[], \(atMs)::bigint[], \(ops)::bytea[])
            """, logger: logger)
    }

    /// Upserts the rooms' snapshots with their epochs; returns the rooms the store refused
    /// (its row carries a newer epoch).
    func writeRooms(
        epochs: [RoomCode: Int64], node: String, now: Int64, on connection: PostgresConnection, logger: Logger
    ) async throws -> Set<RoomCode> {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var (codes, names, publics, phases, generations, states, roomEpochs) = ([String](), [String](), [Bool](), [String](), [Int64](), [String](), [Int64]())
        var (seated, seats, connected) = ([Int](), [Int](), [Int]())
        // Each room's member ids, space-separated (ids are alphanumeric): UNNEST cannot take
        // an array of arrays of different lengths.
        var members: [String] = []
        var (languages, rounds, roundSettings, bots) = ([String](), [Int](), [Int](), [Int]())
        for (code, snapshot) in snapshots.sorted(by: { $0.key < $1.key }) where !closed.contains(code) {
            guard let room = RoomCode(parsing: code), let epoch = epochs[room] else { continue }
            codes.append(code)
            names.append(snapshot.name)
            // What other nodes list (`RemoteRooms`): never a streamer's room (`Room.summary`).
            publics.append(snapshot.isPublic && !snapshot.settings.streamer)
            seated.append(snapshot.members.count(where: { !$0.spectator }))
            seats.append(snapshot.settings.maxPlayers)
            connected.append(snapshot.members.count(where: { $0.connected == true && $0.bot == nil }))
            members.append(snapshot.members.filter { $0.bot == nil }.map(\.id).joined(separator: " "))
            languages.append(snapshot.settings.language)
            rounds.append(snapshot.game?.round ?? 0)
            roundSettings.append(snapshot.settings.rounds)
            bots.append(snapshot.members.count(where: { $0.bot != nil }))
            phases.append(snapshot.phase.phase.rawValue)
            generations.append(Int64(snapshot.canvasGeneration))
            states.append(String(decoding: try encoder.encode(snapshot), as: UTF8.self))
            roomEpochs.append(epoch)
        }
        guard !codes.isEmpty else { return [] }
        let rows = try await connection.query("""
            INSERT INTO room AS r (code, name, public, players, max_players, phase, canvas_generation, state, updated_at, node_id, epoch, connected, members,
                language, round, rounds, bots)
            SELECT u.code, u.name, u.public, u.players, u.max_players, u.phase, u.generation, u.state, \(now), \(node), u.epoch, u.connected,
                string_to_array(u.members, ' '), u.language, u.round, u.rounds, u.bots
            FROM UNNEST(\(codes)::text[], \(names)::text[], \(publics)::boolean[], \(seated)::integer[], \(seats)::integer[],
                        \(phases)::text[], \(generations)::bigint[], \(states)::text[], \(roomEpochs)::bigint[], \(connected)::integer[],
                        \(members)::text[], \(languages)::text[], \(rounds)::integer[], \(roundSettings)::integer[], \(bots)::integer[])
                AS u(code, name, public, players, max_players, phase, generation, state, epoch, connected, members, language, round, rounds, bots)
            ON CONFLICT (code) DO UPDATE SET name = excluded.name, public = excluded.public, players = excluded.players,
                max_players = excluded.max_players, phase = excluded.phase, connected = excluded.connected, members = excluded.members,
                language = excluded.language, round = excluded.round, rounds = excluded.rounds, bots = excluded.bots,
                canvas_generation = excluded.canvas_generation, state = excluded.state, updated_at = excluded.updated_at,
                node_id = excluded.node_id, epoch = excluded.epoch
            WHERE r.epoch <= excluded.epoch
            RETURNING r.code
            """, logger: logger)
        var written = Set<String>()
        for try await code in rows.decode(String.self) { written.insert(code) }
        try await connection.query("""
            DELETE FROM stroke AS s USING UNNEST(\(codes)::text[], \(generations)::bigint[]) AS u(code, generation)
            WHERE s.room_code = u.code AND s.generation < u.generation
            """, logger: logger)
        return Set(codes.filter { !written.contains($0) }.compactMap(RoomCode.init(parsing:)))
    }

    func writeClosesTurnsGames(retention: Int, now: Int64, on connection: PostgresConnection, logger: Logger) async throws {
        if !closed.isEmpty {
            let codes = closed.sorted()
            try await connection.query("DELETE FROM room WHERE code = ANY(\(codes)::text[])", logger: logger)
            try await connection.query("DELETE FROM stroke WHERE room_code = ANY(\(codes)::text[])", logger: logger)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for record in turns {
            let scores = Dictionary(uniqueKeysWithValues: record.scores.map { ($0.key.rawValue, $0.value) })
            let scoresJSON = String(decoding: try encoder.encode(scores), as: UTF8.self)
            try await connection.query("""
                INSERT INTO turn (room_code, game, turn, round, drawer, word, reason, scores, strokes, finished_at, likes, dislikes)
                VALUES (\(record.roomCode.rawValue), \(record.game), \(record.turn), \(record.round), \(record.drawer.rawValue),
                        \(record.word), \(record.reason.rawValue), \(scoresJSON), \(record.strokes.ndjson()), \(now),
                        \(record.ratings.likes), \(record.ratings.dislikes))
                """, logger: logger)
        }
        for rating in ratings {
            // The room's latest stored row of that turn (a code can be reused later).
            try await connection.query("""
                UPDATE turn SET likes = \(rating.counts.likes), dislikes = \(rating.counts.dislikes)
                WHERE id = (SELECT MAX(id) FROM turn WHERE room_code = \(rating.roomCode.rawValue)
                            AND game = \(rating.game) AND turn = \(rating.turn))
                """, logger: logger)
        }
        if !turns.isEmpty {
            try await connection.query("DELETE FROM turn WHERE id <= (SELECT MAX(id) FROM turn) - \(retention)", logger: logger)
        }
        for record in games {
            let ranking = String(decoding: try encoder.encode(record.ranking), as: UTF8.self)
            try await connection.query("""
                INSERT INTO game (room_code, game, ranking, finished_at) VALUES (\(record.roomCode.rawValue), \(record.game), \(ranking), \(now))
                """, logger: logger)
        }
    }

    func writePlayers(now: Int64, on connection: PostgresConnection, logger: Logger) async throws {
        guard !players.isEmpty else { return }
        let records = players.values.sorted { $0.id.rawValue < $1.id.rawValue }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let avatars = try records.map { String(decoding: try encoder.encode($0.avatar), as: UTF8.self) }
        try await connection.query("""
            INSERT INTO player (id, name, token_hash, last_seen_at, avatar)
            SELECT u.id, u.name, u.token_hash, \(now), u.avatar FROM UNNEST(\(records.map(\.id.rawValue))::text[],
                \(records.map(\.name))::text[], \(records.map(\.tokenHash))::text[], \(avatars)::text[]) AS u(id, name, token_hash, avatar)
            ON CONFLICT (id) DO UPDATE SET name = excluded.name, token_hash = excluded.token_hash, last_seen_at = excluded.last_seen_at,
                avatar = excluded.avatar
            """, logger: logger)
    }
}

/// A room's lease claim got no answer from the store (it could not be reached).
struct ClaimUnanswered: Error, CustomStringConvertible {
    var description: String { "a room's lease claim got no answer from the database" }
}
