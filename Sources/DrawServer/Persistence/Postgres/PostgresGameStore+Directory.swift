import DrawProtocol
import Foundation
import PostgresNIO
import Rooms
import Synchronization

extension PostgresGameStore {
    /// What the directory reads keep between two reads: the mirror of the cluster's rooms,
    /// and where the next read of changes starts.
    struct DirectoryReads: Sendable {
        var mirror = DirectoryMirror()
        /// The oldest transaction that was still open when the last read began (an `xid8`):
        /// every row written by a transaction the last read could not see has an id at least
        /// this. Nil until a whole read succeeded, and after a failed read.
        var since: UInt64?
        /// When the mirror was last read whole (the store's clock).
        var lastWhole: Duration?
        /// Rows the reads returned, in all (benchmarks and tests).
        var rowsRead = 0
        /// Whether the last read found a room the take-over scan may take
        /// (`DirectoryMirror.mayHaveOrphans`).
        var mayHaveOrphans = true
    }

    /// How often the directory is read whole even though changes are read in between: the
    /// safety net for a change missed (a `room_gone` row cleaned up before a node read it).
    static let wholeDirectoryInterval: Duration = .seconds(30)

    /// Reads the other nodes' rooms and recent players and tells them (`Event.directory`);
    /// nil when the store could not be read. Reads only what changed since the last read
    /// (`reads`), and everything when there is no last read or the last whole read is older
    /// than `wholeDirectoryInterval`.
    @discardableResult
    func refreshDirectory(playersSince: Int64, reads: inout DirectoryReads) async -> RemoteRooms.Directory? {
        do {
            let now = clock.elapsed()
            let whole = reads.since == nil || reads.lastWhole.map { now - $0 >= Self.wholeDirectoryInterval } ?? true
            // Read first, in a statement of its own: the rows read next are at least as new.
            var since: UInt64?
            for (xmin,) in try await client.rows("SELECT pg_snapshot_xmin(pg_current_snapshot())::text", as: (String,).self, logger: logger) {
                since = UInt64(xmin)
            }
            let filter = whole ? "" : " WHERE dir_xid >= '\(reads.since ?? 0)'::xid8"
            var leases: [RoomCode: DirectoryMirror.Lease] = [:]
            for (code, node, leftMs, xid) in try await client.rows(PostgresQuery(unsafeSQL: """
                SELECT code, node_id, (extract(epoch FROM expires_at - now()) * 1000)::bigint, coalesce(dir_xid::text, '0')
                FROM room_leases\(filter)
                """), as: (String, String, Int64, String).self, logger: logger) {
                guard let room = RoomCode(parsing: code) else { continue }
                leases[room] = .init(node: node, released: leftMs <= 0, xid: UInt64(xid) ?? 0)
            }
            // Language, round, rounds and bots (issue 39) are columns since migration 6; a row
            // written before has them only in its JSON, parsed then (coalesce stops at the
            // first value, so the others are never parsed).
            var rooms: [RoomCode: DirectoryMirror.Room] = [:]
            for (code, name, isPublic, players, maxPlayers, phase, node, connected, language, round, rounds, bots, xid) in try await client.rows(PostgresQuery(unsafeSQL: """
                SELECT code, name, public, players, max_players, phase, node_id, connected,
                    coalesce(language, state::jsonb #>> '{settings,language}', 'en'),
                    coalesce(round, (state::jsonb #>> '{game,round}')::int, 0),
                    coalesce(rounds, (state::jsonb #>> '{settings,rounds}')::int, 3),
                    coalesce(bots, (SELECT count(*) FROM jsonb_array_elements(state::jsonb -> 'members') m WHERE m ? 'bot')::int),
                    coalesce(dir_xid::text, '0')
                FROM room\(filter)
                """), as: (String, String, Bool, Int, Int, String, String, Int?, String, Int, Int, Int, String).self, logger: logger) {
                guard let room = RoomCode(parsing: code), let phase = GamePhase(rawValue: phase) else { continue }
                let summary = RoomSummary(
                    code: room, name: name, isPublic: isPublic, players: players, maxPlayers: maxPlayers, phase: phase,
                    bots: bots, connected: connected ?? players, language: language, round: round, rounds: rounds
                )
                rooms[room] = .init(node: node, summary: summary, xid: UInt64(xid) ?? 0)
            }
            var rowsRead = leases.count + rooms.count
            if whole {
                reads.mirror.replaceAll(leases: leases, rooms: rooms)
                reads.lastWhole = now
                // Deletions are kept long enough for every node's reads of changes, which a
                // whole read replaces anyway.
                try await client.execute("DELETE FROM room_gone WHERE gone_at < now() - interval '5 minutes'", logger: logger)
            } else {
                var gone: [(code: RoomCode, xid: UInt64)] = []
                for (code, xid) in try await client.rows(PostgresQuery(unsafeSQL: """
                    SELECT code, dir_xid::text FROM room_gone\(filter)
                    """), as: (String, String).self, logger: logger) {
                    if let room = RoomCode(parsing: code) { gone.append((room, UInt64(xid) ?? 0)) }
                }
                rowsRead += gone.count
                reads.mirror.apply(leases: leases, rooms: rooms, gone: gone)
            }
            reads.since = since
            reads.rowsRead += rowsRead
            // A node stamps `alive_at` at least once a second (the writer's `.heartbeat`): one that
            // has not within a lease's length holds no lease any more.
            let wallClockMs = GameDatabase.wallClockMs
            let aliveSince = wallClockMs - Int64(configuration.leases.durationMs)
            var alive: Set<String> = []
            var stampedLately: Set<String> = []
            for (node, aliveAt) in try await client.rows("""
                SELECT id, alive_at FROM node WHERE alive_at >= \(aliveSince)
                """, as: (String, Int64).self, logger: logger) {
                alive.insert(node)
                if aliveAt > wallClockMs - Self.liveNodeMs { stampedLately.insert(node) }
            }
            // Eager on purpose: a node silent for `liveNodeMs` may be dead, and the scan then
            // runs every refresh, taking its rooms the moment their leases run out; until
            // then it finds nothing, which costs one scan.
            reads.mayHaveOrphans = reads.mirror.mayHaveOrphans(alive: stampedLately)
            var directory = reads.mirror.directory(for: nodeID, alive: alive)
            directory.liveNodes = 1 + alive.subtracting([nodeID]).count
            var players: [StoredState.Player] = []
            for (id, name, tokenHash) in try await client.rows("""
                SELECT id, name, token_hash FROM player WHERE last_seen_at >= \(playersSince)
                """, as: (String, String, String).self, logger: logger) {
                players.append(.init(id: id, name: name, tokenHash: tokenHash))
            }
            tell(.directory(directory, players: players))
            return directory
        } catch {
            // The next read starts over with a whole one.
            reads.since = nil
            logger.error("store directory refresh failed", metadata: ["error": "\(StoreOpenError.reason(error))"])
            return nil
        }
    }

