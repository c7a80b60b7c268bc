import CoreMetrics
import Logging
import NIOCore
import Rooms
import Synchronization

/// One WebSocket connection's inbound side: hello, then each message dispatched to the
/// lobby or the player's room, strictly one at a time and in order, within the
/// connection's rate limits.
///
/// Text messages are handled on a short-lived task; drawing frames usually on the
/// connection's event loop, as soon as they are read, and on that task only when a message
/// read before them is still being handled (see `GameConnection`). Either way one at a
/// time, so the player and the limiter are shared through a lock that is never contended.
struct ClientSession: Sendable {
    let server: GameServer
    let connection: ConnectionID
    let outbox: Outbox
    let remoteIP: String
    private let shared: Shared

    /// What the reader and the event loop share.
    private final class Shared: Sendable {
        struct State: Sendable {
            var player: PlayerID?
            var limiter: ConnectionLimiter
            /// The room this player drew in, and the membership version it was found at
            /// (see `GameServer.roomAndVersion(of:)`); dropped by any text message.
            var drawingRoom: (room: RoomActor, version: Int)?
        }
        let state: Mutex<State>
        init(_ state: State) { self.state = Mutex(state) }
    }

    init(server: GameServer, outbox: Outbox, remoteIP: String) {
        self.server = server
        self.connection = server.newConnectionID()
        self.outbox = outbox
        self.remoteIP = remoteIP
        self.shared = Shared(.init(limiter: ConnectionLimiter(limits: server.configuration.limits, now: server.clock.now)))
    }

    /// Set by `hello`.
    var player: PlayerID? { shared.state.withLock { $0.player } }

    private func withLimiter<Result>(_ body: (inout ConnectionLimiter) -> Result) -> Result {
        shared.state.withLock { body(&$0.limiter) }
    }

    private var limits: ServerConfiguration.Limits { server.configuration.limits }

    /// A drawing frame, from the event loop or from the connection's inbox task.
    func receive(binary buffer: ByteBuffer) {
        server.metrics.receivedBinary(bytes: buffer.readableBytes)
        receiveBinary(buffer, receivedAt: .now)
    }

    func receiveText(_ bytes: [UInt8]) async {
        guard bytes.count <= limits.maxTextFrameBytes else {
            server.metrics.received("invalid", bytes: bytes.count)
            // Parsed only for its `t` (the frame is at most the 64 KiB message limit); every
            // oversized frame counts towards the 1008 close.
            refuse(ProtocolError(.tooLarge, "text frames are limited to \(limits.maxTextFrameBytes) bytes", ref: ClientMessage.type(of: bytes)))
            return
        }
        let decoded = ClientMessage.decode(bytes)
        // Every text frame, valid or not, spends from the connection's message budget. It
        // also lets go of the room kept for drawing, which may be closed by now.
        let allowed = shared.state.withLock { s in
            s.drawingRoom = nil
            return s.limiter.allow(.message, now: server.clock.now)
        }
        guard allowed else {
            server.metrics.received("invalid", bytes: bytes.count)
            let ref = switch decoded {
            case .success(let message): message.type
            case .failure(let error): error.ref
            }
            refuse(ProtocolError(.rateLimited, "at most \(limits.messageRate) messages", ref: ref))
            return
        }
        switch decoded {
        case .failure(let error):
            server.metrics.received("invalid", bytes: bytes.count)
            reply(error)
        case .success(let message):
            server.metrics.received(message.type, bytes: bytes.count)
            if let limited = rateLimit(message) {
                refuse(limited)
                return
            }
            if let error = await dispatch(message) { reply(error.withRef(message.type)) }
        }
    }

