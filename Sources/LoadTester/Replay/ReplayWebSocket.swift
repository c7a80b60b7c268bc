import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import WebSocketFrames

/// What a replay connection tells its owner. Every call happens on the connection's
/// event loop.
protocol ReplayPeer: AnyObject, Sendable {
    func connected(_ connection: ReplayConnection)
    func received(text: ByteBuffer, on connection: ReplayConnection)
    /// `exact`: `nanoseconds` is this message's own arrival (a kernel stamp of the segment
    /// that ended it), not that of newer bytes read with it; see `FrameHandler.consume`.
    func received(binary: ByteBuffer, at nanoseconds: UInt64, exact: Bool, on connection: ReplayConnection)
    /// The connection failed to open or closed; `code` is the peer's close code if it sent one.
    func closed(_ connection: ReplayConnection, code: Int?, error: (any Error)?)
}

/// One client WebSocket on plain SwiftNIO: no task per connection or message, everything
/// runs in channel handlers on the connection's event loop.
final class ReplayConnection: @unchecked Sendable {
    let eventLoop: any EventLoop
    /// The WebSocket, once upgraded: frames are written only to this, by `writer`.
    private(set) var channel: (any Channel)?
    private(set) var writer: ReplayFrameWriter?
    /// The TCP connection, from connect on: before the upgrade it can only be closed
    /// (writing a frame into the HTTP pipeline would be a type error that traps).
    private var socket: (any Channel)?
    /// Held strongly until the close is reported, then let go (the peer holds this
    /// connection too). Not weak: a weak reference gives the peer a side table, and then
    /// every retain of it, several per received frame, took the runtime's slow path
    /// (docs/benchmarks/journal-load-2026-11-23-24.md, "What changed, measured").
    private(set) var peer: (any ReplayPeer)?
    private var closedReported = false
    /// Set once we asked to close, so the close is not reported as unexpected.
    private(set) var closing = false

    init(eventLoop: any EventLoop, peer: any ReplayPeer) {
        self.eventLoop = eventLoop
        self.peer = peer
    }

