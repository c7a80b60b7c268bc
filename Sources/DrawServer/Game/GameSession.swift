import CoreMetrics
import DrawProtocol
import Logging
import NIOCore
import Rooms

/// The game protocol on one `/ws` connection, on its event loop: hello, then each message
/// dispatched to the lobby or the player's room, strictly one at a time and in the order
/// read, within the connection's rate limits. Everything here runs on that event loop, so
/// its state needs no lock; the lobby and the rooms it calls are synchronous.
///
/// A drawing frame is judged and relayed by the room right where it was read; a text
/// message is decoded, checked against its budgets and handled the same way.
final class GameSession: WebSocketService {
    let server: GameServer
    let connection: ConnectionID
    let outbox: Outbox
    let remoteIP: String
    /// The hello deadline and heartbeat, set once the connection's pipeline is built.
    var timers: ConnectionTimers?
    /// Set by `hello`.
    private(set) var player: PlayerID?
    private var limiter: ConnectionLimiter
    /// The room this player drew in, and the membership version it was found at (see
    /// `GameServer.roomAndVersion(of:)`); dropped by any text message.
    private var drawingRoom: (room: LiveRoom, version: Int)?

    /// The connection's event loop; with it (and a shared store) a `hello` with a token
    /// this node does not know waits for the store's answer (`helloPending`).
    private let eventLoop: (any EventLoop)?
    /// A hello is waiting for the store; messages read meanwhile wait in `deferred`.
    private var helloPending = false
    private var deferred: [ClientMessage] = []
    private var ended = false
    /// When this player was last told its chat is held back (`notice` `slow_down`).
    private var slowDownNoticeAt: Timestamp?
    /// At most one `slow_down` notice in this long.
    static let slowDownNoticeGapMs = 3_000
    /// Messages a client may send after its hello before the welcome comes.
    static let deferredLimit = 16

    /// The node the client asked for (`/ws?node=`): where it last found its room.
    private let askedNode: String?

    init(server: GameServer, outbox: Outbox, remoteIP: String, eventLoop: (any EventLoop)? = nil, askedNode: String? = nil) {
        self.eventLoop = eventLoop
        self.askedNode = askedNode
        self.server = server
        self.connection = server.newConnectionID()
        self.outbox = outbox
        self.remoteIP = remoteIP
        self.limiter = ConnectionLimiter(limits: server.configuration.limits, now: server.clock.now)
    }

    // MARK: - WebSocketService

    func received(_ message: WebSocketReceiver.Message, on connection: WebSocketProtocolHandler) -> WebSocketDisposition {
        // After the server asked to close, nothing more is handled.
        guard !outbox.refusesInput else { return .handled }
        switch message {
        case .binary(let buffer): return receiveBinary(buffer, receivedAt: .now, sendAtOnce: !connection.hasInputBehind)
        case .text(let buffer): return receiveText(Array(buffer: buffer))
        }
    }

    func closeSent() {
        outbox.finish()
    }

    /// The connection ended, however it ended.
    func connectionClosed() {
        ended = true
        timers?.cancel()
        outbox.finish()
        server.connectionClosed(connection, player: player, outbox: outbox, ip: remoteIP)
    }

    private var limits: ServerConfiguration.Limits { server.configuration.limits }

    /// A text message: it waits for the message budget (chat and guesses also for the
    /// chat budget), then goes to the lobby or the room.
    func receiveText(_ bytes: [UInt8]) -> WebSocketDisposition {
        guard bytes.count <= limits.maxTextFrameBytes else {
            server.metrics.received("invalid", bytes: bytes.count)
            // Parsed only for its `t` (the frame is at most the 64 KiB message limit); every
            // oversized frame counts towards the 1008 close.
            refuse(ProtocolError(.tooLarge, "text frames are limited to \(limits.maxTextFrameBytes) bytes", ref: ClientMessage.type(of: bytes)))
            return .handled
        }
        let decoded = ClientMessage.decode(bytes)
        let isChat = switch decoded {
        // Ratings share the chat budget, so liking and unliking cannot flood the room.
        case .success(.chat), .success(.guess), .success(.rate): true
        default: false
        }
        // Decided before any token is taken, so a message given again later is not
        // charged twice.
        let wait = limiter.textWaitMs(isChat: isChat, now: server.clock.now)
        guard wait == 0 else {
            if isChat { noteSlowDown(retryMs: wait) }
            return later(wait)
        }
        // Any text message lets go of the room kept for drawing, which may be closed by now.
        drawingRoom = nil
        switch decoded {
        case .failure(let error):
            server.metrics.received("invalid", bytes: bytes.count)
            // Not JSON at all is no catch-up: it counts towards the 1008 close.
            if error.code == .badJSON { refuse(error) } else { reply(error) }
        case .success(let message):
            server.metrics.received(message.type, bytes: bytes.count)
            if let limited = rateLimit(message) {
                refuse(limited)
                return .handled
            }
            if let error = dispatch(message) { reply(error.withRef(message.type)) }
        }
        return .handled
    }

