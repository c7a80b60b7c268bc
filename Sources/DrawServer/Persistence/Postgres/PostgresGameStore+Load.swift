import Canvas
import DrawProtocol
import Foundation
import PostgresNIO
import Rooms
import Synchronization

extension PostgresGameStore {
    /// The player holding a token, by its hash, if any node stored it. A player who said
    /// hello on another node a moment ago is in that node's next batch (every 75 ms, plus
    /// the commit, which runs below a busy node's event loops), so the store is asked again
    /// after 50, 100, 200 and 400 ms (`attempts`, `firstPause`), on the store's clock. Four
    /// tries 50 ms apart missed it beside two CPU hogs (`twoNodesShareTokensAndRedirectJoins`,
    /// 1 run in 15).
    func player(tokenHash: String, attempts: Int = 5, firstPause: Duration = .milliseconds(50)) async -> StoredState.Player? {
        await askAgain(attempts: attempts, firstPause: firstPause) { await storedPlayer(tokenHash: tokenHash) }
    }

    /// Runs `lookup` up to `attempts` times until it finds something, pausing `firstPause`
    /// and then twice as long each time, on the store's clock: for a row another node's
    /// batch may not have committed yet.
    func askAgain<T>(attempts: Int, firstPause: Duration, _ lookup: () async -> T?) async -> T? {
        var pause = firstPause
        for attempt in 0..<attempts {
            if attempt > 0 {
                await clock.sleep(pause)
                pause *= 2
            }
            if let found = await lookup() { return found }
        }
        return nil
    }

    private func storedPlayer(tokenHash: String) async -> StoredState.Player? {
        do {
            for (id, name, hash, avatar) in try await client.rows("""
                SELECT id, name, token_hash, avatar FROM player WHERE token_hash = \(tokenHash)
                """, as: (String, String, String, String?).self, logger: logger) {
                return .init(id: id, name: name, tokenHash: hash, avatar: Self.avatar(avatar))
            }
        } catch {
            logger.error("store player lookup failed", metadata: ["error": "\(StoreOpenError.reason(error))"])
        }
        return nil
    }

    /// What this node runs at start-up: every player, and the stored rooms whose leases it
    /// can take (expired ones, unowned ones, and its own from before a restart), each taken
    /// with a new epoch in one statement. Rooms another live node holds are left to it.
    func load() async throws -> StoredState {
        var state = StoredState()
        for (id, name, tokenHash, avatar) in try await client.rows("SELECT id, name, token_hash, avatar FROM player", as: (String, String, String, String?).self, logger: logger) {
            state.players.append(.init(id: id, name: name, tokenHash: tokenHash, avatar: Self.avatar(avatar)))
        }
        let sentAt = now
        let durationMs = configuration.leases.durationMs
        var claimed: [String: Int64] = [:]
        for (code, epoch) in try await client.rows("""
            INSERT INTO room_leases AS l (code, node_id, epoch, expires_at)
            SELECT code, \(nodeID), 1, now() + \(durationMs) * interval '1 millisecond' FROM room
            ON CONFLICT (code) DO UPDATE SET node_id = excluded.node_id, epoch = l.epoch + 1, expires_at = excluded.expires_at
            WHERE l.expires_at < now() OR l.node_id = excluded.node_id
            RETURNING code, epoch
            """, as: (String, Int64).self, logger: logger) {
            claimed[code] = epoch
        }
        try await loadRooms(claimed, sentAt: sentAt, into: &state)
        return state
    }

