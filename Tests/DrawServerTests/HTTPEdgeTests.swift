import DrawProtocol
import Foundation
import HTTPEdge
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import NIOWebSocket
import NIOHTTP1
import Rooms
import ServerTestSupport
import Testing
@testable import DrawServer

/// Bad input at the HTTP edge is answered at once (issue 38): raw sockets against a live
/// server whose header timeout is far away (an answer that comes at once is the guard's,
/// not a timer's), and the timeout itself on virtual time.
@Suite("HTTP edge", .serialized, .timeLimit(.minutes(1)))
struct HTTPEdgeTests {
    /// Time a raw client waits for the whole answer; the answers come in milliseconds.
    static let patience: Duration = .seconds(5)

    private func withEdgeServer(clock: ManualServerClock? = nil, _ body: @Sendable (Int) async throws -> Void) async throws {
        try await withServer({ $0.limits.requestHead.headerTimeout = .seconds(600) }, clock: clock, body)
    }

    @Test func anOversizedHeaderIsAnswered431AtOnce() async throws {
        try await withEdgeServer { port in
            let answer = try await RawHTTP.exchange(port: port, "GET / HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 128 * 1024))\r\n\r\n")
            #expect(answer.status == 431, "\(answer.text.prefix(80))")
            #expect(answer.closed)
        }
    }

