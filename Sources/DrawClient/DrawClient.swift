// Apps see the protocol model (messages, ids, close codes) through this one import.
@_exported import DrawProtocol

/// A drawserver client: says hello, keeps the token, reconnects with backoff and resumes.
///
/// The reconnection decisions are the pure `ReconnectPolicy`; this actor only does what it
/// says (opens connections, waits, says hello) and turns frames into `events`.
///
/// ```swift
/// let client = DrawClient(transport: WebSocketTransport(url: "ws://127.0.0.1:8080/ws"), name: "Ada")
/// let welcome = try await client.connect()
/// try await client.send(.join(code: "K7QX2M"))
/// for await event in client.events { ... }
/// ```
public actor DrawClient {
    public struct Configuration: Sendable {
        public var reconnect = ReconnectPolicy.Configuration()
        /// Seeds the backoff jitter (tests pass a fixed one).
        public var jitterSeed = UInt64.random(in: 0...UInt64.max)
        /// How many events may wait unread before the oldest are dropped; nil keeps all.
        public var eventBuffer: Int?

        public init() {}
    }

    /// Everything the client sees, in order; ends after `stopped`. Iterate it once.
    public nonisolated let events: AsyncStream<ClientEvent>

    /// The name sent in `hello` (the server's trimmed name after a `welcome`).
    public private(set) var name: String
    public private(set) var avatar: Avatar?
    /// The resume secret: set by the first `welcome`, sent in every later `hello`.
    public private(set) var token: String?
    public private(set) var playerID: PlayerID?
    /// True between a `welcome` and the next disconnect.
    public private(set) var isReady = false
    /// The last `welcome`.
    public private(set) var welcome: WelcomeInfo?

    private let transport: any Transport
    private let clock: ClientClock
    private let sink: AsyncStream<ClientEvent>.Continuation
    private var policy: ReconnectPolicy
    private var connection: (any TransportConnection)?
    /// Counts connections, so callbacks of an older one are ignored.
    private var epoch = 0
    private var encoder = DrawingEncoder()
    private var welcomeWaiters: [CheckedContinuation<WelcomeInfo, any Error>] = []

    public init(
        transport: any Transport, name: String, token: String? = nil, avatar: Avatar? = nil,
        configuration: Configuration = Configuration(), clock: ClientClock = .continuous
    ) {
        self.transport = transport
        self.name = name
        self.token = token
        self.avatar = avatar
        self.clock = clock
        policy = ReconnectPolicy(configuration: configuration.reconnect, seed: configuration.jitterSeed)
        let policy: AsyncStream<ClientEvent>.Continuation.BufferingPolicy =
            configuration.eventBuffer.map { .bufferingNewest($0) } ?? .unbounded
        (events, sink) = AsyncStream.makeStream(of: ClientEvent.self, bufferingPolicy: policy)
    }

    /// Starts connecting (and reconnecting) in the background; see `events`.
    public func start() {
        perform(policy.start(now: clock.now()))
    }

    /// Starts if needed and waits for a `welcome` (the current one when the session is
    /// up); throws if the client stops first or the server refuses the hello.
    @discardableResult
    public func connect() async throws -> WelcomeInfo {
        if case .stopped(let reason) = policy.phase { throw DrawClientError.stopped(reason) }
        if isReady, let welcome { return welcome }
        return try await withCheckedThrowingContinuation { continuation in
            welcomeWaiters.append(continuation)
            if policy.phase == .idle { start() }
        }
    }

    /// Sends a message on the current connection; throws `notConnected` while there is none
    /// (messages are not queued across a reconnection: the room may have moved on).
    public func send(_ message: ClientMessage) throws(DrawClientError) {
        try send(.text(message.jsonString))
    }

    /// Sends any frame as it is (raw JSON text or drawing bytes).
    public func send(_ frame: WireFrame) throws(DrawClientError) {
        guard let connection, isReady else { throw .notConnected }
        do {
            try connection.send(frame)
        } catch {
            throw .notConnected
        }
    }

    /// Encodes and sends drawing operations as one binary frame; the open stroke carries
    /// over between calls (the encoder resets on `canvas` and `turn`).
    public func draw(_ operations: [DrawOperation]) throws(DrawClientError) {
        var next = encoder
        let bytes = next.encode(operations)
        try send(.binary(bytes))
        encoder = next
    }

    /// Closes the connection and ends `events`.
    public func stop() {
        perform(policy.stop())
    }

    // MARK: - Doing what the policy says

    private func perform(_ actions: [ReconnectPolicy.Action]) {
        for action in actions {
            switch action {
            case .connect(let attempt):
                epoch += 1
                let current = epoch
                sink.yield(.connecting(attempt: attempt))
                let transport = transport
                Task {
                    do {
                        let connection = try await transport.connect()
                        self.opened(connection, epoch: current)
                    } catch {
                        self.connectFailed(epoch: current)
                    }
                }
            case .sayHello:
                connection.map { try? $0.send(.text(ClientMessage.hello(name: name, token: token, avatar: avatar).jsonString)) }
            case .wait(let delay):
                let current = epoch
                let clock = clock
                Task {
                    try? await clock.sleep(delay)
                    self.timerFired(epoch: current)
                }
            case .close(let code):
                connection?.close(code)
            case .stop(let reason):
                isReady = false
                let waiters = welcomeWaiters
                welcomeWaiters = []
                for waiter in waiters { waiter.resume(throwing: DrawClientError.stopped(reason)) }
                sink.yield(.stopped(reason))
                sink.finish()
            }
        }
    }

    private func opened(_ opened: any TransportConnection, epoch: Int) {
        guard epoch == self.epoch, policy.phase == .connecting else {
            opened.close(.normalClosure)
            return
        }
        connection = opened
        Task {
            for await event in opened.events {
                self.received(event, epoch: epoch)
            }
        }
        perform(policy.opened(now: clock.now()))
    }

    private func connectFailed(epoch: Int) {
        guard epoch == self.epoch else { return }
        perform(policy.connectFailed(now: clock.now()))
    }

    private func timerFired(epoch: Int) {
        guard epoch == self.epoch else { return }
        perform(policy.timerFired(now: clock.now()))
    }

    private func received(_ event: TransportEvent, epoch: Int) {
        guard epoch == self.epoch else { return }
        switch event {
        case .frame(.binary(let bytes)):
            sink.yield(.drawing(bytes))
        case .frame(.text(let text)):
            guard let message = ServerMessage(text: text.utf8) else {
                sink.yield(.unrecognized(raw: text))
                return
            }
            note(message)
            sink.yield(.message(message, raw: text))
            if case .error(let error) = message, error.ref == "hello", !isReady {
                // A refused hello (bad name, bad avatar) gets no welcome: tell `connect`.
                let waiters = welcomeWaiters
                welcomeWaiters = []
                for waiter in waiters { waiter.resume(throwing: DrawClientError.refused(error)) }
            }
        case .closed(let code):
            connection = nil
            isReady = false
            let actions = policy.closed(code, now: clock.now())
            var retryIn: Duration?
            for case .wait(let delay) in actions { retryIn = delay }
            sink.yield(.disconnected(code, retryIn: retryIn))
            perform(actions)
        }
    }

    /// Keeps what the session needs from the server's messages.
    private func note(_ message: ServerMessage) {
        switch message {
        case .welcome(let id, let token, let resumed, let name, let avatar):
            let welcome = WelcomeInfo(playerID: id, token: token, resumed: resumed, name: name, avatar: avatar)
            self.token = token
            playerID = id
            if !name.isEmpty { self.name = name }
            self.welcome = welcome
            isReady = true
            let waiters = welcomeWaiters
            welcomeWaiters = []
            for waiter in waiters { waiter.resume(returning: welcome) }
        case .canvas, .turn:
            encoder.reset()
        default:
            break
        }
    }
}