    /// A drawing frame, on whichever thread read it: the room judges and relays it at once.
    func receiveBinary(_ buffer: ByteBuffer, receivedAt: ContinuousClock.Instant) {
        // One reading of the clock for the budget, the room and the charge: a frame is
        // handled within microseconds of its arrival.
        let now = server.clock.timestamp(of: receivedAt)
        // Every drawing frame spends from the frame budget, also the ones refused below for
        // want of a hello or a room: otherwise those could flood the server unchecked.
        let (allowed, player, cached) = shared.state.withLock { s in (s.limiter.allowFrame(now: now), s.player, s.drawingRoom) }
        guard allowed else {
            server.metrics.rateLimited.increment()
            // Refused frames are dropped whole, like invalid ones; the notice is throttled.
            if withLimiter({ $0.shouldNotify(now: now) }) {
                reply(ProtocolError(.rateLimited, "drawing too fast: at most \(limits.frameRate) frames and \(limits.pointRate) points", ref: "binary"))
            }
            strike(now: now)
            return
        }
        guard let player else {
            return reply(ProtocolError(.badMessage, "say hello first", ref: "binary"))
        }
        guard let room = drawingRoom(of: player, cached: cached) else {
            return reply(ProtocolError(.notDrawer, "you are not drawing in a room", ref: "binary"))
        }
        let points = room.draw(buffer, from: player, receivedAt: receivedAt, now: now)
        withLimiter { $0.charge(points: points, now: now) }
    }

    /// The player's room: the one it last drew in while room membership has not changed
    /// since, otherwise looked up (a lookup under the server's directory lock per drawing
    /// frame was about 1.5 % of the server's CPU under load).
    private func drawingRoom(of player: PlayerID, cached: (room: RoomActor, version: Int)?) -> RoomActor? {
        if let cached, cached.version == server.currentMembershipVersion { return cached.room }
        let (room, version) = server.roomAndVersion(of: player)
        shared.state.withLock { $0.drawingRoom = room.map { ($0, version) } }
        return room
    }

    /// Chat and guesses, joining or creating rooms, and invitations have their own budgets.
    private func rateLimit(_ message: ClientMessage) -> ProtocolError? {
        let now = server.clock.now
        switch message {
        case .chat, .guess:
            guard withLimiter({ $0.allow(.chat, now: now) }) else {
                return ProtocolError(.rateLimited, "at most \(limits.chatRate) chat messages and guesses", ref: message.type)
            }
        case .create, .join, .quickplay:
            guard withLimiter({ $0.allow(.join, now: now) }) else {
                return ProtocolError(.rateLimited, "at most \(limits.joinRate) room creations and joins", ref: message.type)
            }
        case .invite:
            guard withLimiter({ $0.allow(.invite, now: now) }) else {
                return ProtocolError(.rateLimited, "at most \(limits.inviteRate) invitations", ref: message.type)
            }
        default:
            break
        }
        return nil
    }

    private func dispatch(_ message: ClientMessage) async -> ProtocolError? {
        guard let player else {
            guard case .hello(let name, let token) = message else {
                return ProtocolError(.badMessage, "the first message must be hello")
            }
            switch await server.hello(name: name, token: token, connection: connection, outbox: outbox) {
            case .success(let id):
                shared.state.withLock { $0.player = id }
                return nil
            case .failure(let error):
                return error
            }
        }
        switch message {
        case .hello:
            return ProtocolError(.badMessage, "you already said hello")
        case .rooms:
            send(.rooms(server.publicRooms()))
            return nil
        case .create(let name, let isPublic, let settings):
            guard server.allowRoomCreation(from: remoteIP) else {
                return ProtocolError(.rateLimited, "too many rooms created from your address; try again in a minute")
            }
            return await server.create(by: player, name: name, isPublic: isPublic, settings: settings, outbox: outbox)
        case .join(let code):
            return await server.join(player, code: code, outbox: outbox)
        case .quickplay:
            return await server.quickplay(player, outbox: outbox, remoteIP: remoteIP)
        case .leave:
            return await server.leave(player)
        case .invite(let target):
            return server.invite(target, from: player)
        default:
            return await server.roomMessage(message, from: player)
        }
    }

    /// The connection ended, however it ended.
    func closed() async {
        outbox.finish()
        await server.connectionClosed(connection, player: player, outbox: outbox, ip: remoteIP)
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
        if withLimiter({ $0.strike(now: now) }) {
            outbox.close(code: 1008, reason: "too many refused messages", flush: true)
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