    /// A drawing frame: it waits for the frame and point budgets, then the room judges and
    /// relays it at once. Every frame waits, also one refused below for want of a hello or
    /// a room: otherwise those could flood the server unchecked.
    ///
    /// With more of the drawer's input behind this frame (`sendAtOnce` false: the server is
    /// behind, so frames arrive in bursts), the relay is queued rather than sent at once, and
    /// each recipient gets the whole burst in one write when the read ends. The busier the
    /// loop, the longer the bursts and the fewer writes per frame.
    func receiveBinary(_ buffer: ByteBuffer, receivedAt: ContinuousClock.Instant, sendAtOnce: Bool = true) -> WebSocketDisposition {
        // One reading of the clock for the budget, the room and the charge: a frame is
        // handled within microseconds of its arrival.
        let now = server.clock.timestamp(of: receivedAt)
        let wait = limiter.frameWaitMs(now: now)
        guard wait == 0 else { return later(wait) }
        server.metrics.receivedBinary(bytes: buffer.readableBytes)
        guard let player else {
            // An honest client never draws before its hello.
            refuse(ProtocolError(.badMessage, "say hello first", ref: "binary"))
            return .handled
        }
        guard let room = drawingRoom(of: player) else {
            reply(ProtocolError(.notDrawer, "you are not drawing in a room", ref: "binary"))
            return .handled
        }
        let charge = room.draw(buffer, from: player, receivedAt: receivedAt, now: now, sendAtOnce: sendAtOnce)
        limiter.charge(points: charge.points, now: now)
        if charge.invalid { strike(now: now) }
        return .handled
    }

    /// Budgets refill in game time, so a held message is given again in game time.
    func wake(after delay: TimeAmount, on loop: any EventLoop, _ body: @escaping @Sendable () -> Void) {
        server.clock.run(after: .nanoseconds(delay.nanoseconds), on: loop, body)
    }

    /// Chat held back by its budget is told once as shaping begins, then at most every
    /// `slowDownNoticeGapMs`, so the player knows why its lines come late.
    private func noteSlowDown(retryMs: Int) {
        guard player != nil else { return }
        let now = server.clock.now
        if let last = slowDownNoticeAt, now - last < Self.slowDownNoticeGapMs { return }
        slowDownNoticeAt = now
        send(.notice(.slowDown(retryMs: retryMs)))
    }

    private func later(_ milliseconds: Int) -> WebSocketDisposition {
        server.metrics.messagesDelayed.increment()
        return .later(.milliseconds(Int64(milliseconds)))
    }

    /// The player's room: the one it last drew in while room membership has not changed
    /// since, otherwise looked up (a lookup under the server's directory lock per drawing
    /// frame was about 1.5 % of the server's CPU under load).
    private func drawingRoom(of player: PlayerID) -> LiveRoom? {
        if let drawingRoom, drawingRoom.version == server.currentMembershipVersion { return drawingRoom.room }
        let (room, version) = server.roomAndVersion(of: player)
        drawingRoom = room.map { ($0, version) }
        return room
    }

    private func hello(name: String, token: String?, avatar: Avatar?) -> ProtocolError? {
        switch server.hello(name: name, token: token, avatar: avatar, connection: connection, outbox: outbox, askedNode: askedNode) {
        case .success(let id):
            player = id
            timers?.helloAccepted()
            return nil
        case .failure(let error):
            return error
        }
    }

