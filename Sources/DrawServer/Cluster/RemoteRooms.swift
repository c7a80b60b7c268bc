import DrawProtocol
import Rooms
import Synchronization

/// The rooms other live nodes run, from the shared store (refreshed by the store every
/// `PostgresGameStore.Configuration.directoryInterval`): a `join` for one of them is
/// answered with a `redirect` to its node. Empty on a single node.
final class RemoteRooms: Sendable {
    /// What a shared store answers for the rooms and players of other nodes.
    protocol SharedStore: Sendable {
        /// A player another node stored, by token hash.
        func otherNodesPlayer(tokenHash: String) async -> StoredState.Player?
        /// The node that holds a room's lease.
        func leaseHolder(of code: RoomCode) async -> String?
        /// The room another node runs with `player` among its members.
        func roomOf(_ player: PlayerID) async -> RoomCode?
        /// Returns once what this node queued is committed.
        func flush() async
    }

    /// What the other nodes are told and have said (`ClusterBus`).
    protocol Messenger: Sendable {
        /// Passes an invitation for a player not connected here to the other nodes.
        func invite(_ target: PlayerID, from sender: PlayerID, text: String)
        /// The room a player had when another node took it over lately.
        func movedRoom(of player: PlayerID) -> (room: RoomCode, node: String)?
        /// Tells the other nodes this one let `address` create a room.
        func roomCreated(by address: String)
    }

    /// The shared store (several nodes), or nil on a single node.
    private let store: (any SharedStore)?
    /// The other nodes, or nil on a single node.
    private let messenger: (any Messenger)?

    /// Waits between asks for a room whose lease a draining node still holds.
    private let clock: ServerClock

    init(store: (any SharedStore)? = nil, messenger: (any Messenger)? = nil, clock: ServerClock = ServerClock()) {
        self.store = store
        self.messenger = messenger
        self.clock = clock
    }

    struct Directory: Sendable {
        /// Room code to the id of the node that runs it.
        var owners: [RoomCode: String] = [:]
        /// Their public rooms, for the room list.
        var publicRooms: [RoomSummary] = []
        /// All their rooms, public or not, each with the node that runs it: the
        /// moderator's room list.
        var allRooms: [Listed] = []
        /// Nodes that stamped their heartbeat within a lease's length, this one included.
        var liveNodes = 1
        /// Nodes that said they drain (`ClusterMessage.draining`): their rooms are left out
        /// of the directory, as they are about to move.
        var draining: Set<String> = []

        /// The directory without the rooms of `nodes`.
        func without(_ nodes: Set<String>) -> Directory {
            guard !nodes.isEmpty else { return self }
            var copy = self
            copy.owners = owners.filter { !nodes.contains($0.value) }
            copy.publicRooms = publicRooms.filter { copy.owners[$0.code] != nil }
            copy.allRooms = allRooms.filter { !nodes.contains($0.node) }
            return copy
        }
    }

    /// A room another node runs, as the moderator's room list shows it.
    struct Listed: Sendable, Equatable {
        var summary: RoomSummary
        var node: String
    }

    private let directory = Mutex(Directory())

    /// Whether a token this node does not know may be another node's player.
    var looksUpPlayers: Bool { store != nil }

    /// Sends `redirect` once this node's queued changes (the player's own record among
    /// them) are committed, so the node the client goes to finds its token in the store.
    func sendRedirect(room: RoomCode, node: String, to outbox: Outbox) {
        let message = Self.redirectMessage(room: room, node: node)
        guard let store else { return outbox.sendText(message) }
        Task {
            await store.flush()
            outbox.sendText(message)
        }
    }

    func lookupPlayer(tokenHash: String) async -> StoredState.Player? {
        await store?.otherNodesPlayer(tokenHash: tokenHash)
    }

    /// Passes an invitation for a player not connected here to the other nodes; false on a
    /// single node, where it is refused `not_online` at once.
    func forwardInvite(_ target: PlayerID, from sender: PlayerID, text: String) -> Bool {
        guard let messenger else { return false }
        messenger.invite(target, from: sender, text: text)
        return true
    }

