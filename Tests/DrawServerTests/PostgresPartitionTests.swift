import DrawProtocol
import Foundation
import ServerTestSupport
import Testing
@testable import DrawServer

extension PostgresFaultTests {
    /// A partition between one node and the database (its connections hang: no answer, no
    /// error) while another node reaches it: the cut-off node stops running its room when
    /// the lease runs out, even though its renewal never comes back; the other node takes
    /// the room over at a new epoch; and once the partition heals, what the cut-off node
    /// still held for the room is refused by the epoch. Never two owners.
    @Test func aNodeCutOffFromTheDatabaseStopsItsRoomsBeforeAnotherTakesThem() async throws {
        let url = try await TestPostgres.freshDatabase()
        let link = try await TestBalancer(nodes: [("postgres", url.port)])
        var viaLink = url
        viaLink.host = "127.0.0.1"
        viaLink.port = link.port
        // Debug level: a failure prints both nodes' logs, and they must say why by themselves.
        let flags = ["--web-root", "web-static", "--log-level", "debug"]
        let one = try await ServerProcess(["--store", "\(viaLink)", "--node-id", "one"] + flags)
        let two = try await ServerProcess(["--store", "\(url)", "--node-id", "two"] + flags)
        let phases = Phases()
        let run = PartitionRun(one: one, two: two, phases: phases)
        do {
            try await cutOffAndHeal(one: one, two: two, link: link, url: url, phases: phases)
        } catch {
            run.explain("\(error)")
            throw error
        }
        one.signal(SIGTERM)
        two.signal(SIGTERM)
        let (oneExit, twoExit) = (await one.waitForExit(seconds: 15), await two.waitForExit(seconds: 15))
        phases.mark("exited (one \(oneExit.map(String.init) ?? "running"), two \(twoExit.map(String.init) ?? "running"))")
        if oneExit != 0 || twoExit != 0 { run.explain("a node did not exit 0 after SIGTERM") }
        #expect(oneExit == 0)
        #expect(twoExit == 0)
        print("partition: \(phases)")
    }

    private func cutOffAndHeal(one: ServerProcess, two: ServerProcess, link: TestBalancer, url: PostgresStoreURL, phases: Phases) async throws {
        let (ada, bob) = (TestClient.connect(port: one.port), TestClient.connect(port: one.port))
        try await ada.hello("Ada")
        try await bob.hello("Bob")
        let code = try await seat(ada, [bob])
        // Both players in the stored room, not just the room: Bob's join is in the batch
        // after the room's first one, and a cut between the two leaves it to node one's
        // held changes, which the epoch refuses after the take-over (node two then rightly
        // runs the room without Bob, who resumes in no room).
        try await waitUntil {
            try await TestPostgres.integer(url, "SELECT COUNT(*) FROM room WHERE code = '\(code)' AND node_id = 'one' AND epoch = 1 AND players = 2") == 1
        }
        phases.mark("room \(code) stored with both players")

        link.freeze()
        phases.mark("cut")
        // A change node one can only hold.
        ada.send(#"{"t":"ready","ready":true}"#)
        // Node one's renewals hang; it must still give the room up at its own deadline.
        let closes = (await ada.closeCode(within: 10), await bob.closeCode(within: 10))
        phases.mark("players closed \(closes.0.map(String.init) ?? "-")/\(closes.1.map(String.init) ?? "-")")
        guard closes == (1012, 1012) else { throw PartitionFailure("node one did not send 1012 to both players within 10 s") }
        let stoppedAt = try await TestPostgres.string(url, "SELECT (now() < expires_at)::text FROM room_leases WHERE code = '\(code)'")
        #expect(stoppedAt == "true", "the room stopped on node one before its lease ran out in the store")
        try await waitUntil(seconds: 15) {
            try await TestPostgres.string(url, "SELECT node_id || ':' || epoch FROM room_leases WHERE code = '\(code)'") == "two:2"
        }
        phases.mark("lease two:2")
        // Bob comes back through node two, which now runs the room and writes it.
        let back = TestClient.connect(port: two.port)
        try await back.hello("Bob", token: bob.token)
        phases.mark("Bob's hello answered")
        let room = try await back.next("room", within: 10)
        phases.mark("Bob's room")
        #expect(room["code"]?.stringValue == code)
        try await waitUntil(seconds: 15) {
            try await TestPostgres.string(url, "SELECT node_id || ':' || epoch FROM room WHERE code = '\(code)'") == "two:2"
        }
        phases.mark("room row two:2")
        link.thaw()
        phases.mark("healed")
        // Node one writes what it held once it reaches the store again: refused by the epoch.
        try await waitUntil(seconds: 30) { one.log.contains("room \(code): lease epoch 1 of node one is stale; the write was refused") }
        phases.mark("node one refused")
        #expect(try await TestPostgres.string(url, "SELECT node_id || ':' || epoch FROM room WHERE code = '\(code)'") == "two:2")
        await link.shutdown()
        phases.mark("link shut down")
    }

    private struct PartitionFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// What a failed run leaves behind: its steps, both nodes' exit status and log tails
    /// in the test output, and the whole logs in a folder that is kept.
    private struct PartitionRun {
        var one: ServerProcess
        var two: ServerProcess
        var phases: Phases

        func explain(_ why: String) {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("drawserver-partition-\(getpid())-\(UUID().uuidString.prefix(8))")
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (name, node) in [("one", one), ("two", two)] {
                try? node.log.write(to: folder.appendingPathComponent("\(name).log"), atomically: true, encoding: .utf8)
            }
            func status(_ node: ServerProcess) -> String { node.process.isRunning ? "running" : "exit \(node.process.terminationStatus)" }
            Issue.record("""
                \(why)
                steps: \(phases)
                node one (\(status(one))), end of its log:
                \(one.log.suffix(6000))
                node two (\(status(two))), end of its log:
                \(two.log.suffix(6000))
                whole logs: \(folder.path)
                """)
        }
    }
}