    /// The store answered a deferred hello: say it, then handle what came meanwhile.
    private func finishHello(name: String, token: String, avatar: Avatar?) {
        helloPending = false
        let waiting = deferred
        deferred = []
        guard !ended, !outbox.isClosing else { return }
        if let error = hello(name: name, token: token, avatar: avatar) { reply(error.withRef("hello")) }
        for message in waiting {
            if let error = dispatch(message) { reply(error.withRef(message.type)) }
        }
    }

    /// Joining or creating rooms, and invitations, have budgets that refuse.
    private func rateLimit(_ message: ClientMessage) -> ProtocolError? {
        let now = server.clock.now
        switch message {
        case .create, .join, .quickplay:
            guard limiter.allow(.join, now: now) else {
                return ProtocolError(.rateLimited, "at most \(limits.joinRate) room creations and joins", ref: message.type)
            }
        case .invite:
            guard limiter.allow(.invite, now: now) else {
                return ProtocolError(.rateLimited, "at most \(limits.inviteRate) invitations", ref: message.type)
            }
        default:
            break
        }
        return nil
    }

    private func dispatch(_ message: ClientMessage) -> ProtocolError? {
        if helloPending {
            guard deferred.count < Self.deferredLimit else {
                return ProtocolError(.rateLimited, "wait for welcome")
            }
            deferred.append(message)
            return nil
        }
        guard let player else {
            guard case .hello(let name, let token, let avatar) = message else {
                return ProtocolError(.badMessage, "the first message must be hello")
            }
            if let token, let eventLoop, server.remoteRooms.looksUpPlayers, !server.knowsToken(token) {
                // Several nodes: the token may be another node's player (a client following
                // a `redirect`, or reconnecting after its node went away). Ask the store
                // before making a new player.
                helloPending = true
                let (server, session) = (self.server, NIOLoopBound(self, eventLoop: eventLoop))
                let hash = TokenHash.hex(token)
                Task {
                    if let found = await server.remoteRooms.lookupPlayer(tokenHash: hash) { server.adopt([found]) }
                    eventLoop.execute { session.value.finishHello(name: name, token: token, avatar: avatar) }
                }
                return nil
            }
            return hello(name: name, token: token, avatar: avatar)
        }
        switch message {
        case .hello:
            return ProtocolError(.badMessage, "you already said hello")
        case .rooms:
            send(.rooms(server.publicRooms()))
            return nil
        case .create(let name, let isPublic, let settings):
            if let busy = server.admission.refusal(for: message.type) { return busy }
            if let banned = server.banRefusal(player) { return banned }
            guard server.allowRoomCreation(from: remoteIP) else {
                return ProtocolError(.rateLimited, "too many rooms created from your address; try again in a minute")
            }
            return server.create(by: player, name: name, isPublic: isPublic, settings: settings, outbox: outbox)
        case .join(let code, let watch):
            if let busy = server.admission.refusal(for: message.type) { return busy }
            if let banned = server.banRefusal(player) { return banned }
            return server.join(player, code: code, watching: watch, outbox: outbox)
        case .quickplay:
            if let busy = server.admission.refusal(for: message.type) { return busy }
            if let banned = server.banRefusal(player) { return banned }
            return server.quickplay(player, outbox: outbox, remoteIP: remoteIP)
        case .leave:
            return server.leave(player)
        case .invite(let target):
            return server.invite(target, from: player)
        case .gallery(let listed):
            server.setListed(listed, for: player)
            send(.gallery(listed: listed))
            return nil
        case .report(let request):
            return server.report(request, from: player, outbox: outbox)
        default:
            return server.roomMessage(message, from: player)
        }
    }

    func send(_ message: ServerMessage) {
        server.send(message, to: outbox)
    }

    func reply(_ error: ProtocolError) {
        send(.error(error))
    }

    /// A refusal that counts towards sustained abuse.
    private func refuse(_ error: ProtocolError) {
        if error.code == .rateLimited { server.metrics.rateLimited.increment() }
        reply(error)
        strike(now: server.clock.now)
    }

    private func strike(now: Timestamp) {
        if limiter.strike(now: now) {
            outbox.close(code: .policyViolation, reason: "too many refused messages", flush: true)
        }
    }
}

extension ProtocolError {
    /// Sets `ref` unless the error already names one.
    func withRef(_ ref: String) -> ProtocolError {
        guard self.ref.isEmpty else { return self }
        var copy = self
        copy.ref = ref
        return copy
    }
}
