import DrawProtocol
import Synchronization

/// One end of an in-memory connection: what one end sends the other receives, in order.
///
/// For tests and for clients that run inside the server process (bots): no socket, no
/// framing, no size limits beyond what the receiver enforces.
public final class InMemoryConnection: TransportConnection {
    private struct State {
        var closed = false
        weak var peer: InMemoryConnection?
    }

    public let events: AsyncStream<TransportEvent>
    private let continuation: AsyncStream<TransportEvent>.Continuation
    private let state = Mutex(State())

    private init() {
        (events, continuation) = AsyncStream.makeStream(of: TransportEvent.self)
    }

    /// Two connected ends, such as (client, server).
    public static func pair() -> (InMemoryConnection, InMemoryConnection) {
        let first = InMemoryConnection()
        let second = InMemoryConnection()
        first.state.withLock { $0.peer = second }
        second.state.withLock { $0.peer = first }
        return (first, second)
    }

    public func send(_ frame: WireFrame) throws(TransportError) {
        let peer = state.withLock { $0.closed ? nil : $0.peer }
        guard let peer else { throw .closed }
        peer.deliver(.frame(frame))
    }

    /// Closes both ends: each sees `closed(code)` after what it already received.
    public func close(_ code: CloseCode) {
        let peer = state.withLock { $0.peer }
        finish(code)
        peer?.finish(code)
    }

    public var isClosed: Bool { state.withLock { $0.closed } }

    private func deliver(_ event: TransportEvent) {
        let open = state.withLock { !$0.closed }
        if open { continuation.yield(event) }
    }

    private func finish(_ code: CloseCode) {
        let first = state.withLock { s -> Bool in
            defer { s.closed = true }
            return !s.closed
        }
        guard first else { return }
        continuation.yield(.closed(code))
        continuation.finish()
    }

    deinit {
        continuation.finish()
    }
}

/// A transport whose every `connect` makes an in-memory pair and hands the far end to
/// `accept` (a test's fake server, or the server's own connection handling).
public struct InMemoryTransport: Transport {
    private let accept: @Sendable (InMemoryConnection) async throws -> Void

    /// `accept` receives the server's end of each new connection; throwing refuses it.
    public init(accept: @escaping @Sendable (InMemoryConnection) async throws -> Void) {
        self.accept = accept
    }

    public func connect() async throws -> any TransportConnection {
        let (client, server) = InMemoryConnection.pair()
        do {
            try await accept(server)
        } catch {
            throw TransportError.connectFailed(String(describing: error))
        }
        return client
    }
}