    /// The live node, other than this one, that holds `code`'s lease: for a room made since
    /// the last directory refresh. Asked again as for a player: the lease of a room made a
    /// moment ago may not be committed yet.
    func leaseOwner(of code: RoomCode, attempts: Int = 4, firstPause: Duration = .milliseconds(50)) async -> String? {
        await askAgain(attempts: attempts, firstPause: firstPause) { await storedLeaseOwner(of: code) }
    }

    private func storedLeaseOwner(of code: RoomCode) async -> String? {
        do {
            for (node,) in try await client.rows("""
                SELECT node_id FROM room_leases WHERE code = \(code.rawValue) AND expires_at > now() AND node_id <> \(nodeID)
                """, as: (String,).self, logger: logger) {
                return node
            }
        } catch {
            logger.error("store lease lookup failed", metadata: ["error": "\(StoreOpenError.reason(error))"])
        }
        return nil
    }

    /// The room another node runs with `player` among its members (the one written last,
    /// should there be two), or nil. Only a node that wrote lately (`node.alive_at` within
    /// `liveNodeMs`) counts: a node killed a moment ago still holds its leases until they
    /// run out, and a player sent there would only come back.
    func storedRoom(of player: PlayerID) async -> RoomCode? {
        let aliveSince = GameDatabase.wallClockMs - Self.liveNodeMs
        do {
            for (code,) in try await client.rows("""
                SELECT r.code FROM room AS r JOIN room_leases AS l ON l.code = r.code JOIN node AS n ON n.id = l.node_id
                WHERE r.members @> ARRAY[\(player.rawValue)]::text[] AND l.expires_at > now() AND l.node_id <> \(nodeID)
                    AND n.alive_at > \(aliveSince)
                ORDER BY r.updated_at DESC LIMIT 1
                """, as: (String,).self, logger: logger) {
                return RoomCode(parsing: code)
            }
        } catch {
            logger.error("store room lookup failed", metadata: ["error": "\(StoreOpenError.reason(error))"])
        }
        return nil
    }

    /// How recently a node must have stamped `alive_at` for a player to be sent to it: an
    /// idle node stamps it every second (the writer's `.heartbeat`), a busy one at every commit.
    static let liveNodeMs: Int64 = 1_500

    /// Takes over the rooms of nodes that are gone and tells them (`Event.orphans`): the
    /// server runs what it can and releases the rest.
    func adoptOrphans() async {
        do {
            guard let orphans = try await takeOverOrphans() else { return }
            let claimed = Set(orphans.rooms.compactMap { RoomCode(parsing: $0.snapshot.code) } + orphans.unreadable.compactMap { RoomCode(parsing: $0.code) })
            logger.notice("rooms taken over from a node that is gone", metadata: [
                "rooms": "\(claimed.sorted().map(\.rawValue).joined(separator: ","))", "node": "\(nodeID)",
            ])
            tell(.orphans(orphans, claimed: claimed))
        } catch {
            logger.error("store take-over failed", metadata: ["error": "\(StoreOpenError.reason(error))"])
        }
    }

    /// Releases the leases of rooms this node claimed at start-up but does not run (a
    /// stored room that could not be restored, or had no members left).
    func releaseRooms(notRunning isRunning: (RoomCode) -> Bool) async {
        let actions = keeper.withLock { k in
            k.leases.keys.filter { !isRunning($0) }.sorted().flatMap { k.release($0) }
        }
        await perform(actions)
    }
}

/// Other nodes' players and rooms, as the remote rooms ask for them: read from the store,
/// after this node's own changes, which the writer commits there.
struct SharedStoreLink: RemoteRooms.SharedStore {
    let store: PostgresGameStore
    let writer: PersistenceWriter

    func otherNodesPlayer(tokenHash: String) async -> StoredState.Player? { await store.player(tokenHash: tokenHash) }
    func leaseHolder(of code: RoomCode) async -> String? { await store.leaseOwner(of: code) }
    func roomOf(_ player: PlayerID) async -> RoomCode? { await store.storedRoom(of: player) }
    func flush() async { await writer.flush() }
}