    /// Takes over the rooms whose leases ran out while they still have players (their node
    /// died, or stopped and released them), as the start-up load does; nil when there are
    /// none. The rooms' players come with them, so their tokens resume here.
    func takeOverOrphans() async throws -> StoredState? {
        // A room this node lost may come back to it once its new owner is gone too, or
        // (its lease ran out while the database was away) once the changes this node held
        // for it are written: until then it is not taken back here, so they go in first.
        let held = unwritten.withLock { $0.heldRooms }
        let tracked = keeper.withLock { k -> [String] in
            for code in k.leases.keys where k.isLost(code) && !held.contains(code) { k.forget(code) }
            return k.leases.keys.map(\.rawValue)
        }
        let sentAt = now
        let durationMs = configuration.leases.durationMs
        var claimed: [String: Int64] = [:]
        for (code, epoch) in try await client.rows("""
            INSERT INTO room_leases AS l (code, node_id, epoch, expires_at)
            SELECT r.code, \(nodeID), 1, now() + \(durationMs) * interval '1 millisecond'
            FROM room r JOIN room_leases o ON o.code = r.code
            WHERE o.expires_at < now() AND r.players > 0 AND NOT (r.code = ANY(\(tracked)::text[]))
            ON CONFLICT (code) DO UPDATE SET node_id = excluded.node_id, epoch = l.epoch + 1, expires_at = excluded.expires_at
            WHERE l.expires_at < now()
            RETURNING code, epoch
            """, as: (String, Int64).self, logger: logger) {
            claimed[code] = epoch
        }
        guard !claimed.isEmpty else { return nil }
        var state = StoredState()
        try await loadRooms(claimed, sentAt: sentAt, into: &state)
        let members = Array(Set(state.rooms.flatMap { $0.snapshot.members.map(\.id) })).sorted()
        for (id, name, tokenHash, avatar) in try await client.rows("""
            SELECT id, name, token_hash, avatar FROM player WHERE id = ANY(\(members)::text[])
            """, as: (String, String, String, String?).self, logger: logger) {
            state.players.append(.init(id: id, name: name, tokenHash: tokenHash, avatar: Self.avatar(avatar)))
        }
        return state
    }

    /// Records the claimed leases with the keeper and reads their rooms and strokes.
    private func loadRooms(_ claimed: [String: Int64], sentAt: Timestamp, into state: inout StoredState) async throws {
        keeper.withLock { k in
            for (text, epoch) in claimed {
                guard let code = RoomCode(parsing: text) else { continue }
                _ = k.want(code, now: sentAt)
                _ = k.acquired(code, epoch: epoch)
            }
        }
        let codes = claimed.keys.sorted()
        guard !codes.isEmpty else { return }

        var frames: [String: [(generation: Int64, ops: ByteBuffer)]] = [:]
        for (code, generation, ops) in try await client.rows("""
            SELECT room_code, generation, ops FROM stroke WHERE room_code = ANY(\(codes)::text[]) ORDER BY id
            """, as: (String, Int64, ByteBuffer).self, logger: logger) {
            frames[code, default: []].append((generation, ops))
        }
        let decoder = JSONDecoder()
        // As with SQLite: the time a room ran after its last write, up to its node's last
        // commit, has passed for it; the downtime itself does not count.
        for (code, json, updatedAt, aliveAt) in try await client.rows("""
            SELECT r.code, r.state, r.updated_at, COALESCE(n.alive_at, r.updated_at)
            FROM room r LEFT JOIN node n ON n.id = r.node_id WHERE r.code = ANY(\(codes)::text[]) ORDER BY r.code
            """, as: (String, String, Int64, Int64).self, logger: logger) {
            do {
                let stored = try decoder.decode(RoomSnapshot.self, from: Data(json.utf8))
                let snapshot = stored.advanced(byMs: Int(max(0, min(aliveAt - updatedAt, 86_400_000))))
                var roomFrames: [StrokeLog.Frame] = []
                for row in frames[code] ?? [] where row.generation == Int64(snapshot.canvasGeneration) {
                    roomFrames += try PackedFrames.unpack(Array(row.ops.readableBytesView))
                }
                state.rooms.append(.init(snapshot: snapshot, frames: roomFrames))
            } catch {
                state.unreadable.append((code, "\(error)"))
            }
        }
    }

    /// A stored avatar (JSON); nil for players stored before avatars, or an unreadable one.
    static func avatar(_ json: String?) -> Avatar? {
        json.flatMap { try? JSONDecoder().decode(Avatar.self, from: Data($0.utf8)) }
    }
}
