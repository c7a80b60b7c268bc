import DrawProtocol
import Logging
import PostgresNIO
import Rooms

/// The room leases' SQL: the thin owner of `LeaseKeeper`'s actions. Expiries are the
/// database's clock (`now()`), so the nodes' clocks need not agree.
struct PostgresLeases: Sendable {
    enum AcquireResult: Sendable, Equatable {
        case acquired(epoch: Int64)
        /// Another node holds a lease that has not expired.
        case heldElsewhere
        /// The database could not be asked.
        case failed
    }

    let client: StoreConnections
    let nodeID: String
    let durationMs: Int
    let logger: Logger

    /// One conditional UPSERT: a new row starts at epoch 1; an expired lease, or one this
    /// node already holds (a restarted node with the same id), is taken with the epoch
    /// bumped; a live lease of another node is left alone and nothing is returned.
    static func acquireQuery(_ code: String, node: String, durationMs: Int) -> PostgresQuery {
        """
        INSERT INTO room_leases AS l (code, node_id, epoch, expires_at)
        VALUES (\(code), \(node), 1, now() + \(durationMs) * interval '1 millisecond')
        ON CONFLICT (code) DO UPDATE SET node_id = excluded.node_id, epoch = l.epoch + 1, expires_at = excluded.expires_at
        WHERE l.expires_at < now() OR l.node_id = excluded.node_id
        RETURNING epoch
        """
    }

    func acquire(_ code: RoomCode) async -> AcquireResult {
        do {
            let rows = try await client.rows(Self.acquireQuery(code.rawValue, node: nodeID, durationMs: durationMs), as: Int64.self, logger: logger)
            if let epoch = rows.first { return .acquired(epoch: epoch) }
            return .heldElsewhere
        } catch {
            logger.error("lease acquire failed", metadata: ["room": "\(code)", "error": "\(StoreOpenError.reason(error))"])
            return .failed
        }
    }

    /// Extends the leases still held at their epochs; returns the rooms renewed (the others
    /// were taken over), or nil when the database could not be asked.
    func renew(_ held: [(RoomCode, Int64)]) async -> Set<RoomCode>? {
        let codes = held.map(\.0.rawValue)
        let epochs = held.map(\.1)
        do {
            let rows = try await client.rows("""
                UPDATE room_leases AS l SET expires_at = now() + \(durationMs) * interval '1 millisecond'
                FROM UNNEST(\(codes)::text[], \(epochs)::bigint[]) AS h(code, epoch)
                WHERE l.code = h.code AND l.epoch = h.epoch AND l.node_id = \(nodeID)
                RETURNING l.code
                """, as: String.self, logger: logger)
            var renewed = Set<RoomCode>()
            for code in rows {
                if let code = RoomCode(parsing: code) { renewed.insert(code) }
            }
            return renewed
        } catch {
            logger.error("lease renewal failed", metadata: ["rooms": "\(held.count)", "error": "\(StoreOpenError.reason(error))"])
            return nil
        }
    }

    /// Expires the leases now that are still this node's at their epochs; the rows (and
    /// their epochs) stay, so each next owner's epoch is higher. One statement for all:
    /// a draining node releases every room at once, and with the database gone each call
    /// waits out the store's patience.
    @discardableResult
    func release(_ held: [(RoomCode, Int64)]) async -> Bool {
        guard !held.isEmpty else { return true }
        let codes = held.map(\.0.rawValue)
        let epochs = held.map(\.1)
        do {
            try await client.execute("""
                UPDATE room_leases AS l SET expires_at = now() - interval '1 millisecond'
                FROM UNNEST(\(codes)::text[], \(epochs)::bigint[]) AS h(code, epoch)
                WHERE l.code = h.code AND l.epoch = h.epoch AND l.node_id = \(nodeID)
                """, logger: logger)
            return true
        } catch {
            logger.error("lease release failed", metadata: ["rooms": "\(codes.joined(separator: ","))", "error": "\(StoreOpenError.reason(error))"])
            return false
        }
    }
}

/// A room write refused because the store has a newer owner for the room than the epoch
/// the write carried.
struct StaleLeaseError: Error, CustomStringConvertible {
    var room: RoomCode
    var node: String
    var epoch: Int64
    var description: String { "room \(room): lease epoch \(epoch) of node \(node) is stale; the write was refused" }
}
