import DrawProtocol
import Foundation
import PostgresNIO
import Rooms
import Synchronization

extension PostgresGameStore {
    /// Reads the other nodes' rooms and recent players and tells them (`Event.directory`);
    /// false when the store could not be read.
    @discardableResult
    func refreshDirectory(playersSince: Int64) async -> Bool {
        do {
            var directory = RemoteRooms.Directory()
            for (code, node) in try await client.rows("""
                SELECT code, node_id FROM room_leases WHERE expires_at > now() AND node_id <> \(nodeID)
                """, as: (String, String).self, logger: logger) {
                if let code = RoomCode(parsing: code) { directory.owners[code] = node }
            }
            // Every live room of the other nodes: the public ones for the lobby, all of them
            // for the moderator's room list.
            // Language, round, rounds and bots (issue 39) are columns since migration 6; a row
            // written before has them only in its JSON, parsed then (coalesce stops at the
            // first value, so the others are never parsed).
            for (code, name, isPublic, players, maxPlayers, phase, node, connected, language, round, rounds, bots) in try await client.rows("""
                SELECT r.code, r.name, r.public, r.players, r.max_players, r.phase, l.node_id, r.connected,
                    coalesce(r.language, r.state::jsonb #>> '{settings,language}', 'en'),
                    coalesce(r.round, (r.state::jsonb #>> '{game,round}')::int, 0),
                    coalesce(r.rounds, (r.state::jsonb #>> '{settings,rounds}')::int, 3),
                    coalesce(r.bots, (SELECT count(*) FROM jsonb_array_elements(r.state::jsonb -> 'members') m WHERE m ? 'bot')::int)
                FROM room r JOIN room_leases l ON l.code = r.code
                WHERE l.expires_at > now() AND l.node_id <> \(nodeID) AND r.node_id = l.node_id
                """, as: (String, String, Bool, Int, Int, String, String, Int?, String, Int, Int, Int).self, logger: logger) {
                guard let room = RoomCode(parsing: code), let phase = GamePhase(rawValue: phase) else { continue }
                let summary = RoomSummary(
                    code: room, name: name, isPublic: isPublic, players: players, maxPlayers: maxPlayers, phase: phase,
                    bots: bots, connected: connected ?? players, language: language, round: round, rounds: rounds
                )
                if isPublic { directory.publicRooms.append(summary) }
                directory.allRooms.append(.init(summary: summary, node: node))
            }
            // A node stamps `alive_at` at least once a second (`heartbeatInterval`).
            let aliveSince = GameDatabase.wallClockMs - Int64(configuration.leases.durationMs)
            for (others,) in try await client.rows("""
                SELECT count(*)::int FROM node WHERE alive_at >= \(aliveSince) AND id <> \(nodeID)
                """, as: (Int,).self, logger: logger) {
                directory.liveNodes = 1 + others
            }
            var players: [StoredState.Player] = []
            for (id, name, tokenHash) in try await client.rows("""
                SELECT id, name, token_hash FROM player WHERE last_seen_at >= \(playersSince)
                """, as: (String, String, String).self, logger: logger) {
                players.append(.init(id: id, name: name, tokenHash: tokenHash))
            }
            tell(.directory(directory, players: players))
            return true
        } catch {
            logger.error("store directory refresh failed", metadata: ["error": "\(StoreOpenError.reason(error))"])
            return false
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
    /// idle node stamps it every second (`heartbeatInterval`), a busy one at every commit.
    static let liveNodeMs: Int64 = 1_500

    /// Stamps this node's `alive_at`; false when the store could not be written.
    @discardableResult
    func heartbeat() async -> Bool {
        do {
            try await client.execute("""
                INSERT INTO node (id, alive_at) VALUES (\(nodeID), \(GameDatabase.wallClockMs))
                ON CONFLICT (id) DO UPDATE SET alive_at = excluded.alive_at
                """, logger: logger)
            return true
        } catch {
            logger.error("store heartbeat failed", metadata: ["error": "\(StoreOpenError.reason(error))"])
            return false
        }
    }

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

/// Other nodes' players and rooms, as the remote rooms ask for them.
extension PostgresGameStore: RemoteRooms.SharedStore {
    func otherNodesPlayer(tokenHash: String) async -> StoredState.Player? { await player(tokenHash: tokenHash) }
    func leaseHolder(of code: RoomCode) async -> String? { await leaseOwner(of: code) }
    func roomOf(_ player: PlayerID) async -> RoomCode? { await storedRoom(of: player) }
}