    /// Opens the TCP connection and performs the WebSocket upgrade; the peer hears
    /// `connected` or `closed`.
    func open(_ url: ReplayURL, receiver: ReplayReceiver? = nil) {
        let handlerBox = self
        let initial = UpgradeRequestHandler(host: url.host, port: url.port, path: url.path, connection: handlerBox)
        let upgrader = ReplayUpgrader { channel in
            let sync = channel.pipeline.syncOperations
            sync.removeHandler(initial).whenComplete { _ in }
            // Frames go out already encoded (`ReplayFrameWriter`): no frame encoder.
            let frames = FrameHandler(connection: handlerBox, maxFrameSize: 1 << 20, maxMessageSize: 1 << 20)
            try sync.addHandler(frames)
            let socket = try? sync.withUnsafeTransportIfAvailable(of: NIOBSDSocket.Handle.self) { $0 }
            if let receiver, let socket { handlerBox.handOver(channel, socket: socket, frames: frames, to: receiver) }
            handlerBox.upgraded(channel, writer: ReplayFrameWriter(channel: channel, socket: socket))
        }
        let bootstrap = ClientBootstrap(group: eventLoop)
            .channelOption(.socketOption(.so_reuseaddr), value: 1)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .connectTimeout(.seconds(10))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers(
                        leftOverBytesStrategy: .forwardBytes,
                        withClientUpgrade: (upgraders: [upgrader], completionHandler: { _ in })
                    )
                    try channel.pipeline.syncOperations.addHandler(initial)
                }
            }
        let connecting = url.address.map { bootstrap.connect(to: $0) } ?? bootstrap.connect(host: url.host, port: url.port)
        connecting.whenComplete { result in
            switch result {
            case .success(let channel):
                handlerBox.socket = channel
                if handlerBox.closing { channel.close(promise: nil) }
                channel.closeFuture.whenComplete { _ in handlerBox.reportClosed(code: nil, error: nil) }
            case .failure(let error):
                handlerBox.reportClosed(code: nil, error: error)
            }
        }
    }

    /// `--kernel-receive`: the receiver reads this socket from now on; NIO keeps writing and
    /// closing it. Bytes NIO already read reach the same frame handler first, so the order
    /// holds. If the receiver cannot take it, NIO goes on reading.
    private func handOver(_ channel: any Channel, socket: CInt, frames: FrameHandler, to receiver: ReplayReceiver) {
        guard let options = channel.syncOptions, (try? options.setOption(.autoRead, value: false)) != nil else { return }
        guard let id = receiver.register(socket: socket, reader: frames) else {
            try? options.setOption(.autoRead, value: true)
            return
        }
        channel.closeFuture.whenComplete { _ in receiver.forget(id) }
    }

    fileprivate func upgraded(_ channel: any Channel, writer: ReplayFrameWriter) {
        self.channel = channel
        self.writer = writer
        peer?.connected(self)
    }

    func sendText(_ text: String) {
        guard let writer, !closing else { return }
        writer.send(.text, ByteBuffer(string: text))
    }

    func sendBinary(_ buffer: ByteBuffer) {
        guard let writer, !closing else { return }
        writer.send(.binary, buffer)
    }

    /// Sends a normal close frame (1000), then closes the socket.
    private func sendClose(on channel: any Channel) {
        var data = channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: .normalClosure)
        guard let writer else { return channel.close(promise: nil) }
        let written = channel.eventLoop.makePromise(of: Void.self)
        writer.send(.connectionClose, data, promise: written)
        written.futureResult.whenComplete { _ in channel.close(promise: nil) }
    }

    /// A normal close (1000), then the socket is closed; a connection still connecting or
    /// upgrading is just closed.
    func close() {
        guard !closing else { return }
        closing = true
        guard let channel else {
            socket?.close(promise: nil)
            return
        }
        sendClose(on: channel)
    }

    fileprivate func reportClosed(code: Int?, error: (any Error)?) {
        guard !closedReported else { return }
        closedReported = true
        let peer = self.peer
        self.peer = nil
        peer?.closed(self, code: code, error: error)
    }

    fileprivate func serverClose(code: Int?) {
        reportClosed(code: code, error: nil)
        guard let channel else { return }
        if !closing {
            closing = true
            sendClose(on: channel)
        } else {
            channel.close(promise: nil)
        }
    }
}

/// Sends the upgrade request; reports a refused upgrade (403, 429, 503...).
private final class UpgradeRequestHandler: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    let host: String
    let port: Int
    let path: String
    let connection: ReplayConnection

    init(host: String, port: Int, path: String, connection: ReplayConnection) {
        self.host = host
        self.port = port
        self.path = path
        self.connection = connection
    }

    func channelActive(context: ChannelHandlerContext) {
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: "\(host):\(port)")
        headers.add(name: "Content-Length", value: "0")
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer()))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Only reached when the server answered without upgrading.
        if case .head(let head) = unwrapInboundIn(data) {
            connection.reportClosed(code: Int(head.status.code), error: ReplayError.upgradeRefused(Int(head.status.code)))
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        connection.reportClosed(code: nil, error: error)
        context.close(promise: nil)
    }
}