    @Test func anOversizedRequestLineIsAnswered431() async throws {
        try await withEdgeServer { port in
            let answer = try await RawHTTP.exchange(port: port, "GET /\(String(repeating: "a", count: 17 * 1024)) HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(answer.status == 431)
            #expect(answer.closed)
        }
    }

    @Test func aHeadUnderTheLimitIsServed() async throws {
        try await withEdgeServer { port in
            let answer = try await RawHTTP.exchange(port: port, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Big: \(String(repeating: "a", count: 15 * 1024))\r\n\r\n")
            #expect(answer.status == 200)
        }
    }

    @Test func theLimitIsAFlag() async throws {
        try await withServer({ $0.limits.requestHead.maxHeadBytes = 2048 }) { port in
            let answer = try await RawHTTP.exchange(port: port, "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 3000))\r\n\r\n")
            #expect(answer.status == 431)
        }
    }

    @Test(arguments: [
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
        "POST /api/drawings/x/report HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n",
    ])
    func conflictingOrInvalidFramingIsAnswered400(request: String) async throws {
        try await withEdgeServer { port in
            let answer = try await RawHTTP.exchange(port: port, request)
            #expect(answer.status == 400, "\(answer.text.prefix(120))")
            #expect(answer.closed)
            #expect(answer.responses == 1, "one answer for one request: \(answer.text)")
        }
    }

    @Test(arguments: ["GET / HTTP/9.9\r\nHost: x\r\n\r\n", "GET / HTTP/2.0\r\nHost: x\r\n\r\n", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"])
    func unknownVersionsAreAnswered505(request: String) async throws {
        try await withEdgeServer { port in
            let answer = try await RawHTTP.exchange(port: port, request)
            #expect(answer.status == 505, "\(answer.text.prefix(120))")
            #expect(answer.closed)
        }
    }

    @Test func aTLSHandshakeIsClosedAtOnceWithoutAWord() async throws {
        try await withEdgeServer { port in
            // The start of a TLS 1.2 ClientHello record.
            let hello: [UInt8] = [0x16, 0x03, 0x01, 0x00, 0x05, 0x01, 0x00, 0x00, 0x01, 0x00]
            let answer = try await RawHTTP.exchange(port: port, bytes: hello)
            #expect(answer.closed)
            #expect(answer.bytes.isEmpty)
        }
    }

    @Test func aGoodRequestPipelinedBeforeABadOneIsStillAnswered() async throws {
        try await withEdgeServer { port in
            let answer = try await RawHTTP.exchange(port: port, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/9.9\r\nHost: x\r\n\r\n")
            #expect(answer.text.hasPrefix("HTTP/1.1 200"), "\(answer.text.prefix(80))")
            #expect(answer.text.contains("HTTP/1.1 505"))
            #expect(answer.closed)
        }
    }

    @Test func aHeadThatNeverEndsGets408AfterTheHeaderTimeout() async throws {
        let clock = ManualServerClock()
        try await withServer({ $0.limits.requestHead.headerTimeout = .seconds(5) }, clock: clock) { port in
            let socket = try RawHTTP.Connection(port: port)
            defer { socket.close() }
            socket.send(Array("GET / HTTP/1.1\r\nHost: x\r\n".utf8))
            // Without the clock moving, the half head is held, not answered.
            let early = await offThePool { socket.readToEnd(patience: .milliseconds(300)) }
            #expect(!early.closed && early.bytes.isEmpty)
            // The server arms other timers on the same clock: step until the answer comes.
            let answer = await Self.stepUntilClosed(socket, clock: clock)
            #expect(answer.status == 408)
            #expect(answer.closed)
        }
    }

    /// Moves the clock a second at a time until the server closes the connection (30 s at most).
    static func stepUntilClosed(_ socket: RawHTTP.Connection, clock: ManualServerClock) async -> RawHTTP.Answer {
        var answer = RawHTTP.Answer(bytes: [], closed: false)
        for _ in 0..<30 where !answer.closed {
            clock.advance(by: .seconds(1))
            let more = await offThePool { socket.readToEnd(patience: .milliseconds(200)) }
            answer = RawHTTP.Answer(bytes: answer.bytes + more.bytes, closed: more.closed)
        }
        return answer
    }

    @Test func aConnectionThatSaysNothingIsClosedSilentlyAfterTheHeaderTimeout() async throws {
        let clock = ManualServerClock()
        try await withServer({ $0.limits.requestHead.headerTimeout = .seconds(5) }, clock: clock) { port in
            let socket = try RawHTTP.Connection(port: port)
            defer { socket.close() }
            let answer = await Self.stepUntilClosed(socket, clock: clock)
            #expect(answer.closed)
            #expect(answer.bytes.isEmpty)
        }
    }

    @Test func aKeptAliveConnectionGetsANewHeaderDeadlineForEachRequest() async throws {
        let clock = ManualServerClock()
        try await withServer({ $0.limits.requestHead.headerTimeout = .seconds(5) }, clock: clock) { port in
            let socket = try RawHTTP.Connection(port: port)
            defer { socket.close() }
            socket.send(Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            #expect(await offThePool { socket.readResponse(patience: Self.patience) }?.hasPrefix("HTTP/1.1 200") == true)
            // Idle between requests is the idle timeout's business, not the header timeout's.
            clock.advance(by: .seconds(30))
            #expect(socket.isOpen)
            socket.send(Array("GET /healthz HTTP/1.1\r\n".utf8))
            let answer = await Self.stepUntilClosed(socket, clock: clock)
            #expect(answer.status == 408)
        }
    }

    @Test func aWebSocketUpgradeStillWorks() async throws {
        try await withEdgeServer { port in
            let client = TestClient.connect(port: port)
            client.send(#"{"t":"hello","name":"Ada"}"#)
            try await client.next("welcome")
        }
    }

    @Test func misdirectedTLSIsLoggedOncePerAddressPerMinute() {
        let log = MisdirectedTLSLog()
        let start = Timestamp(milliseconds: 1_000)
        #expect(log.shouldLog("192.0.2.1", now: start))
        #expect(!log.shouldLog("192.0.2.1", now: start + 59_000))
        #expect(log.shouldLog("192.0.2.2", now: start + 59_000))
        #expect(log.shouldLog("192.0.2.1", now: start + 60_000))
    }

    @Test func theGuardWaitsForAnswersInFlightBeforeItRefuses() {
        var machine = RequestHeadGuard()
        #expect(machine.connectionStarted() == .armTimer)
        #expect(machine.bytesArrived(firstByte: UInt8(ascii: "G")) == .none)
        #expect(machine.headParsed() == .cancelTimer)
        #expect(machine.requestEnded() == .none)
        // The next head is bad while the first request is still being answered.
        #expect(machine.parseFailed(.invalidVersion) == .none)
        machine.responseStarted()
        #expect(machine.responseEnded() == .refuse(.init(status: .httpVersionNotSupported, detail: "only HTTP/1.0 and HTTP/1.1 are spoken here")))
        #expect(!machine.isReading)
    }

    @Test func aBrokenBodyWhoseRequestIsBeingAnsweredJustClosesAfterTheAnswer() {
        var machine = RequestHeadGuard()
        _ = machine.connectionStarted()
        _ = machine.bytesArrived(firstByte: UInt8(ascii: "P"))
        _ = machine.headParsed()
        machine.responseStarted()
        #expect(machine.parseFailed(.invalidChunkSize) == .none)
        #expect(machine.responseEnded() == .refuse(nil))
    }

    /// A shutdown waits for every connection: one with nothing to answer closes at once
    /// instead of at its header deadline (600 s in this suite, which once held a test's
    /// server shutdown for that long).
    @Test func aShutdownClosesConnectionsThatOweNoAnswer() {
        var silent = RequestHeadGuard()
        _ = silent.connectionStarted()
        #expect(silent.quiesce() == .close(.shuttingDown))
        #expect(!silent.isReading)
        var partial = RequestHeadGuard()
        _ = partial.connectionStarted()
        _ = partial.bytesArrived(firstByte: UInt8(ascii: "G"))
        #expect(partial.quiesce() == .close(.shuttingDown))
        var answering = RequestHeadGuard()
        _ = answering.connectionStarted()
        _ = answering.bytesArrived(firstByte: UInt8(ascii: "G"))
        _ = answering.headParsed()
        #expect(answering.quiesce() == .none, "the HTTP server closes it after its answer")
        _ = answering.requestEnded()
        #expect(answering.quiesce() == .none, "its response has not ended yet")
        answering.responseStarted()
        _ = answering.responseEnded()
        #expect(answering.quiesce() == .close(.shuttingDown))
    }

    @Test func theFirstByteOfATLSRecordClosesOnlyAtTheStart() {
        var machine = RequestHeadGuard()
        _ = machine.connectionStarted()
        #expect(machine.bytesArrived(firstByte: RequestHeadGuard.tlsHandshakeRecord) == .close(.tlsOnPlainPort))
        var http = RequestHeadGuard()
        _ = http.connectionStarted()
        _ = http.bytesArrived(firstByte: UInt8(ascii: "G"))
        #expect(http.bytesArrived(firstByte: RequestHeadGuard.tlsHandshakeRecord) == .none)
    }
}

/// Polls `condition` until it holds (a few seconds at most).
private func waitUntil(_ condition: () -> Bool) async throws {
    for _ in 0..<500 {
        if condition() { return }
        try await Task.sleep(for: .milliseconds(10))
    }
    Issue.record("condition never held")
}

/// A plain TCP client for requests no HTTP library would send.
enum RawHTTP {
    struct Answer {
        var bytes: [UInt8]
        /// The server closed the connection (end of stream) within the patience.
        var closed: Bool
        var text: String { String(decoding: bytes, as: UTF8.self) }
        /// The first response's status code.
        var status: Int? {
            let parts = text.split(separator: " ", maxSplits: 2)
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/1.") else { return nil }
            return Int(parts[1])
        }
        var responses: Int { text.components(separatedBy: "HTTP/1.1 ").count - 1 }
    }

    static func exchange(port: Int, _ request: String) async throws -> Answer {
        try await exchange(port: port, bytes: Array(request.utf8))
    }

    static func exchange(port: Int, bytes: [UInt8]) async throws -> Answer {
        let connection = try Connection(port: port)
        defer { connection.close() }
        return await offThePool {
            connection.send(bytes)
            return connection.readToEnd(patience: HTTPEdgeTests.patience)
        }
    }

    struct Connection: Sendable {
        let fd: Int32

        init(port: Int) throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            try connectToLoopback(fd, port: port)
        }

        func close() { _ = Glibc.close(fd) }

        func send(_ bytes: [UInt8]) {
            var offset = 0
            while offset < bytes.count {
                let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                // The server may refuse and stop reading before a large request is all sent.
                guard sent > 0 else { return }
                offset += sent
            }
        }

        /// True while the server has not closed the connection (nothing to read yet).
        var isOpen: Bool {
            var pollfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            return poll(&pollfd, 1, 0) == 0
        }

        /// Everything the server sends until it closes, or until `patience` runs out.
        func readToEnd(patience: Duration) -> Answer {
            var bytes: [UInt8] = []
            let deadline = ContinuousClock.now + patience
            var buffer = [UInt8](repeating: 0, count: 65536)
            while ContinuousClock.now < deadline {
                var pollfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let left = deadline - ContinuousClock.now
                guard poll(&pollfd, 1, Int32(max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))) == 1 else { break }
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count <= 0 { return Answer(bytes: bytes, closed: true) }
                bytes += buffer[0..<count]
            }
            return Answer(bytes: bytes, closed: false)
        }

        /// One response's bytes (as text), read until they stop coming for a moment.
        func readResponse(patience: Duration) -> String? {
            var pollfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pollfd, 1, Int32(patience.components.seconds * 1000)) == 1 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : nil
        }
    }
}

/// The guard leaves an upgraded connection before the WebSocket's handlers come: a refusal
/// written as soon as they are added (an address over its connection cap, found only at
/// accept) once reached the guard's tap, which takes only HTTP parts, and crashed the server.
@Suite("HTTP edge: the upgrade")
struct HTTPEdgeUpgradeTests {
    @Test func bytesWrittenWhileTheWebSocketIsSetUpPassTheGuardUntouched() throws {
        let channel = EmbeddedChannel()
        let served = NIOLockedValueBox(false)
        let serverChannel = GameServerChannel(
            responder: { _, _, _ in },
            route: { _, _ in .conformanceEcho },
            negotiateExtensions: { _ in nil },
            serve: { _, _, channel in
                served.withLockedValue { $0 = true }
                channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: "refused")), promise: nil)
            }
        )
        _ = try serverChannel.setup(channel: channel, logger: Logger(label: "drawserver-test")).wait()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
        let request = "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        try channel.writeInbound(ByteBuffer(string: request))
        channel.embeddedEventLoop.run()
        #expect(served.withLockedValue { $0 })
        var written: [UInt8] = []
        while let part = try channel.readOutbound(as: IOData.self) {
            if case .byteBuffer(let buffer) = part { written += Array(buffer: buffer) }
        }
        #expect(String(decoding: written.prefix(13), as: UTF8.self) == "HTTP/1.1 101 ")
        #expect(written.suffix(13) == [13, 10, 13, 10, 0x81, 7] + Array("refused".utf8), "the frame, after the 101")
        #expect(throws: (any Error).self) { try channel.pipeline.syncOperations.handler(type: RequestHeadGuardHandler.self) }
        _ = try? channel.finish()
    }

    /// The guard's request head deadline is cancelled once the head is in: a deadline left
    /// pending held the guard (and its timer) for the whole `headerTimeout` after every
    /// upgrade, memory that a burst of WebSockets kept resident (issue 34).
    @Test func anUpgradedConnectionHoldsNoRequestHeadDeadline() throws {
        let channel = EmbeddedChannel()
        let serverChannel = GameServerChannel(
            responder: { _, _, _ in },
            route: { _, _ in .conformanceEcho },
            negotiateExtensions: { _ in nil },
            serve: { _, _, _ in }
        )
        _ = try serverChannel.setup(channel: channel, logger: Logger(label: "drawserver-test")).wait()
        weak var guardHandler = try channel.pipeline.syncOperations.handler(type: RequestHeadGuardHandler.self)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
        #expect(guardHandler != nil)
        let request = "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        try channel.writeInbound(ByteBuffer(string: request))
        channel.embeddedEventLoop.run()
        #expect(guardHandler == nil, "freed with its deadline, not kept by the timer")
        _ = try? channel.finish()
    }

    static var farHeaderTimeout: RequestHeadGuard.Configuration {
        var configuration = RequestHeadGuard.Configuration()
        configuration.headerTimeout = .seconds(600)
        return configuration
    }

    @Test func aConnectionThatSaidNothingClosesWhenTheServerShutsDown() throws {
        let channel = EmbeddedChannel()
        let serverChannel = GameServerChannel(
            responder: { _, _, _ in }, route: { _, _ in nil }, negotiateExtensions: { _ in nil }, serve: { _, _, _ in },
            headGuard: Self.farHeaderTimeout
        )
        _ = try serverChannel.setup(channel: channel, logger: Logger(label: "drawserver-test")).wait()
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9)).wait()
        #expect(channel.isActive)
        channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
        channel.embeddedEventLoop.run()
        #expect(!channel.isActive, "closed at once, not at the header deadline")
    }
}
