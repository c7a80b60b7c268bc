import DrawProtocol
import Logging
import PostgresNIO
import Rooms
import Synchronization

/// The thin owner of `ClusterRouter`: LISTENs on one PostgreSQL channel on a connection of
/// its own, NOTIFYs through the store's pool, ticks the router, and hands what the router
/// says the game server must do to whoever follows `work` (the runtime, which carries it
/// out with `perform(_:on:)`). It never holds the server, which holds it. Low-rate traffic
/// only (invitations, node addresses, hand-overs): drawing never goes through it.
///
/// Its waits (the router's tick, the patience for the listening connection, the repeats
/// of a "moved" notice, the pause before listening again) run on the store's clock, so a
/// test that hands the store a `ManualServerClock` moves them too.
final class ClusterBus: RemoteRooms.Messenger {
    static let channel = "drawserver"
    /// How often the router's deadlines are checked.
    static let tickInterval: Duration = .milliseconds(100)

    let store: PostgresGameStore
    /// The game's clock: the router's deadlines are in game time.
    let clock: ServerClock
    let logger: Logger
    /// What the router asked for that needs the server, in order; `follow(on:)` does it.
    private let work: AsyncStream<Work>
    private let workSink: AsyncStream<Work>.Continuation
    private let router: Mutex<ClusterRouter>
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let listening = Atomic<Bool>(false)
    /// A "moved" notice is published again after these delays: a node whose listening
    /// connection was being set up (it just started) or replaced would miss it once.
    static let movedRepeats: [Duration] = [.seconds(1), .seconds(3)]
    /// How long a lost listening connection waits before it is replaced.
    static let relistenDelay = Duration.seconds(1)
    /// How often `waitUntilListening` looks.
    static let listeningPoll = Duration.milliseconds(10)

    /// What the bus passes on for the server: a message heard (routed where the server can
    /// say who is connected), or actions the router already decided.
    private enum Work: Sendable {
        case heard(ClusterMessage)
        case perform([ClusterRouter.Action])
    }

    init(store: PostgresGameStore, clock: ServerClock, advertise: String, logger: Logger) {
        self.store = store
        self.clock = clock
        self.logger = logger
        self.router = Mutex(ClusterRouter(nodeID: store.nodeID, advertise: advertise))
        (work, workSink) = AsyncStream.makeStream(of: Work.self)
    }

    /// Carries out on `server` what the bus hears and decides, until `stop()`.
    func follow(on server: GameServer) async {
        for await item in work {
            switch item {
            case .heard(let message):
                let actions = router.withLock { r in
                    r.heard(message, now: clock.now, isConnectedHere: { server.outbox(of: $0) != nil })
                }
                perform(actions, on: server)
            case .perform(let actions):
                perform(actions, on: server)
            }
        }
    }

    /// Where node `id` can be reached, as it announced; nil when not heard from.
    func url(of id: String) -> String? { router.withLock { $0.url(of: id) } }

    func setAdvertise(_ url: String) {
        router.withLock { $0.setAdvertise(url) }
    }