    /// A public room of another node a quick player may join: in its lobby, with a seat
    /// free and a person connected, in `Lobby.quickplayCandidates`' order.
    var quickplayCandidate: (code: RoomCode, node: String)? {
        directory.withLock { d in
            d.publicRooms
                .filter { $0.isQuickplayCandidate && d.owners[$0.code] != nil }
                .min(by: RoomSummary.quickplayOrder)
                .flatMap { room in d.owners[room.code].map { (room.code, $0) } }
        }
    }

    /// The room a player had when another node took it over lately.
    func movedRoom(of player: PlayerID) -> (room: RoomCode, node: String)? {
        messenger?.movedRoom(of: player)
    }

    /// The room another node runs with `player` in it, and that node: a player who
    /// resumed here (a balancer sent it to a node restarted since, say) is sent there.
    func roomElsewhere(of player: PlayerID) async -> (room: RoomCode, node: String)? {
        guard let store, let room = await store.roomOf(player), let node = await findOwner(of: room) else { return nil }
        return (room, node)
    }

    /// A room creation this node allowed `address`, for the other nodes to count.
    func shareRoomCreation(by address: String) {
        messenger?.roomCreated(by: address)
    }

    func owner(of code: RoomCode) -> String? { directory.withLock { $0.owners[code] } }

    /// Whether a room missing here and from the directory may still run on another node.
    var looksUpOwners: Bool { store != nil }

    /// The node that runs `code`: from the directory, else from the store. A room made on
    /// another node since the last refresh is joinable at once (an invite link clicked
    /// straight away), not `room_not_found` until the refresh.
    ///
    /// A room of a draining node is about to move: its lease is still that node's until its
    /// last changes are written, then nobody's until another node takes it over. The store
    /// is asked again until another node holds it, or `isHere` says this node took it (then
    /// nil, and the caller finds the room here).
    func findOwner(of code: RoomCode, isHere: (RoomCode) -> Bool = { _ in false }) async -> String? {
        if let node = owner(of: code) { return node }
        guard let store else { return nil }
        let deadline = clock.elapsed() + Self.drainingPatience
        var moving = false
        while true {
            let holder = await store.leaseHolder(of: code)
            if let node = holder, !isDraining(node) {
                // Until the next refresh replaces the directory, with this room in it.
                directory.withLock { $0.owners[code] = $0.owners[code] ?? node }
                return node
            }
            // Nobody holds it and nobody was handing it over: there is no such room.
            if holder != nil { moving = true }
            guard moving, !isHere(code), clock.elapsed() < deadline else { return nil }
            await clock.sleep(Self.drainingAskEvery)
        }
    }

    var publicRooms: [RoomSummary] { directory.withLock { $0.publicRooms } }

    var allRooms: [Listed] { directory.withLock { $0.allRooms } }

    func replace(_ new: Directory) {
        directory.withLock { d in
            let draining = d.draining
            d = new.without(draining)
            d.draining = draining
        }
    }

    /// `node` drains, or runs again after its restart.
    func setDraining(_ node: String, _ draining: Bool) {
        directory.withLock { d in
            if draining {
                d.draining.insert(node)
                d = d.without([node])
            } else {
                d.draining.remove(node)
            }
        }
    }

    func isDraining(_ node: String) -> Bool { directory.withLock { $0.draining.contains(node) } }

    /// How long a join for a room of a draining node waits for another node to take the
    /// room over, asking the store every `drainingAskEvery`.
    static let drainingPatience = Duration.seconds(3)
    static let drainingAskEvery = Duration.milliseconds(100)

    /// `{"t":"redirect","room":CODE,"node":NODE,"path":"/ws?node=NODE"}` (docs/PROTOCOL.md).
    static func redirectMessage(room: RoomCode, node: String) -> [UInt8] {
        ServerMessage.redirect(room: room, node: node, path: "/ws?node=\(node)").jsonBytes()
    }
}
