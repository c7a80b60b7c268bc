import DrawProtocol
import Rooms

/// This node's copy of the cluster's room directory: every room lease and every room row
/// of the shared store, kept up to date from the changes since the last read instead of
/// read whole every time (issue 35).
///
/// A pure value: the PostgreSQL store reads the rows that changed (each row carries the id
/// of the transaction that last wrote it, `dir_xid`, and a deleted room leaves a `room_gone`
/// row) and applies them here; now and then it reads everything and replaces the lot, the
/// safety net for anything missed. What the server sees is `directory(for:alive:)`: the
/// other nodes' rooms whose leases are held, as the old full read's join chose them.
///
/// A lease's renewals (its holder extends it every second) are not changes: a lease is held
/// while it has not been released and its node is alive (it stamps `node.alive_at` at
/// least once a second, read with every refresh). Otherwise every lease of the cluster
/// would change, and be read again, every second.
struct DirectoryMirror: Sendable, Equatable {
    struct Lease: Sendable, Equatable {
        var node: String
        /// Released by its node, or run out when it was read.
        var released: Bool
        var xid: UInt64
    }

    struct Room: Sendable, Equatable {
        /// The node that last wrote the room: listed only while it also holds the lease.
        var node: String
        var summary: RoomSummary
        var xid: UInt64
    }

    private(set) var leases: [RoomCode: Lease] = [:]
    private(set) var rooms: [RoomCode: Room] = [:]

    /// Everything, read whole: what was here before is forgotten.
    mutating func replaceAll(leases: [RoomCode: Lease], rooms: [RoomCode: Room]) {
        self.leases = leases
        self.rooms = rooms
    }

    /// Rows written since the last read, and rooms deleted since (with the transaction that
    /// deleted them). A row re-read (the read window overlaps transactions that were still
    /// open) or older than what is here changes nothing; a deletion removes a room only if
    /// it came after the room's last write, so a room closed and made again stays.
    mutating func apply(leases changed: [RoomCode: Lease], rooms changedRooms: [RoomCode: Room], gone: [(code: RoomCode, xid: UInt64)]) {
        for (code, lease) in changed where (leases[code]?.xid ?? 0) <= lease.xid {
            leases[code] = lease
        }
        for (code, room) in changedRooms where (rooms[code]?.xid ?? 0) <= room.xid {
            rooms[code] = room
        }
        for deletion in gone {
            if let room = rooms[deletion.code], room.xid < deletion.xid { rooms[deletion.code] = nil }
        }
    }

    /// Whether a room with players has a lease that is released, or held by a node that is
    /// not `alive`: only then can the take-over scan (`takeOverOrphans`, which reads every
    /// lease and room) find a room to take over, so only then is it run.
    func mayHaveOrphans(alive: Set<String>) -> Bool {
        leases.contains { code, lease in
            (lease.released || !alive.contains(lease.node)) && (rooms[code]?.summary.players ?? 0) > 0
        }
    }

    /// The other nodes' rooms as `node` sees them, `alive` being the nodes that stamped
    /// their heartbeat lately: those whose lease is held, and whose row was written by the
    /// lease's holder.
    func directory(for node: String, alive: Set<String>) -> RemoteRooms.Directory {
        var directory = RemoteRooms.Directory()
        for (code, lease) in leases where lease.node != node && !lease.released && alive.contains(lease.node) {
            directory.owners[code] = lease.node
        }
        for (code, room) in rooms.sorted(by: { $0.key < $1.key }) where directory.owners[code] == room.node {
            if room.summary.isPublic { directory.publicRooms.append(room.summary) }
            directory.allRooms.append(.init(summary: room.summary, node: room.node))
        }
        return directory
    }
}
