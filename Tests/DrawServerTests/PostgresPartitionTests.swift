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
        let one = try await ServerProcess(["--store", "\(viaLink)", "--node-id", "one", "--web-root", "web-static"])
        let two = try await ServerProcess(["--store", "\(url)", "--node-id", "two", "--web-root", "web-static"])
        let (ada, bob) = (TestClient.connect(port: one.port), TestClient.connect(port: one.port))
        try await ada.hello("Ada")
        try await bob.hello("Bob")
        let code = try await seat(ada, [bob])
        try await waitUntil {
            try await TestPostgres.integer(url, "SELECT COUNT(*) FROM room WHERE code = '\(code)' AND node_id = 'one' AND epoch = 1") == 1
        }

        link.freeze()
        // A change node one can only hold.
        ada.send(#"{"t":"ready","ready":true}"#)
        // Node one's renewals hang; it must still give the room up at its own deadline.
        #expect(await ada.closeCode(within: 10) == 1012)
        #expect(await bob.closeCode(within: 10) == 1012)
        let stoppedAt = try await TestPostgres.string(url, "SELECT (now() < expires_at)::text FROM room_leases WHERE code = '\(code)'")
        #expect(stoppedAt == "true", "the room stopped on node one before its lease ran out in the store")
        try await waitUntil(seconds: 15) {
            try await TestPostgres.string(url, "SELECT node_id || ':' || epoch FROM room_leases WHERE code = '\(code)'") == "two:2"
        }
        // Bob comes back through node two, which now runs the room and writes it.
        let back = TestClient.connect(port: two.port)
        try await back.hello("Bob", token: bob.token)
        #expect(try await back.next("room", within: 10)["code"]?.stringValue == code)
        try await waitUntil(seconds: 15) {
            try await TestPostgres.string(url, "SELECT node_id || ':' || epoch FROM room WHERE code = '\(code)'") == "two:2"
        }
        link.thaw()
        // Node one writes what it held once it reaches the store again: refused by the epoch.
        do {
            try await waitUntil(seconds: 30) { one.log.contains("room \(code): lease epoch 1 of node one is stale; the write was refused") }
        } catch {
            Issue.record("node one's log:\n\(one.log.suffix(4000))")
            throw error
        }
        #expect(try await TestPostgres.string(url, "SELECT node_id || ':' || epoch FROM room WHERE code = '\(code)'") == "two:2")
        await link.shutdown()
        one.signal(SIGTERM)
        two.signal(SIGTERM)
        #expect(await one.waitForExit(seconds: 15) == 0)
        #expect(await two.waitForExit(seconds: 15) == 0)
    }
}