/// Takes the upgraded connection's bytes apart into frames (`ReplayFrameDecoder`), hands
/// data messages to the peer (reassembling fragmented ones), answers pings, and handles
/// the close handshake.
private final class FrameHandler: ChannelInboundHandler, ReplayReceiving, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    let connection: ReplayConnection
    let maxMessageSize: Int
    private var decoder: ReplayFrameDecoder
    /// A fragmented message being reassembled: its opcode and the bytes so far.
    private var fragments: (opcode: WebSocketOpcode, data: ByteBuffer)?
    /// Set once the connection failed, so bytes still in hand are ignored.
    private var failed = false
    /// The handler's context, for bytes the receiver reads (`ReplayReceiver`).
    private var context: ChannelHandlerContext?
    /// When the bytes being taken apart arrived, if the receiver read them (kernel time);
    /// nil when NIO read them: then the time of the read.
    private var arrival: UInt64?
    /// Whether `arrival` is the frame being handled's own (it ended the read).
    private var exactArrival = false

    init(connection: ReplayConnection, maxFrameSize: Int, maxMessageSize: Int) {
        self.connection = connection
        self.maxMessageSize = maxMessageSize
        self.decoder = ReplayFrameDecoder(maxFrameSize: maxFrameSize)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        arrival = nil
        consume(unwrapInboundIn(data), context: context)
    }

    func receive(_ bytes: ByteBuffer, arrivedAt nanoseconds: UInt64) {
        guard let context else { return }
        arrival = nanoseconds
        consume(bytes, context: context)
        arrival = nil
    }

    func receiveEnded(errno code: CInt?) {
        guard let context, !failed else { return }
        // The server's close frame, if any, came first; an end without one is a close
        // the peer hears about from the channel's close (`reportClosed`).
        context.close(promise: nil)
    }

    private func consume(_ bytes: ByteBuffer, context: ChannelHandlerContext) {
        guard !failed else { return }
        decoder.append(bytes)
        do {
            while !failed, let frame = try decoder.next() {
                // TCP reports the stamp of the newest segment a read took: exact for the
                // frame that ends the read, late for frames read together before it.
                exactArrival = arrival != nil && !decoder.hasPendingBytes
                handle(frame, context: context)
            }
        } catch {
            fail(context, error)
        }
    }

    private func handle(_ frame: ReplayFrameDecoder.Frame, context: ChannelHandlerContext) {
        switch frame.opcode {
        case .binary, .text:
            guard fragments == nil else { return fail(context, ReplayError.protocolViolation("a new message began inside a fragmented one")) }
            if frame.fin {
                deliver(frame.opcode, frame.payload)
            } else {
                fragments = (frame.opcode, frame.payload)
            }
        case .continuation:
            guard let (opcode, started) = fragments else { return fail(context, ReplayError.protocolViolation("a continuation frame without a message")) }
            fragments = nil
            var buffer = started
            var more = frame.payload
            guard buffer.readableBytes + more.readableBytes <= maxMessageSize else {
                return fail(context, ReplayError.protocolViolation("a message over \(maxMessageSize) bytes"))
            }
            buffer.writeBuffer(&more)
            if frame.fin {
                deliver(opcode, buffer)
            } else {
                fragments = (opcode, buffer)
            }
        case .ping:
            connection.writer?.send(.pong, frame.payload)
        case .connectionClose:
            var data = frame.payload
            let code = data.readInteger(as: UInt16.self).map(Int.init)
            connection.serverClose(code: code)
        default:
            break
        }
    }

    private func deliver(_ opcode: WebSocketOpcode, _ payload: ByteBuffer) {
        if opcode == .binary {
            connection.peer?.received(binary: payload, at: arrival ?? NIODeadline.now().uptimeNanoseconds, exact: exactArrival, on: connection)
        } else {
            connection.peer?.received(text: payload, on: connection)
        }
    }

    private func fail(_ context: ChannelHandlerContext, _ error: any Error) {
        failed = true
        connection.reportClosed(code: nil, error: error)
        context.close(promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(context, error)
    }
}

enum ReplayError: Error, CustomStringConvertible {
    case upgradeRefused(Int)
    case badLog(String)
    case protocolViolation(String)

    var description: String {
        switch self {
        case .upgradeRefused(let status): "the server refused the WebSocket upgrade with HTTP \(status)"
        case .badLog(let message): message
        case .protocolViolation(let reason): "the server broke the WebSocket protocol: \(reason)"
        }
    }
}
