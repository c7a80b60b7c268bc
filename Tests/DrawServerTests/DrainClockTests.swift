import Canvas
import DrawProtocol
import Hummingbird
import HummingbirdTesting
import Logging
import ServerTestSupport
import Testing
@testable import DrawServer

/// SIGTERM's drain waits for clients on the server's clock: a test on virtual time reaches
/// a ten-minute drain timeout by advancing the clock, not by waiting.
@Suite("The drain on the server's clock", .timeLimit(.minutes(1)))
struct DrainClockTests {
    /// A runtime on `clock` with a ten-minute drain timeout, serving on loopback for `body`.
    private func withDrainingRuntime(_ clock: ManualServerClock, _ body: @Sendable (DrawServerRuntime, Int) async throws -> Void) async throws {
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.webRoot = nil
        configuration.admission.lagThreshold = .zero
        configuration.drainTimeout = .seconds(600)
        var logger = Logger(label: "drawserver-test")
        logger.logLevel = .warning
        let runtime = try DrawServerRuntime(configuration: configuration, logger: logger, clock: ServerClock(clock))
        try await runtime.prepare()
        let app = buildApplication(runtime: runtime, services: [])
        try await app.test(.live) { client in
            try await body(runtime, try #require(client.port))
        }
    }

    /// The drain awaits the last connection's close: it ends when the clients have left,
    /// with no game time passing and no timeout reached.
    @Test func theDrainEndsWhenTheLastClientHasLeft() async throws {
        let clock = ManualServerClock()
        try await withDrainingRuntime(clock) { runtime, port in
            let ada = TestClient.connect(port: port)
            let bob = TestClient.connect(port: port)
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            let drain = Task { await runtime.drain() }
            #expect(await ada.closeCode() == 1012)
            #expect(await bob.closeCode() == 1012)
            #expect(await drain.value == 0, "nobody was cut off")
            #expect(clock.now == .zero, "no game time passed")
            #expect(runtime.server.connectionCount == 0)
        }
    }

    @Test func aPeerThatNeverAnswersIsCutOffAtTheDrainTimeoutOfGameTime() async throws {
        let clock = ManualServerClock()
        try await withDrainingRuntime(clock) { runtime, port in
            let ada = TestClient.connect(port: port)
            try await ada.hello("Ada")
            // Upgraded, then silent: it never reads the 1012 nor answers it.
            let silent = try await SilentWebSocketPeer(port: port)
            #expect(silent.upgraded)
            try await waitUntil { runtime.server.connectionCount == 2 }

            let drain = Task { await runtime.drain() }
            #expect(await ada.closeCode() == 1012, "a client that answers leaves at once")
            try await waitUntil { runtime.server.connectionCount == 1 }
            // Ten minutes of game time pass at once; on the wall clock the drain would still
            // wait, and the silent peer would be closed by its own lingering-close timeout
            // instead of being cut off.
            clock.advance(by: .seconds(600))
            #expect(await drain.value == 1, "the drain timeout cut the silent peer off")
            #expect(runtime.server.connectionCount == 0)
            silent.close()
        }
    }

    /// A graceful restart loses no stroke: frames a drawer sends after the server's 1012 went
    /// out, before its own close, are still applied to the canvas (RFC 6455 lets an
    /// endpoint receive until the handshake completes) and stored by the drain's flush.
    @Test func strokesDrawnWhileTheRestartCloseIsOnItsWayAreKeptAndReachTheGuessers() async throws {
        let clock = ManualServerClock()
        try await withDrainingRuntime(clock) { runtime, port in
            let ada = TestClient.connect(port: port)
            let bob = TestClient.connect(port: port)
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            try await startTurn(ada, [bob])
            let code = try #require(runtime.server.allRooms.first?.summary.code)
            // Ada goes on drawing on a socket of her own: it answers the close only when told.
            let drawer = try await RawWebSocket(port: port)
            #expect(drawer.status == 101)
            drawer.sendText(#"{"t":"hello","name":"Ada","token":"\#(ada.token)"}"#)
            #expect(await ada.closeCode() == 4001, "the resume replaced her first connection")
            let before = (0..<3).map { strokeBytes(from: Point(x: 10 + $0 * 10, y: 10), to: Point(x: 20 + $0 * 10, y: 40)) }
            for frame in before { drawer.sendFrame(opcode: 2, frame) }
            try await waitUntil { runtime.server.room(code)?.canvasState.frames == before.count }

            let drain = Task { await runtime.drain() }
            let heard = await drawer.readToEnd(within: 1)
            let closes = RawWebSocket.frames(in: heard.bytes).filter { $0.opcode == 8 }
            #expect(closes.map { Array($0.payload.prefix(2)) } == [[0x03, 0xF4]], "1012 came")
            // Drawn after the 1012 arrived, before the answering close.
            let after = (0..<4).map { strokeBytes(from: Point(x: 10 + $0 * 10, y: 300), to: Point(x: 20 + $0 * 10, y: 340)) }
            for frame in after { drawer.sendFrame(opcode: 2, frame) }
            drawer.sendFrame(opcode: 8, [0x03, 0xF4])
            // The drawer is closed first: Bob's connection stays open until hers has closed,
            // so he gets every stroke live, then his own 1012.
            let strokes = (before + after).flatMap { $0 }
            #expect(try await bob.nextBinary(bytes: strokes.count) == strokes)
            #expect(await bob.closeCode() == 1012)
            #expect(await drain.value == 0, "nobody was cut off")
            #expect(runtime.server.room(code)?.canvasState.frames == before.count + after.count)
            if let writer = runtime.writer {
                #expect(writer.statistics.strokeFrames >= before.count + after.count, "the drain's flush stored them")
            }
            drawer.close()
        }
    }
}
