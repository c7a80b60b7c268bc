import DrawProtocol
import HummingbirdWSClient
import Logging
import NIOCore
import NIOWebSocket
import Synchronization

/// Connections over a real WebSocket (`ws://` or `wss://`), through HummingbirdWSClient.
public struct WebSocketTransport: Transport {
    public struct Configuration: Sendable {
        /// The largest message accepted from the server (its own limit is 64 KiB).
        public var maxMessageBytes = 1 << 20
        /// How long a clean close may take before the socket is dropped.
        public var closeTimeout: Duration = .seconds(5)

        public init() {}
    }

    public var url: String
    public var configuration: Configuration
    public var logger: Logger

    /// `url` is the full WebSocket URL, e.g. `ws://127.0.0.1:8080/ws`.
    public init(url: String, configuration: Configuration = Configuration(), logger: Logger = Logger(label: "drawclient")) {
        self.url = url
        self.configuration = configuration
        self.logger = logger
    }

    public func connect() async throws -> any TransportConnection {
        let connection = WebSocketConnection()
        try await connection.open(url: url, configuration: configuration, logger: logger)
        return connection
    }
}

/// One WebSocket: a task runs the client library's connection for its whole life; sends go
/// through a stream to that task, so `send` never blocks the caller.
final class WebSocketConnection: TransportConnection {
    private enum Outgoing: Sendable {
        case frame(WireFrame)
        case close(CloseCode)
    }

    private struct State {
        var closed = false
        var opened: CheckedContinuation<Void, any Error>?
        var task: Task<Void, Never>?
    }

    let events: AsyncStream<TransportEvent>
    private let eventSink: AsyncStream<TransportEvent>.Continuation
    private let outgoing: AsyncStream<Outgoing>
    private let outgoingSink: AsyncStream<Outgoing>.Continuation
    private let state = Mutex(State())

    init() {
        (events, eventSink) = AsyncStream.makeStream(of: TransportEvent.self)
        (outgoing, outgoingSink) = AsyncStream.makeStream(of: Outgoing.self)
    }

    /// Returns once the upgrade succeeded; throws if it failed.
    func open(url: String, configuration: WebSocketTransport.Configuration, logger: Logger) async throws {
        let clientConfiguration = WebSocketClientConfiguration(
            maxFrameSize: configuration.maxMessageBytes, closeTimeout: configuration.closeTimeout
        )
        try await withCheckedThrowingContinuation { (opened: CheckedContinuation<Void, any Error>) in
            state.withLock { $0.opened = opened }
            let task = Task { [outgoing, eventSink] in
                var code = CloseCode.abnormalClosure
                do {
                    let frame = try await WebSocketClient.connect(
                        url: url, configuration: clientConfiguration, logger: logger
                    ) { inbound, outbound, _ in
                        self.resumeOpened(with: nil)
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            group.addTask {
                                for await item in outgoing {
                                    switch item {
                                    case .frame(.text(let text)): try await outbound.write(.text(text))
                                    case .frame(.binary(let bytes)): try await outbound.write(.binary(ByteBuffer(bytes: bytes)))
                                    case .close(let code):
                                        try await outbound.close(WebSocketErrorCode(codeNumber: Int(code.rawValue)), reason: nil)
                                        return
                                    }
                                }
                            }
                            for try await message in inbound.messages(maxSize: configuration.maxMessageBytes) {
                                switch message {
                                case .text(let text): eventSink.yield(.frame(.text(text)))
                                case .binary(let buffer): eventSink.yield(.frame(.binary(Array(buffer.readableBytesView))))
                                }
                            }
                            group.cancelAll()
                        }
                    }
                    if let frame { code = CloseCode(rawValue: Self.number(of: frame.closeCode)) }
                } catch {
                    self.resumeOpened(with: error)
                }
                // A connection that never opened reports nothing but the failed `connect`.
                self.resumeOpened(with: TransportError.connectFailed("closed before the upgrade"))
                self.finish(code)
            }
            state.withLock { $0.task = task }
        }
    }

    private func resumeOpened(with error: (any Error)?) {
        let opened = state.withLock { s -> CheckedContinuation<Void, any Error>? in
            defer { s.opened = nil }
            return s.opened
        }
        guard let opened else { return }
        if let error {
            state.withLock { $0.closed = true }
            opened.resume(throwing: TransportError.connectFailed(String(describing: error)))
        } else {
            opened.resume()
        }
    }

    private func finish(_ code: CloseCode) {
        state.withLock { $0.closed = true }
        outgoingSink.finish()
        eventSink.yield(.closed(code))
        eventSink.finish()
    }

    func send(_ frame: WireFrame) throws(TransportError) {
        guard state.withLock({ !$0.closed }) else { throw .closed }
        outgoingSink.yield(.frame(frame))
    }

    func close(_ code: CloseCode) {
        let wasOpen = state.withLock { s -> Bool in
            defer { s.closed = true }
            return !s.closed
        }
        if wasOpen { outgoingSink.yield(.close(code)) }
    }

    /// The numeric value of NIO's close code.
    static func number(of code: WebSocketErrorCode) -> UInt16 {
        var buffer = ByteBuffer()
        buffer.write(webSocketErrorCode: code)
        return buffer.readInteger(as: UInt16.self) ?? CloseCode.abnormalClosure.rawValue
    }

    deinit {
        outgoingSink.finish()
    }
}
