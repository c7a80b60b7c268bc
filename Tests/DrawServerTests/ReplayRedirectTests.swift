import Foundation
import ServerTestSupport
import Testing
@testable import DrawServer
@testable import LoadTester

extension PersistenceTests.PostgresServeTests {
    /// `drawserver replay` through a balancer in front of two nodes on one store: the host
    /// makes the room on the node it reached, and the joins that land on the other
    /// node are answered `redirect`; the load tester follows them as docs/PROTOCOL.md says
    /// (same host and port, the message's `?node=` path, hello with the token, join), so
    /// the room fills and plays, and the redirects are counted in the summary.
    @Test(.enabled(if: TestPostgres.isAvailable, TestPostgres.skipped))
    func replayFollowsRedirectsToTheRoomsNode() async throws {
        let url = try await TestPostgres.freshDatabase()
        let flags = ["--store", "\(url)", "--web-root", "web-static", "--max-connections-per-ip", "0",
                     "--ip-room-rate", "100000/1s", "--turn-end-seconds", "0"]
        let one = try await ServerProcess(flags + ["--node-id", "one"])
        let two = try await ServerProcess(flags + ["--node-id", "two"])
        let balancer = try await TestBalancer(nodes: [("one", one.port), ("two", two.port)])
        let json = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: json) }

        let (status, output) = try await ServerProcess.run(
            ["replay", "--url", "ws://127.0.0.1:\(balancer.port)/ws", "--rooms", "1", "--players", "4", "--duration", "10",
             "--warmup", "1", "--drain", "1", "--threads", "1", "--quiet", "--json", json.path],
            timeout: 90
        )
        #expect(status == 0, "exit \(status): \(output)")
        let summary = try JSONDecoder().decode(ReplaySummary.self, from: Data(contentsOf: json))
        // Round robin over two nodes: the host reached node one, the three joiners two, one
        // and two (a redirected connection names its node and takes no turn).
        #expect(summary.redirects == 2, "\(summary.redirects) redirects")
        #expect(summary.unexpectedCloses == 0 && summary.connectErrors == 0, "\(summary.closeCodes)")
        // A game starts only once all four are seated and ready: the redirected two as well.
        #expect(summary.delivery.delivered > 0 && summary.delivery.lost == 0)
        #expect(balancer.routed["one", default: 0] > 0 && balancer.routed["two", default: 0] > 0, "\(balancer.routed)")
        await balancer.shutdown()
        one.signal(SIGTERM)
        two.signal(SIGTERM)
        #expect(await one.waitForExit(seconds: 15) == 0)
        #expect(await two.waitForExit(seconds: 15) == 0)
    }
}
