import DrawProtocol
import Foundation
import ServerTestSupport
import Testing
@testable import DrawServer

/// A PostgreSQL store that loses its database: the node keeps playing, says so on
/// `/readyz` and `/metrics`, and writes what it held once the database is back.
@Suite("PostgreSQL store faults", .serialized, .enabled(if: TestPostgres.isAvailable, TestPostgres.skipped), .timeLimit(.minutes(2)))
struct PostgresFaultTests {
    @Test func aLostDatabaseIsReportedAndWhatHappenedMeanwhileIsWrittenOnceItIsBack() async throws {
        let phases = Phases()
        let url = try await TestPostgres.freshDatabase()
        phases.mark("database created")
        var admin = url
        admin.database = "postgres"
        // Leases long enough to ride out the outage (docs/SCALING.md): with the default 3 s
        // the node would stop its rooms before the database is back.
        let leases = ["--lease-duration", "30s", "--lease-renew", "5s"]
        let server = try await ServerProcess(["--store", "\(url)", "--node-id", "faulty"] + leases)
        phases.mark("server started")
        do {
            try await loseAndRegainTheDatabase(server: server, url: url, admin: admin, leases: leases, phases: phases)
            print("pg fault: \(phases)")
        } catch {
            Issue.record("\(error)\nsteps: \(phases)\nserver log:\n\(server.log.suffix(4000))")
            throw error
        }
    }

    private func loseAndRegainTheDatabase(
        server: ServerProcess, url: PostgresStoreURL, admin: PostgresStoreURL, leases: [String], phases: Phases
    ) async throws {
        // Generous: the pool's reconnect backoff grows with the outage, and a loaded CI
        // machine stretches every step of it.
        let patience = 30.0
        let ada = TestClient.connect(port: server.port)
        try await ada.hello("Ada")
        let code = try await seat(ada, [])
        try await waitUntil(seconds: patience) { try await TestPostgres.integer(url, "SELECT COUNT(*) FROM room WHERE code = '\(code)'") == 1 }
        phases.mark("room stored")

        // The database refuses connections and the node's are cut: commits fail.
        try await TestPostgres.execute(admin, "ALTER DATABASE \(url.database) ALLOW_CONNECTIONS false")
        phases.mark("connections refused")
        try await TestPostgres.execute(admin, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(url.database)'")
        phases.mark("connections cut")
        let bob = TestClient.connect(port: server.port)
        try await bob.hello("Bob")
        phases.mark("Bob said hello")
        bob.send(#"{"t":"join","code":"\#(code)"}"#)
        try await bob.next("room")
        phases.mark("Bob joined")
        try await waitUntil(seconds: patience) { try await HTTP.get(port: server.port, path: "/readyz").text == "storage failing: database unreachable" }
        phases.mark("fault reported")
        #expect(try await HTTP.get(port: server.port, path: "/readyz").status == 503)
        let failing = try await HTTP.get(port: server.port, path: "/metrics").text
        #expect(!failing.contains("drawserver_db_commit_failures_total 0\n"), "failures are counted")
        #expect(failing.contains("drawserver_storage_failing 1.0\n"), "\(failing)")

        // Back within the room leases' life: the held changes go in, readiness returns.
        try await TestPostgres.execute(admin, "ALTER DATABASE \(url.database) ALLOW_CONNECTIONS true")
        try await waitUntil(seconds: patience) { try await HTTP.get(port: server.port, path: "/readyz").status == 200 }
        phases.mark("ready again")
        #expect(try await HTTP.get(port: server.port, path: "/metrics").text.contains("drawserver_storage_failing 0.0\n"))
        try await waitUntil(seconds: patience) {
            let state = try await TestPostgres.string(url, "SELECT state::text FROM room WHERE code = '\(code)'") ?? ""
            return state.contains(bob.playerID)
        }
        phases.mark("held changes written")
        #expect(server.log.components(separatedBy: "storage failing").count == 2, "one line when the fault starts:\n\(server.log)")
        #expect(server.log.contains("storage recovered"))

        // And a kill -9 now loses nothing from the outage.
        server.signal(SIGKILL)
        _ = await server.waitForExit(seconds: 20)
        phases.mark("killed")
        let again = try await ServerProcess(["--store", "\(url)", "--node-id", "faulty"] + leases)
        phases.mark("restarted")
        let back = TestClient.connect(port: again.port)
        try await back.hello("Bob", token: bob.token)
        phases.mark("resumed")
        let room = try await back.next("room")
        phases.mark("back in the room")
        #expect(room["code"]?.stringValue == code)
        #expect(room["players"]?.arrayValue?.count == 2)
    }

    /// When each step finished: printed, and shown with a failure, since the waits here
    /// stretch with the machine's load.
    final class Phases: CustomStringConvertible, @unchecked Sendable {
        private let start = ContinuousClock.now
        private var marks: [String] = []
        func mark(_ step: String) {
            let elapsed = (ContinuousClock.now - start).components
            let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
            marks.append("\(step) \(String(format: "%.1f", seconds)) s")
        }
        var description: String { marks.joined(separator: ", ") }
    }
}
