import DrawProtocol
import Rooms

/// What travels between nodes, as a pure state machine: requests and heard messages and
/// the current time in, `ClusterRouter.Action`s out. `ClusterBus` sends and hears the
/// messages (LISTEN/NOTIFY) and carries out the rest.
///
/// NOTIFY reaches every listening node at most once and may be lost when a node's
/// listening connection drops, so every request has a deadline: an invitation nobody
/// delivered in time is answered `not_online`, as on one node.
struct ClusterRouter: Sendable {
    struct Configuration: Sendable, Equatable {
        /// How long an invitation waits for the invitee's node to say it delivered it.
        var inviteTimeout: Duration = .seconds(1)
        /// How often the node says where it can be reached.
        var announceEvery: Duration = .seconds(2)
        /// A node not heard from for this long is forgotten.
        var forgetAfter: Duration = .seconds(10)
        /// How long a player whose room moved to another node is sent there when it says
        /// hello here.
        var rememberMoves: Duration = .seconds(30)
    }

    enum Action: Sendable, Equatable {
        case publish(ClusterMessage)
        /// Give `text` (an `invited` message) to `player`, connected here.
        case deliver(text: String, to: PlayerID)
        /// Nobody delivered the invitation `sender` sent.
        case notOnline(sender: PlayerID)
        /// Another node released rooms: look for rooms to take over now.
        case scanForOrphans
        /// `players` connected here and in no room: send them `redirect` to `node`.
        case redirect(players: [PlayerID], room: RoomCode, node: String)
        /// Another node let `address` create a room: spend it here too.
        case spendRoomCreation(address: String)
        /// `node` drains (true) or runs again after a restart (false): its rooms are
        /// moving, so joins for them wait for their next node.
        case nodeDraining(String, Bool)
    }

    private struct Pending: Sendable, Equatable {
        var sender: PlayerID
        var deadline: Timestamp
    }

    private struct Peer: Sendable, Equatable {
        var url: String
        var heardAt: Timestamp
    }

    let nodeID: String
    private(set) var advertise: String
    let configuration: Configuration
    private var peers: [String: Peer] = [:]
    private var pending: [String: Pending] = [:]
    private var sequence = 0
    private var nextAnnounce: Timestamp?
    private var moves: [PlayerID: (room: RoomCode, node: String, until: Timestamp)] = [:]
    /// Set once this node starts draining: it no longer announces itself.
    private(set) var isDraining = false
    /// Other nodes that said they drain and have not announced themselves since.
    private(set) var drainingPeers: Set<String> = []

    init(nodeID: String, advertise: String, configuration: Configuration = Configuration()) {
        self.nodeID = nodeID
        self.advertise = advertise
        self.configuration = configuration
    }

    /// The node's own URL, once known (the port bound with `--port 0`): announced from the
    /// next tick on.
    mutating func setAdvertise(_ url: String) {
        advertise = url
        nextAnnounce = nil
    }

    /// Where node `id` said it can be reached; nil for this node and unknown ones.
    func url(of id: String) -> String? { peers[id]?.url }

    var pendingInvites: Int { pending.count }

    /// The room `player` had when another node took it over lately, and that node.
    func movedRoom(of player: PlayerID, now: Timestamp) -> (room: RoomCode, node: String)? {
        guard let move = moves[player], now < move.until else { return nil }
        return (move.room, move.node)
    }

    /// `sender` invites `target`, who is not connected here: ask the other nodes.
    mutating func invite(_ target: PlayerID, from sender: PlayerID, text: String, now: Timestamp) -> [Action] {
        sequence += 1
        let id = "\(nodeID)/\(sequence)"
        pending[id] = Pending(sender: sender, deadline: now + DurationText.milliseconds(configuration.inviteTimeout))
        return [.publish(.invite(id: id, origin: nodeID, target: target.rawValue, text: text))]
    }

    /// This node starts draining: the others are told, and it stops announcing itself.
    mutating func startDraining() -> [Action] {
        isDraining = true
        return [.publish(.draining(node: nodeID))]
    }

    /// This node let `address` create a room: the others are told.
    func roomCreated(by address: String) -> [Action] {
        [.publish(.roomCreation(node: nodeID, address: address))]
    }

    /// A message another node (or this one: NOTIFY echoes to its sender) published.
    /// `isConnectedHere` says whether a player has a connection on this node.
    mutating func heard(_ message: ClusterMessage, now: Timestamp, isConnectedHere: (PlayerID) -> Bool) -> [Action] {
        switch message {
        case .node(let id, let url):
            guard id != nodeID else { return [] }
            let isNew = peers[id] == nil
            peers[id] = Peer(url: url, heardAt: now)
            var actions: [Action] = []
            // A draining node stops announcing itself: one that does again has restarted.
            if drainingPeers.remove(id) != nil { actions.append(.nodeDraining(id, false)) }
            // A node that just started learns where this one is without waiting a period.
            if isNew, !isDraining { actions.append(.publish(.node(id: nodeID, url: advertise))) }
            return actions
        case .draining(let node):
            guard node != nodeID, drainingPeers.insert(node).inserted else { return [] }
            // Rooms that moved to it are moving again: their players are not sent there.
            moves = moves.filter { $0.value.node != node }
            return [.nodeDraining(node, true)]
        case .invite(let id, let origin, let target, let text):
            guard origin != nodeID else { return [] }
            let player = PlayerID(target)
            guard isConnectedHere(player) else { return [] }
            return [.deliver(text: text, to: player), .publish(.delivered(id: id, origin: origin))]
        case .delivered(let id, let origin):
            guard origin == nodeID else { return [] }
            pending[id] = nil
            return []
        case .released(let node, let rooms):
            guard node != nodeID, !rooms.isEmpty else { return [] }
            return [.scanForOrphans]
        case .moved(let room, let node, let players):
            guard node != nodeID, let code = RoomCode(parsing: room) else { return [] }
            let ids = players.map(PlayerID.init)
            for id in ids { moves[id] = (code, node, now + DurationText.milliseconds(configuration.rememberMoves)) }
            let here = ids.filter(isConnectedHere)
            return here.isEmpty ? [] : [.redirect(players: here, room: code, node: node)]
        case .roomCreation(let node, let address):
            guard node != nodeID else { return [] }
            return [.spendRoomCreation(address: address)]
        }
    }

    /// Invitations past their deadline, the periodic announcement, forgotten peers.
    mutating func tick(now: Timestamp) -> [Action] {
        var actions: [Action] = []
        for (id, request) in pending.sorted(by: { $0.key < $1.key }) where now >= request.deadline {
            pending[id] = nil
            actions.append(.notOnline(sender: request.sender))
        }
        if !isDraining, nextAnnounce.map({ now >= $0 }) ?? true {
            nextAnnounce = now + DurationText.milliseconds(configuration.announceEvery)
            actions.append(.publish(.node(id: nodeID, url: advertise)))
        }
        peers = peers.filter { now - $0.value.heardAt < DurationText.milliseconds(configuration.forgetAfter) }
        moves = moves.filter { now < $0.value.until }
        return actions
    }
}
