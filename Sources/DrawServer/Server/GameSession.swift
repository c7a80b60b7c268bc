import CoreMetrics
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

    init(server: GameServer, outbox: Outbox, remoteIP: String) {
        self.server = server
        self.connection = server.newConnectionID()
        self.outbox = outbox
        self.remoteIP = remoteIP
        self.limiter = ConnectionLimiter(limits: server.configuration.limits, now: server.clock.now)
    }

    // MARK: - WebSocketService

    func received(_ message: WebSocketReceiver.Message, on connection: WebSocketProtocolHandler) {
        // After the server asked to close, nothing more is handled.
        guard !outbox.isClosing else { return }
        switch message {
        case .binary(let buffer): receive(binary: buffer)
        case .text(let buffer): receiveText(Array(buffer: buffer))
        }
    }

    func closeSent() {
        outbox.finish()
    }

    /// The connection ended, however it ended.
    func connectionClosed() {
        timers?.cancel()
        outbox.finish()
        server.connectionClosed(connection, player: player, outbox: outbox, ip: remoteIP)
    }

    private var limits: ServerConfiguration.Limits { server.configuration.limits }

    /// A drawing frame.
    func receive(binary buffer: ByteBuffer) {
        server.metrics.receivedBinary(bytes: buffer.readableBytes)
        receiveBinary(buffer, receivedAt: .now)
    }

    func receiveText(_ bytes: [UInt8]) {
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
        drawingRoom = nil
        let allowed = limiter.allow(.message, now: server.clock.now)
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
            if let error = dispatch(message) { reply(error.withRef(message.type)) }
        }
    }

    /// A drawing frame: the room judges and relays it at once.
    func receiveBinary(_ buffer: ByteBuffer, receivedAt: ContinuousClock.Instant) {
        // One reading of the clock for the budget, the room and the charge: a frame is
        // handled within microseconds of its arrival.
        let now = server.clock.timestamp(of: receivedAt)
        // Every drawing frame spends from the frame budget, also the ones refused below for
        // want of a hello or a room: otherwise those could flood the server unchecked.
        guard limiter.allowFrame(now: now) else {
            server.metrics.rateLimited.increment()
            // Refused frames are dropped whole, like invalid ones; the notice is throttled.
            if limiter.shouldNotify(now: now) {
                reply(ProtocolError(.rateLimited, "drawing too fast: at most \(limits.frameRate) frames and \(limits.pointRate) points", ref: "binary"))
            }
            strike(now: now)
            return
        }
        guard let player else {
            return reply(ProtocolError(.badMessage, "say hello first", ref: "binary"))
        }
        guard let room = drawingRoom(of: player) else {
            return reply(ProtocolError(.notDrawer, "you are not drawing in a room", ref: "binary"))
        }
        let points = room.draw(buffer, from: player, receivedAt: receivedAt, now: now)
        limiter.charge(points: points, now: now)
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

    /// Chat and guesses, joining or creating rooms, and invitations have their own budgets.
    private func rateLimit(_ message: ClientMessage) -> ProtocolError? {
        let now = server.clock.now
        switch message {
        case .chat, .guess, .rate:
            // Ratings share the chat budget, so liking and unliking cannot flood the room.
            guard limiter.allow(.chat, now: now) else {
                return ProtocolError(.rateLimited, "at most \(limits.chatRate) chat messages, guesses and ratings", ref: message.type)
            }
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
        guard let player else {
            guard case .hello(let name, let token, let avatar) = message else {
                return ProtocolError(.badMessage, "the first message must be hello")
            }
            switch server.hello(name: name, token: token, avatar: avatar, connection: connection, outbox: outbox) {
            case .success(let id):
                player = id
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
            return server.create(by: player, name: name, isPublic: isPublic, settings: settings, outbox: outbox)
        case .join(let code):
            return server.join(player, code: code, outbox: outbox)
        case .quickplay:
            return server.quickplay(player, outbox: outbox, remoteIP: remoteIP)
        case .leave:
            return server.leave(player)
        case .invite(let target):
            return server.invite(target, from: player)
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
