import Foundation
import Testing
@testable import DrawServer

/// A PostgreSQL store that loses its database: the node keeps playing, says so on
/// `/readyz` and `/metrics`, and writes what it held once the database is back.
@Suite("PostgreSQL store faults", .serialized, .enabled(if: TestPostgres.isAvailable, TestPostgres.skipped), .timeLimit(.minutes(2)))
struct PostgresFaultTests {
    @Test func aLostDatabaseIsReportedAndWhatHappenedMeanwhileIsWrittenOnceItIsBack() async throws {
        let url = try await TestPostgres.freshDatabase()
        var admin = url
        admin.database = "postgres"
        // Leases long enough to ride out the outage (docs/SCALING.md): with the default 3 s
        // the node would stop its rooms before the database is back.
        let leases = ["--lease-duration", "30s", "--lease-renew", "5s"]
        let server = try await ServerProcess(["--store", "\(url)", "--node-id", "faulty"] + leases)
        let ada = TestClient.connect(port: server.port)
        try await ada.hello("Ada")
        let code = try await seat(ada, [])
        try await waitUntil { try await TestPostgres.integer(url, "SELECT COUNT(*) FROM room WHERE code = '\(code)'") == 1 }

        // The database refuses connections and the node's are cut: commits fail.
        try await TestPostgres.execute(admin, "ALTER DATABASE \(url.database) ALLOW_CONNECTIONS false")
        try await TestPostgres.execute(admin, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(url.database)'")
        let bob = TestClient.connect(port: server.port)
        try await bob.hello("Bob")
        bob.send(#"{"t":"join","code":"\#(code)"}"#)
        try await bob.next("room")
        do {
            try await waitUntil { try await HTTP.get(port: server.port, path: "/readyz").text == "storage failing: database unreachable" }
        } catch {
            Issue.record("readyz: \(try await HTTP.get(port: server.port, path: "/readyz").text)\n\(server.log.suffix(3000))")
            throw error
        }
        #expect(try await HTTP.get(port: server.port, path: "/readyz").status == 503)
        let failing = try await HTTP.get(port: server.port, path: "/metrics").text
        #expect(!failing.contains("drawserver_db_commit_failures_total 0\n"), "failures are counted")

        // Back within the room leases' life: the held changes go in, readiness returns.
        try await TestPostgres.execute(admin, "ALTER DATABASE \(url.database) ALLOW_CONNECTIONS true")
        try await waitUntil { try await HTTP.get(port: server.port, path: "/readyz").status == 200 }
        try await waitUntil {
            let state = try await TestPostgres.string(url, "SELECT state::text FROM room WHERE code = '\(code)'") ?? ""
            return state.contains(bob.playerID)
        }
        #expect(server.log.components(separatedBy: "storage failing").count == 2, "one line when the fault starts:\n\(server.log)")
        #expect(server.log.contains("storage recovered"))

        // And a kill -9 now loses nothing from the outage.
        server.signal(SIGKILL)
        _ = await server.waitForExit(seconds: 10)
        let again = try await ServerProcess(["--store", "\(url)", "--node-id", "faulty"] + leases)
        let back = TestClient.connect(port: again.port)
        try await back.hello("Bob", token: bob.token)
        let room = try await back.next("room")
        #expect(room["code"]?.stringValue == code)
        #expect(room["players"]?.arrayValue?.count == 2)
    }
}