    func start() {
        let running = Task { [self] in
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.listen() }
                group.addTask {
                    while !Task.isCancelled {
                        self.pass(self.router.withLock { $0.tick(now: self.clock.now) })
                        await self.store.clock.sleep(Self.tickInterval)
                    }
                }
            }
        }
        task.withLock { $0 = running }
    }

    /// Waits (at most `patience`) until the node listens on the channel, so a node that
    /// opens for players hears the others' notices from its first player on.
    func waitUntilListening(patience: Duration = .seconds(2)) async {
        let clock = store.clock
        let deadline = clock.elapsed() + patience
        while !listening.load(ordering: .acquiring), clock.elapsed() < deadline {
            await clock.sleep(Self.listeningPoll)
        }
    }

    func stop() {
        task.withLock { $0 }?.cancel()
        workSink.finish()
    }

    /// `sender` invites `target`, who is not connected to this node.
    func invite(_ target: PlayerID, from sender: PlayerID, text: String) {
        pass(router.withLock { $0.invite(target, from: sender, text: text, now: clock.now) })
    }

    /// Tells the other nodes to take `rooms` over now (a draining node released them).
    func announceReleased(_ rooms: [RoomCode]) async {
        guard !rooms.isEmpty else { return }
        await publish(.released(node: store.nodeID, rooms: rooms.map(\.rawValue)))
    }

    /// This node took `rooms` over: their members connected to other nodes are sent here.
    /// The notice is repeated for the rooms still `here` a while later.
    func announceMoved(_ rooms: [(RoomCode, [String])], stillHere: @Sendable (RoomCode) -> Bool) async {
        let messages = rooms.filter { !$0.1.isEmpty }.map { ClusterMessage.moved(room: $0.0.rawValue, node: store.nodeID, players: $0.1) }
        guard !messages.isEmpty else { return }
        for message in messages { await publish(message) }
        for delay in Self.movedRepeats {
            await store.clock.sleep(delay)
            // Only rooms still here: one lost meanwhile is another node's to announce.
            for message in messages {
                guard case .moved(let code, _, _) = message, let room = RoomCode(parsing: code), stillHere(room) else { continue }
                await publish(message)
            }
        }
    }

    /// This node starts draining: the other nodes stop sending joins here for its rooms.
    /// Awaited, so they hear it before its players are asked to reconnect.
    func announceDraining() async {
        let actions = router.withLock { $0.startDraining() }
        for case .publish(let message) in actions { await publish(message) }
    }

    /// This node let `address` create a room.
    func roomCreated(by address: String) {
        pass(router.withLock { $0.roomCreated(by: address) })
    }

    /// The room `player` had when another node took it over lately.
    func movedRoom(of player: PlayerID) -> (room: RoomCode, node: String)? {
        router.withLock { $0.movedRoom(of: player, now: clock.now) }
    }

    /// Listens until cancelled; a lost connection is replaced after `relistenDelay`
    /// (messages sent meanwhile are missed: every request has a deadline).
    private func listen() async {
        while !Task.isCancelled {
            do {
                try await store.client.withOpenConnection(limit: .unlimited) { connection in
                    try await connection.listen(on: Self.channel) { notifications in
                        self.listening.store(true, ordering: .releasing)
                        defer { self.listening.store(false, ordering: .releasing) }
                        for try await notification in notifications {
                            self.heard(notification.payload)
                        }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("cluster channel lost; listening again", metadata: ["error": "\(StoreOpenError.reason(error))"])
            }
            if Task.isCancelled { return }
            await store.clock.sleep(Self.relistenDelay)
        }
    }

    func heard(_ payload: String) {
        guard let message = ClusterMessage(payload: payload) else {
            logger.debug("cluster message ignored", metadata: ["payload": "\(payload.prefix(200))"])
            return
        }
        workSink.yield(.heard(message))
    }

    /// Publishes what needs no server here; the rest goes to the follower, in order.
    private func pass(_ actions: [ClusterRouter.Action]) {
        var forServer: [ClusterRouter.Action] = []
        for action in actions {
            if case .publish(let message) = action {
                Task { await self.publish(message) }
            } else {
                forServer.append(action)
            }
        }
        if !forServer.isEmpty { workSink.yield(.perform(forServer)) }
    }

    private func perform(_ actions: [ClusterRouter.Action], on server: GameServer) {
        for action in actions {
            switch action {
            case .publish(let message):
                Task { await self.publish(message) }
            case .deliver(let text, let player):
                server.outbox(of: player)?.sendText(Array(text.utf8))
            case .notOnline(let sender):
                if let outbox = server.outbox(of: sender) {
                    server.send(.error(ProtocolError(.notOnline, "that player is not online", ref: "invite")), to: outbox)
                }
            case .scanForOrphans:
                store.scanSoon()
            case .redirect(let players, let room, let node):
                for player in players where server.roomOf(player) == nil {
                    if let outbox = server.outbox(of: player) { server.remoteRooms.sendRedirect(room: room, node: node, to: outbox) }
                }
            case .spendRoomCreation(let address):
                server.roomCreatedElsewhere(by: address)
            case .nodeDraining(let node, let draining):
                server.remoteRooms.setDraining(node, draining)
            }
        }
    }

    private func publish(_ message: ClusterMessage) async {
        do {
            try await store.client.execute("SELECT pg_notify(\(Self.channel), \(message.payload))", logger: logger)
        } catch {
            logger.warning("cluster message not sent", metadata: ["error": "\(StoreOpenError.reason(error))"])
        }
    }
}
