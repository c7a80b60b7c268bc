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
}
