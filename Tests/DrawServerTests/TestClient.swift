import DrawProtocol
import Foundation
import HTTPTypes
import HummingbirdWSClient
import HummingbirdWSCompression
import Logging
import NIOCore
import NIOWebSocket
import Rooms
import Synchronization
import Testing

/// A protocol client over a real loopback WebSocket, for tests.
///
/// Everything received is kept in order; `next(_:)` waits for the next message of a
/// type (skipping others, which stay readable in `history`).
final class TestClient {
    enum Event: Sendable {
        case json(JSONValue)
        case binary([UInt8])
        case closed(code: Int?)
    }

    private enum Outgoing: Sendable {
        case text(String)
        case binary([UInt8])
        case rawText([UInt8])
        case close
    }

    private let outgoing: AsyncStream<Outgoing>.Continuation
    private let events: EventQueue<Event>
    private let task: Task<Void, Never>
    private(set) var history: [Event] = []
    var playerID = ""
    var token = ""

    private init(outgoing: AsyncStream<Outgoing>.Continuation, events: EventQueue<Event>, task: Task<Void, Never>) {
        self.outgoing = outgoing
        self.events = events
        self.task = task
    }

    deinit {
        outgoing.finish()
        task.cancel()
    }

    static func connect(port: Int, path: String = "/ws", headers: [String: String] = [:], compression: Bool = false) -> TestClient {
        let eventSink = EventQueue<Event>()
        let (outgoing, outgoingSink) = AsyncStream.makeStream(of: Outgoing.self)
        var logger = Logger(label: "test-client")
        logger.logLevel = .critical
        var fields = HTTPFields()
        for (name, value) in headers {
            if let field = HTTPField.Name(name) { fields[field] = value }
        }
        let configuration = WebSocketClientConfiguration(
            maxFrameSize: 1 << 20, additionalHeaders: fields,
            extensions: compression ? [.perMessageDeflate(maxDecompressedFrameSize: 1 << 20, minFrameSizeToCompress: 16)] : []
        )
        let task = Task {
            var closeCode: Int?
            do {
                let frame = try await WebSocketClient.connect(
                    url: "ws://127.0.0.1:\(port)\(path)", configuration: configuration, logger: logger
                ) { inbound, outbound, _ in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await item in outgoing {
                                switch item {
                                case .text(let text): try await outbound.write(.text(text))
                                case .binary(let bytes): try await outbound.write(.binary(ByteBuffer(bytes: bytes)))
                                case .rawText(let bytes):
                                    try await outbound.write(.custom(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(bytes: bytes))))
                                case .close:
                                    try await outbound.close(.normalClosure, reason: nil)
                                    return
                                }
                            }
                        }
                        for try await message in inbound.messages(maxSize: 1 << 20) {
                            switch message {
                            case .text(let text):
                                if let value = JSONValue.parse(Array(text.utf8)) { eventSink.push(.json(value)) }
                            case .binary(let buffer):
                                eventSink.push(.binary(Array(buffer.readableBytesView)))
                            }
                        }
                        group.cancelAll()
                    }
                }
                closeCode = frame.map { Self.number(of: $0.closeCode) }
            } catch {
                closeCode = nil
            }
            eventSink.push(.closed(code: closeCode))
                    }
        return TestClient(outgoing: outgoingSink, events: eventSink, task: task)
    }

    static func number(of code: WebSocketErrorCode) -> Int {
        var buffer = ByteBuffer()
        buffer.write(webSocketErrorCode: code)
        return Int(buffer.readInteger(as: UInt16.self) ?? 0)
    }

    func send(_ json: String) { outgoing.yield(.text(json)) }
    func send(binary bytes: [UInt8]) { outgoing.yield(.binary(bytes)) }
    func close() { outgoing.yield(.close) }
    /// A text frame with arbitrary bytes (not necessarily UTF-8).
    func send(rawText bytes: [UInt8]) { outgoing.yield(.rawText(bytes)) }

    /// The next event, or nil after `seconds`.
    func nextEvent(within seconds: Double = 5) async -> Event? {
        let event = await events.pop(timeout: .milliseconds(Int(seconds * 1000)))
        if let event { history.append(event) }
        return event
    }

    /// Waits for the next JSON message whose `t` is `type` (and that `matches`).
    @discardableResult
    func next(
        _ type: String, within seconds: Double = 10, where matches: ([String: JSONValue]) -> Bool = { _ in true },
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [String: JSONValue] {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            let left = Double((deadline - ContinuousClock.now).components.seconds) + 0.001
            guard let event = await nextEvent(within: max(0.05, left)) else { break }
            if case .json(.object(let object)) = event, object["t"] == .string(type), matches(object) { return object }
            if case .closed(let code) = event {
                Issue.record("closed (\(code.map(String.init) ?? "no code")) while waiting for \(type)", sourceLocation: sourceLocation)
                throw TestClientError.closed(code)
            }
        }
        Issue.record("no \(type) within \(seconds) s; got \(history.suffix(5))", sourceLocation: sourceLocation)
        throw TestClientError.timeout(type)
    }

    /// Waits for the next binary frame.
    func nextBinary(within seconds: Double = 10) async throws -> [UInt8] {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            guard let event = await nextEvent(within: seconds) else { break }
            if case .binary(let bytes) = event { return bytes }
        }
        throw TestClientError.timeout("binary")
    }

    /// Collects binary frames until `count` bytes arrived (the server may merge frames).
    func nextBinary(bytes count: Int, within seconds: Double = 10) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        while bytes.count < count { bytes += try await nextBinary(within: seconds) }
        return bytes
    }

    /// Waits for the connection to close and returns its close code.
    func closeCode(within seconds: Double = 10) async -> Int? {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            guard let event = await nextEvent(within: seconds) else { return nil }
            if case .closed(let code) = event { return code }
        }
        return nil
    }

    /// `hello` and the `welcome` answer.
    @discardableResult
    func hello(_ name: String, token: String? = nil) async throws -> [String: JSONValue] {
        if let token {
            send(#"{"t":"hello","name":"\#(name)","token":"\#(token)"}"#)
        } else {
            send(#"{"t":"hello","name":"\#(name)"}"#)
        }
        let welcome = try await next("welcome")
        playerID = welcome["playerId"]?.stringValue ?? ""
        self.token = welcome["token"]?.stringValue ?? ""
        return welcome
    }
}

enum TestClientError: Error {
    case timeout(String)
    case closed(Int?)
}

/// A FIFO that a test awaits with a timeout, without losing events to cancellation.
final class EventQueue<Element: Sendable>: Sendable {
    private struct State {
        var items: [Element] = []
        var waiter: (id: Int, continuation: CheckedContinuation<Element?, Never>)?
        var nextID = 0
    }

    private let state = Mutex(State())

    func push(_ item: Element) {
        let waiter = state.withLock { s -> CheckedContinuation<Element?, Never>? in
            guard let waiter = s.waiter else {
                s.items.append(item)
                return nil
            }
            s.waiter = nil
            return waiter.continuation
        }
        waiter?.resume(returning: item)
    }

    func pop(timeout: Duration) async -> Element? {
        await withCheckedContinuation { continuation in
            let outcome = state.withLock { s -> (ready: Element?, id: Int?) in
                if !s.items.isEmpty { return (s.items.removeFirst(), nil) }
                s.nextID += 1
                s.waiter = (s.nextID, continuation)
                return (nil, s.nextID)
            }
            guard let id = outcome.id else {
                continuation.resume(returning: outcome.ready)
                return
            }
            Task {
                try? await Task.sleep(for: timeout)
                let expired = self.state.withLock { s -> CheckedContinuation<Element?, Never>? in
                    guard let waiter = s.waiter, waiter.id == id else { return nil }
                    s.waiter = nil
                    return waiter.continuation
                }
                expired?.resume(returning: nil)
            }
        }
    }
}
