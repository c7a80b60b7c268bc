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
    @Test func aPeerThatNeverAnswersIsCutOffAtTheDrainTimeoutOfGameTime() async throws {
        let clock = ManualServerClock()
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
            let port = try #require(client.port)
            let ada = TestClient.connect(port: port)
            try await ada.hello("Ada")
            // Upgraded, then silent: it never reads the 1012 nor answers it.
            let silent = try SilentWebSocketPeer(port: port)
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
