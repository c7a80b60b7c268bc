import Foundation
import ServerTestSupport
import Testing
@testable import DrawServer

extension PostgresFaultTests {
    /// SIGTERM to a node whose database has gone away (its connections closed, new ones
    /// refused: the pool backs off and would keep a request queued for a minute) while it
    /// holds a change for its room: the node still stops within a bound, says what it
    /// could not write, and exits non-zero. Its calls wait at most the store's connection
    /// patience for a connection, so neither the drain's flush nor the last commit waits
    /// out the pool.
    @Test func aNodeWhoseDatabaseIsGoneExitsOnSigterm() async throws {
        let url = try await TestPostgres.freshDatabase()
        let link = try await TestBalancer(nodes: [("postgres", url.port)])
        var viaLink = url
        viaLink.host = "127.0.0.1"
        viaLink.port = link.port
        let one = try await ServerProcess(["--store", "\(viaLink)", "--node-id", "one", "--web-root", "web-static", "--log-level", "debug"])
        let ada = TestClient.connect(port: one.port)
        try await ada.hello("Ada")
        let code = try await seat(ada, [])
        try await waitUntil { try await TestPostgres.integer(url, "SELECT COUNT(*) FROM room WHERE code = '\(code)'") == 1 }
        await link.shutdown()
        // A change the node can only hold.
        ada.send(#"{"t":"ready","ready":true}"#)
        // The pool has lost its connections and is backing off between refused ones.
        try await waitUntil { one.log.contains("Connection creation failed") }
        let start = ContinuousClock.now
        one.signal(SIGTERM)
        let status = await one.waitForExit(seconds: 30)
        let took = ContinuousClock.now - start
        print("database gone at SIGTERM: exit \(status.map(String.init) ?? "none") after \(took)")
        let logged = one.log.contains("storage still failing at exit: held changes are lost")
        if status == nil || status == 0 || !logged {
            Issue.record("exit \(status.map(String.init) ?? "none (still running)") after \(took); the node's log:\n\(one.log.suffix(8000))")
        }
        #expect(status != nil && status != 0, "exits, and says by its status that changes were lost")
        #expect(logged)
    }
}
