import CoreMetrics
import HummingbirdWebSocket
import Logging
import NIOCore
import Rooms

/// One WebSocket connection's inbound side: hello, then each message dispatched to the
/// lobby or the player's room, strictly one at a time and in order.
struct ClientSession {
    let server: GameServer
    let connection: ConnectionID
    let outbox: Outbox
    private(set) var player: PlayerID?

    init(server: GameServer, outbox: Outbox) {
        self.server = server
        self.connection = server.newConnectionID()
        self.outbox = outbox
    }

    private var limits: ServerConfiguration.Limits { server.configuration.limits }

    mutating func receive(_ message: WebSocketMessage) async {
        switch message {
        case .text(let text):
            await receiveText(Array(text.utf8))
        case .binary(let buffer):
            server.metrics.received("binary", bytes: buffer.readableBytes)
            await receiveBinary(buffer, receivedAt: .now)
        }
    }

    mutating func receiveText(_ bytes: [UInt8]) async {
        guard bytes.count <= limits.maxTextFrameBytes else {
            server.metrics.received("invalid", bytes: bytes.count)
            return reply(ProtocolError(.tooLarge, "text frames are limited to \(limits.maxTextFrameBytes) bytes", ref: ""))
        }
        switch ClientMessage.decode(bytes) {
        case .failure(let error):
            server.metrics.received("invalid", bytes: bytes.count)
            reply(error)
        case .success(let message):
            server.metrics.received(message.type, bytes: bytes.count)
            if let error = await dispatch(message) { reply(error.withRef(message.type)) }
        }
    }

    func receiveBinary(_ buffer: ByteBuffer, receivedAt: ContinuousClock.Instant) async {
        guard let player else {
            return reply(ProtocolError(.badMessage, "say hello first", ref: "binary"))
        }
        guard let room = server.roomOf(player) else {
            return reply(ProtocolError(.notDrawer, "you are not drawing in a room", ref: "binary"))
        }
        await room.draw(buffer, from: player, receivedAt: receivedAt)
    }

    private mutating func dispatch(_ message: ClientMessage) async -> ProtocolError? {
        guard let player else {
            guard case .hello(let name, let token) = message else {
                return ProtocolError(.badMessage, "the first message must be hello")
            }
            switch await server.hello(name: name, token: token, connection: connection, outbox: outbox) {
            case .success(let id):
                self.player = id
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
            return await server.create(by: player, name: name, isPublic: isPublic, settings: settings, outbox: outbox)
        case .join(let code):
            return await server.join(player, code: code, outbox: outbox)
        case .quickplay:
            return await server.quickplay(player, outbox: outbox)
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
        await server.connectionClosed(connection, player: player, outbox: outbox)
    }

    func send(_ message: ServerMessage) {
        server.send(message, to: outbox)
    }

    func reply(_ error: ProtocolError) {
        send(.error(error))
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
