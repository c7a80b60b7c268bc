import CoreMetrics
import Canvas
import DrawProtocol
import Logging
import NIOCore
import NIOPosix
import Bots
import Rooms
import Synchronization

/// The shared heart of a running server: the lobby, the live rooms and the open
/// connections.
///
/// The lobby is a value type kept behind one lock and called synchronously, by
/// sessions and by rooms alike, so "a room released this player" and "this
/// player joins another room" are always seen in order. Each room has a lock of its own
/// (`LiveRoom`). Locks are taken in one order, a room's before the directory's: the server
/// never calls a room while it holds the directory's lock.
package final class GameServer: Sendable {
    let configuration: ServerConfiguration
    /// Game time and the rooms' timers; a test may hand in virtual time.
    package let clock: ServerClock
    let logger: Logger
    let store: any GameStore
    /// Each loop's poller for busy connections (`ReadPoller`); nil when NIO reads them all.
    let readPollers: ReadPollers?
    /// Rooms other nodes run (several nodes on one store); empty on a single node.
    let remoteRooms: RemoteRooms
    /// Recent finished drawings, for `/d/ID.png` before (or without) the database.
    let drawings = DrawingShelf()
    /// Gallery opt-outs, bans and open reports.
    let moderation: Moderation
    let metrics: ServerMetrics
    /// Each event loop's hand-offs and drains of its connections' outputs.
    package let loopDeliveries = LoopDeliveries()
    /// Runs the rooms' timers.
    let eventLoopGroup: any EventLoopGroup
    /// Refuses new rooms, joins and quick plays while the node is saturated.
    let admission: AdmissionControl
    /// Watches the rooms' and the directory's locks for system calls (tests only).
    let lockAudit: LockAudit?

    struct Directory: Sendable {
        var lobby: Lobby
        var rooms: [RoomCode: LiveRoom] = [:]
        /// Every open WebSocket connection, greeted or not.
        var outboxes: [ConnectionID: Outbox] = [:]
        var greeted: Set<ConnectionID> = []
        /// Open connections and the connection and room-creation budgets per client address.
        var addresses: AddressBudgets
        /// Set once by `beginDrain()`: connections registered later are told to come back.
        var draining = false
        /// `whenClosed` callers: the connections each still waits for.
        var closeWaiters: [(open: Set<ConnectionID>, then: @Sendable () -> Void)] = []
        /// Players sent on after `welcome` to their room's node (`hello`), and when: one who
        /// is back here soon after could not reach it (gone, or its room just moved), and is
        /// not sent there again, so a client never bounces between nodes.
        var sentOn: [PlayerID: Timestamp] = [:]
    }

    /// How long a player sent on after `welcome` is not sent on again.
    static let sentOnMemoryMs = 10_000

    /// The drawings bots draw from: the shipped samples, and people's well-rated drawings
    /// once the store is loaded (`addBotDrawings`).
    private let botLibraryState = Mutex(BotLibrary.samples)

    var botLibrary: BotLibrary { botLibraryState.withLock { $0 } }

    /// Most drawings bots keep in memory (each a turn's stroke log, at most 1 MiB; a
    /// person's is typically a few KiB).
    static let maxBotDrawings = 2_000

    /// Adds people's drawings (stored turns, best first) ahead of the samples.
    func addBotDrawings(_ drawings: [(word: String, log: StrokeLog)]) {
        botLibraryState.withLock { library in
            // Added in reverse so the best ends up first.
            for drawing in drawings.reversed() where drawing.log.size == configuration.room.canvas && library.count < Self.maxBotDrawings {
                library.addStored(drawing.log, word: drawing.word)
            }
        }
    }

    private let directory: Mutex<Directory>

    /// The directory's lock, under which no system call is made (`LockAudit`).
    private func lockDirectory<T>(_ body: (inout Directory) -> T) -> T {
        LockAudit.holding(lockAudit, "the directory's lock") { directory.withLock { body(&$0) } }
    }
    /// Bumped, under the directory's lock, by every change that may move a player to
    /// another room or remove a room, so a session can keep using the room it draws in
    /// until then (`roomAndVersion(of:)`) instead of looking it up per drawing frame.
    private let membershipVersion = Atomic<Int>(0)
    private let connectionCounter = Atomic<UInt64>(0)
    private let connectionsClosed = ConnectionsClosedSignal()

    init(
        configuration: ServerConfiguration, logger: Logger, store: any GameStore = MemoryOnlyStore(), metrics: ServerMetrics = ServerMetrics(),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, readPollers: ReadPollers? = nil, clock: ServerClock = ServerClock(),
        moderation: Moderation = Moderation(), remoteRooms: RemoteRooms = RemoteRooms(), lockAudit: LockAudit? = nil
    ) {
        self.configuration = configuration
        self.lockAudit = lockAudit
        self.moderation = moderation
        self.remoteRooms = remoteRooms
        self.readPollers = readPollers
        self.clock = clock
        self.eventLoopGroup = eventLoopGroup
        self.logger = logger
        self.store = store
        self.metrics = metrics
        self.admission = AdmissionControl(configuration: configuration.admission, clock: clock, metrics: metrics, logger: logger)
        // On a shared store every node draws its own codes: the same `--seed` on two nodes
        // must not make the same rooms.
        let random: RandomSource = configuration.seed.map { .seeded(configuration.cluster.store == nil ? $0 : $0 ^ Self.fnv1a(configuration.cluster.nodeID)) } ?? .system
        self.directory = Mutex(Directory(lobby: Lobby(random: random), addresses: AddressBudgets(limits: configuration.limits)))
    }

    // MARK: - Connections

    func newConnectionID() -> ConnectionID {
        ConnectionID(connectionCounter.add(1, ordering: .relaxed).newValue)
    }

    /// True once the connection's `hello` was accepted.
    func hasSaidHello(_ connection: ConnectionID) -> Bool {
        lockDirectory { $0.greeted.contains(connection) }
    }

    /// Open WebSocket connections.
    var connectionCount: Int { lockDirectory { $0.outboxes.count } }

    /// Runs `body` once no WebSocket connection is open (at once if none is).
    func whenNoConnections(_ body: @escaping @Sendable () -> Void) {
        connectionsClosed.add(body)
        if connectionCount == 0 { connectionsClosed.fire() }
    }

    /// What `register` decided for a new connection.
    enum Admission: Equatable {
        case accepted
        /// Its IP address already has the most connections allowed (close it with 1008).
        case tooManyFromAddress
        /// Registered while the server drains: close it with 1012 straight away.
        case draining
    }

    /// Registers a new connection, unless its IP address is over the cap.
    ///
    /// The drain flag is read under the same lock `beginDrain()` sets it under, so a
    /// connection either is in the drain's list or learns that the server is draining.
    func register(_ connection: ConnectionID, outbox: Outbox, ip: String) -> Admission {
        let (admission, count) = lockDirectory { d -> (Admission, Int) in
            guard d.addresses.opened(from: ip) else { return (.tooManyFromAddress, d.outboxes.count) }
            d.outboxes[connection] = outbox
            return (d.draining ? .draining : .accepted, d.outboxes.count)
        }
        metrics.connections.record(count)
        return admission
    }

    /// Marks the server as draining and returns every open connection's outbox.
    func beginDrain() -> [Outbox] {
        lockDirectory { d in
            d.draining = true
            return Array(d.outboxes.values)
        }
    }

    /// Open connections from `ip`.
    func connections(from ip: String) -> Int {
        lockDirectory { $0.addresses.openConnections(from: ip) }
    }

    /// Whether `ip` may open a WebSocket now: under its cap of open connections, and within
    /// its rate of new ones (this spends one). False answers the upgrade with 429.
    func admitUpgrade(from ip: String) -> Bool {
        let now = clock.now
        return lockDirectory { d in
            !d.addresses.isFull(ip) && d.addresses.takeNewConnection(from: ip, now: now)
        }
    }

    /// Spends one of `ip`'s room creations; false when its budget is used up. On a shared
    /// store the other nodes spend it too (`ClusterMessage.roomCreation`), so one address
    /// has one budget across the cluster.
    func allowRoomCreation(from ip: String) -> Bool {
        let now = clock.now
        let (allowed, counted) = lockDirectory { d in
            (d.addresses.takeRoomCreation(from: ip, now: now), !d.addresses.isUnlimited(ip))
        }
        if allowed, counted { remoteRooms.shareRoomCreation(by: ip) }
        return allowed
    }

    /// Another node let `ip` create a room: spent here as well.
    func roomCreatedElsewhere(by ip: String) {
        let now = clock.now
        lockDirectory { d in _ = d.addresses.takeRoomCreation(from: ip, now: now) }
    }

    /// `hello`: registers the connection, closes an older one of the same player with
    /// 4001, sends `welcome`, and puts a seated player back in its room.
    /// `askedNode`: the node the client asked the balancer for (`/ws?node=`).
    func hello(
        name: String, token: String?, avatar: Avatar? = nil, connection: ConnectionID, outbox: Outbox, askedNode: String? = nil
    ) -> Result<PlayerID, ProtocolError> {
        let now = clock.now
        let outcome: Result<(Welcome, Outbox?, LiveRoom?), ProtocolError> = changingMembership { d in
            d.lobby.hello(name: name, token: token, avatar: avatar, connection: connection, now: now).map { welcome in
                d.greeted.insert(connection)
                let replaced = welcome.replaced.flatMap { d.outboxes[$0] }
                let room = welcome.player.room.flatMap { d.rooms[$0] }
                return (welcome, replaced, room)
            }
        }
        switch outcome {
        case .failure(let error):
            return .failure(error)
        case .success(let (welcome, replaced, room)):
            store.playerChanged(welcome.player)
            replaced?.close(code: .replaced, reason: "replaced by a newer connection with the same token", flush: false)
            send(welcome.message, to: outbox)
            room?.attach(welcome.player.id, outbox: outbox, avatar: welcome.player.avatar)
            // Its room was taken over by another node while it was away: send it there.
            if room == nil, let moved = remoteRooms.movedRoom(of: welcome.player.id) {
                remoteRooms.sendRedirect(room: moved.room, node: moved.node, to: outbox)
            } else if room == nil, welcome.resumed, remoteRooms.looksUpOwners, askedNode == configuration.cluster.nodeID {
                // It came back to this node for its room, which runs elsewhere now (this node
                // restarted since): the store knows who is in which room. Only then: a client
                // the balancer sent here from the node it asked for could not reach that node
                // (gone, or its room is about to move), and the room's move is told it.
                let player = welcome.player.id
                Task {
                    guard let found = await remoteRooms.roomElsewhere(of: player), takeSendingOn(player, connection: connection) else { return }
                    remoteRooms.sendRedirect(room: found.room, node: found.node, to: outbox)
                }
            }
            return .success(welcome.player.id)
        }
    }

    /// Whether to send `player` on to its room's node: it is still connected through
    /// `connection`, in no room here, and was not sent on lately (`sentOn`).
    func takeSendingOn(_ player: PlayerID, connection: ConnectionID) -> Bool {
        let now = clock.now
        return lockDirectory { d in
            guard let record = d.lobby.players[player], record.connection == connection, record.room == nil else { return false }
            d.sentOn = d.sentOn.filter { now - $0.value < Self.sentOnMemoryMs }
            guard d.sentOn[player] == nil else { return false }
            d.sentOn[player] = now
            return true
        }
    }

    /// The connection closed: the player keeps its seat for the grace period.
    func connectionClosed(_ connection: ConnectionID, player: PlayerID?, outbox: Outbox, ip: String) {
        let now = clock.now
        let (room, count, waiters): (LiveRoom?, Int, [@Sendable () -> Void]) = changingMembership { d in
            var waiters: [@Sendable () -> Void] = []
            if d.outboxes[connection] === outbox {
                d.outboxes[connection] = nil
                d.addresses.closed(from: ip)
                waiters = d.noteClosed(connection)
            }
            d.greeted.remove(connection)
            guard let player, d.lobby.players[player]?.connection == connection else { return (nil, d.outboxes.count, waiters) }
            d.lobby.disconnected(player, connection: connection, now: now)
            return (d.lobby.players[player]?.room.flatMap { d.rooms[$0] }, d.outboxes.count, waiters)
        }
        for waiter in waiters { waiter() }
        metrics.connections.record(count)
        if let player, let room { room.detach(player, outbox: outbox) }
        if count == 0 { connectionsClosed.fire() }
    }

    /// Sends one message to one connection, counted in the metrics.
    func send(_ message: ServerMessage, to outbox: Outbox) {
        let bytes = message.jsonBytes()
        metrics.sent(message.type, bytes: bytes.count)
        outbox.sendText(bytes)
    }

    // MARK: - Called by rooms, under their locks

    func seated(_ player: PlayerID, in code: RoomCode) {
        changingMembership { $0.lobby.seated(player, in: code) }
    }

    func released(_ player: PlayerID, from code: RoomCode) {
        changingMembership { $0.lobby.released(player, from: code) }
    }

    func update(_ summary: RoomSummary) {
        lockDirectory { d in
            // A closed room may still report once; it must not come back to life.
            if d.rooms[summary.code] != nil { d.lobby.update(summary) }
        }
    }

    /// Rooms taken over from a node that is gone (several nodes on one store): runs them
    /// here. Unlike `restore` it leaves the players this node already knows as they are,
    /// and puts members connected here (and in no other room) back in at once. Returns the
    /// rooms started.
    func adoptRooms(_ stored: StoredState) -> Set<RoomCode> {
        let now = clock.now
        var started: [LiveRoom] = []
        var attachments: [(room: LiveRoom, player: PlayerID, outbox: Outbox)] = []
        changingMembership { d in
            for player in stored.players where d.lobby.players[PlayerID(player.id)] == nil {
                d.lobby.add(PlayerRecord(id: PlayerID(player.id), name: player.name, tokenHash: player.tokenHash, lastSeen: now))
            }
            for stored in stored.rooms {
                guard let code = RoomCode(parsing: stored.snapshot.code), d.rooms[code] == nil else { continue }
                do {
                    var room = try Room(restoring: stored.snapshot, frames: stored.frames, configuration: configuration.room, now: now)
                    guard !room.members.isEmpty else { continue }
                    room.botVocabulary = botLibrary.vocabulary
                    let live = LiveRoom(room: room, server: self)
                    d.rooms[code] = live
                    d.lobby.update(room.summary)
                    for member in room.members {
                        guard let record = d.lobby.players[member.id], record.room == nil else { continue }
                        d.lobby.seated(member.id, in: code)
                        if let connection = record.connection, let outbox = d.outboxes[connection] {
                            attachments.append((live, member.id, outbox))
                        }
                    }
                    started.append(live)
                } catch {
                    logger.error("a room taken over could not be restored", metadata: ["room": "\(code)", "error": "\(error)"])
                }
            }
        }
        for room in started { room.start() }
        for attachment in attachments { attachment.room.attach(attachment.player, outbox: attachment.outbox) }
        return Set(started.map(\.code))
    }

    /// Whether this node knows the player holding `token`.
    func knowsToken(_ token: String) -> Bool {
        let hash = TokenHash.hex(token)
        return withLobby { $0.knows(tokenHash: hash) }
    }

    /// Players other nodes stored since this node last looked: their tokens resume here
    /// too (a client that follows a `redirect` says hello here with its token).
    func adopt(_ players: [StoredState.Player]) {
        let now = clock.now
        lockDirectory { d in
            for player in players where d.lobby.players[PlayerID(player.id)] == nil {
                d.lobby.add(PlayerRecord(id: PlayerID(player.id), name: player.name, tokenHash: player.tokenHash, lastSeen: now))
            }
        }
    }

    /// The room's lease went to another node: stop running it here, without a word to the
    /// store (the room lives on elsewhere); its members are asked to reconnect (1012).
    func abandon(_ code: RoomCode) {
        guard let room = room(code) else { return }
        room.abandon()
        roomClosed(code)
    }

    func roomClosed(_ code: RoomCode) {
        changingMembership { d in
            d.rooms[code] = nil
            d.lobby.removeRoom(code)
        }
    }

    /// `lockDirectory` for changes that may move a player between rooms or remove a
    /// room: bumps `membershipVersion` before the lock is released.
    private func changingMembership<T>(_ body: (inout Directory) -> T) -> T {
        lockDirectory { d in
            defer { membershipVersion.wrappingAdd(1, ordering: .releasing) }
            return body(&d)
        }
    }

    /// The version of room membership now; a room found by `roomAndVersion(of:)` at this
    /// version is still the player's room.
    var currentMembershipVersion: Int { membershipVersion.load(ordering: .acquiring) }

    /// The player's room and the membership version it was found at.
    func roomAndVersion(of player: PlayerID) -> (room: LiveRoom?, version: Int) {
        lockDirectory { d in
            (d.lobby.players[player]?.room.flatMap { d.rooms[$0] }, membershipVersion.load(ordering: .relaxed))
        }
    }

    // MARK: - Lookups

    /// Reads the lobby under the lock. Read-only, so it leaves the sessions' kept drawing
    /// rooms valid (`roomAndVersion(of:)`): listings and metrics scrapes run it often.
    func withLobby<T>(_ body: (Lobby) -> T) -> T {
        lockDirectory { body($0.lobby) }
    }

    /// The lobby, live rooms and connections under the lock; `body` must not block or await.
    func withDirectory<T>(_ body: (inout Directory) -> T) -> T {
        changingMembership { body(&$0) }
    }

    func room(_ code: RoomCode) -> LiveRoom? {
        lockDirectory { $0.rooms[code] }
    }

    func roomOf(_ player: PlayerID) -> LiveRoom? { roomAndVersion(of: player).room }

    func outbox(of player: PlayerID) -> Outbox? {
        lockDirectory { d in d.lobby.players[player]?.connection.flatMap { d.outboxes[$0] } }
    }

    var allRooms: [LiveRoom] { lockDirectory { Array($0.rooms.values) } }
    var allOutboxes: [Outbox] { lockDirectory { Array($0.outboxes.values) } }

    /// Creates a room under a fresh code (the caller then joins it).
    func makeRoom(for player: PlayerID, name: String, isPublic: Bool, settings: RoomSettings) -> Result<LiveRoom, ProtocolError> {
        changingMembership { d in
            // A code another node runs is drawn again (the directory is at most a moment
            // old; a code taken meanwhile loses its lease on first write, and is refused).
            var reservation = d.lobby.newRoom(by: player)
            var draws = 1
            while case .success(let reserved) = reservation, remoteRooms.owner(of: reserved.code) != nil, draws < 16 {
                reservation = d.lobby.newRoom(by: player)
                draws += 1
            }
            return reservation.map { reserved in
                var room = Room(
                    code: reserved.code, name: name, isPublic: isPublic, settings: settings,
                    configuration: configuration.room, seed: reserved.seed
                )
                // `--seed` replays exactly, drawing ids included; otherwise they are system random.
                if configuration.seed != nil { room.drawingIDs = .seeded(reserved.seed ^ 0x9E37_79B9_7F4A_7C15) }
                room.botVocabulary = botLibrary.vocabulary
                let live = LiveRoom(room: room, server: self)
                d.rooms[reserved.code] = live
                d.lobby.update(room.summary)
                return live
            }
        }
    }

    /// FNV-1a of a node id: a stable seed offset per node.
    static func fnv1a(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    /// Brings back what the database held: players (offline, tokens still valid) and rooms
    /// (every member disconnected, so the grace period starts now).
    func restore(_ stored: StoredState) {
        let now = clock.now
        var rooms: [LiveRoom] = []
        changingMembership { d in
            for player in stored.players {
                d.lobby.add(PlayerRecord(
                    id: PlayerID(player.id), name: player.name, avatar: player.avatar, tokenHash: player.tokenHash, lastSeen: now
                ))
            }
            for stored in stored.rooms {
                do {
                    var room = try Room(restoring: stored.snapshot, frames: stored.frames, configuration: configuration.room, now: now)
                    guard !room.members.isEmpty else { continue }
                    room.botVocabulary = botLibrary.vocabulary
                    let live = LiveRoom(room: room, server: self)
                    d.rooms[room.code] = live
                    d.lobby.update(room.summary)
                    for member in room.members { d.lobby.seated(member.id, in: room.code) }
                    rooms.append(live)
                } catch {
                    logger.error("a stored room could not be restored", metadata: ["room": "\(stored.snapshot.code)", "error": "\(error)"])
                }
            }
        }
        for (code, reason) in stored.unreadable {
            logger.error("a stored room could not be read", metadata: ["room": "\(code)", "error": "\(reason)"])
        }
        for room in rooms { room.start() }
        logger.info("restored from the database", metadata: ["players": "\(stored.players.count)", "rooms": "\(rooms.count)"])
    }
}

