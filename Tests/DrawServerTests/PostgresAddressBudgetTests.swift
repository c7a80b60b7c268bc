import DrawProtocol
import Foundation
import ServerTestSupport
import Testing
@testable import DrawServer

extension PersistenceTests.PostgresServeTests {
    /// One address creating rooms on three nodes at once gets one node's budget in all, not
    /// three: each node tells the others of the creations it allowed (`roomCreation` on the
    /// cluster channel) and spends them from its own count.
    @Test(.enabled(if: TestPostgres.isAvailable, TestPostgres.skipped))
    func anAddressHasOneRoomCreationBudgetAcrossTheNodes() async throws {
        let url = try await TestPostgres.freshDatabase()
        let budget = 4
        let flags = ["--store", "\(url)", "--web-root", "web-static", "--ip-room-rate", "\(budget)/60s"]
        var nodes: [ServerProcess] = []
        for id in ["one", "two", "three"] { nodes.append(try await ServerProcess(flags + ["--node-id", id])) }
        // Every node listens on the channel before the first creation.
        try await waitUntil(seconds: 20) {
            for node in nodes where try await StorageFaultProcessTests.metric("drawserver_cluster_nodes", port: node.port) != 3 { return false }
            return true
        }
        var clients: [TestClient] = []
        for (i, node) in nodes.enumerated() {
            let client = TestClient.connect(port: node.port)
            try await client.hello("Maker\(i)")
            clients.append(client)
        }
        var created = 0, refused = 0
        for round in 0..<3 {
            for client in clients {
                client.send(#"{"t":"create","name":"r\#(round)"}"#)
                var answer: [String: JSONValue] = [:]
                while answer.isEmpty {
                    guard let event = await client.nextEvent(within: 10) else { Issue.record("no answer to create"); return }
                    if case .json(.object(let object)) = event, ["room", "error"].contains(object["t"]?.stringValue) { answer = object }
                }
                if answer["t"]?.stringValue == "room" {
                    created += 1
                    client.send(#"{"t":"leave"}"#)
                    _ = try await client.next("left")
                } else {
                    #expect(answer["code"]?.stringValue == "rate_limited", "\(answer)")
                    refused += 1
                }
                // The other nodes hear of it within a NOTIFY's round trip.
                try await Task.sleep(for: .milliseconds(150))
            }
        }
        #expect(created == budget, "one budget for the cluster: \(created) rooms made, \(refused) refused")
        #expect(refused == 9 - budget)
        for node in nodes { node.signal(SIGTERM) }
        for node in nodes { #expect(await node.waitForExit(seconds: 15) == 0) }
    }
}
