import Canvas
import DrawProtocol
import Foundation
import ServerTestSupport
import Testing
@testable import DrawServer

/// Busy connections read by the loop's `ReadPoller` (here every connection, from its first
/// read): what they send is handled exactly as when NIO reads it.
@Suite("Reading busy connections in small batches")
struct ReadPollerTests {
    static func polled(_ configuration: inout ServerConfiguration) {
        var polling = ReadPoller.Configuration()
        polling.pollAfterReads = 0
        // Polled for the whole test, however slowly a loaded machine runs it.
        polling.busyReady = 0
        polling.idleHandBack = .seconds(600)
        configuration.readPolling = polling
    }

    /// Ada drawing, Bob guessing, both connections read by the poller after their hellos.
    static func drawing(port: Int) async throws -> (ada: TestClient, bob: TestClient) {
        let ada = TestClient.connect(port: port)
        let bob = TestClient.connect(port: port)
        try await ada.hello("Ada")
        try await bob.hello("Bob")
        try await startTurn(ada, [bob])
        return (ada, bob)
    }

    @Test func polledConnectionsRelayFramesAndMessagesInOrder() async throws {
        try await withServer(Self.polled) { port in
            let (ada, bob) = try await Self.drawing(port: port)
            let strokes = (0..<30).map { strokeBytes(from: Point(x: 10 + 10 * $0, y: 10), to: Point(x: 10 + 10 * $0, y: 90)) }
            for (index, stroke) in strokes.enumerated() {
                ada.send(binary: stroke)
                #expect(try await bob.nextBinary() == stroke, "frame \(index), whole")
            }
            // A text message read by the poller is handled too: a wrong guess is shown as chat.
            bob.send(#"{"t":"guess","text":"zzzz"}"#)
            #expect(try await ada.next("chat")["text"]?.stringValue == "zzzz")
            // Sent back to back: relayed whole and in order, however the reads split them.
            for stroke in strokes { ada.send(binary: stroke) }
            let all = strokes.flatMap { $0 }
            #expect(try await bob.nextBinary(bytes: all.count, within: 10) == all)
            #expect(try await metricValue("drawserver_polled_reads_total", port: port) > 30, "read by the poller")
        }
    }

    /// Held back by the point budget, input goes back to NIO's reads (which stop while too
    /// much waits) and is handled later, whole and in order, as without the poller.
    @Test func inputHeldBackByABudgetIsStillHandledInOrder() async throws {
        try await withServer(Self.polled) { port in
            let (ada, bob) = try await Self.drawing(port: port)
            for _ in 0..<10 { ada.send(binary: BudgetTests.thousandPointFrame) }
            let all = Array([[UInt8]](repeating: BudgetTests.thousandPointFrame, count: 10).joined())
            #expect(try await bob.nextBinary(bytes: all.count, within: 10) == all)
            #expect(try await metricValue("drawserver_polled_reads_total", port: port) > 0, "read by the poller")
        }
    }

    /// The end of a polled connection's input is found by NIO, which closes it as ever.
    @Test func aPolledConnectionThatEndsIsClosed() async throws {
        try await withServer(Self.polled) { port in
            let ada = TestClient.connect(port: port)
            let bob = TestClient.connect(port: port)
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            try await seat(ada, [bob])
            try await waitUntil { try await metricValue("drawserver_connections", port: port) == 2 }
            #expect(try await metricValue("drawserver_polled_reads_total", port: port) > 0, "read by the poller")
            // A close handshake read by the poller.
            bob.close()
            try await waitUntil { try await metricValue("drawserver_connections", port: port) == 1 }
            // A socket that just ends (no close frame).
            let raw = try await RawWebSocket(port: port)
            raw.sendText(#"{"t":"hello","name":"Cy"}"#)
            #expect(await BurstRelayTests.read(raw, until: "\"welcome\""))
            raw.sendText(#"{"t":"rooms"}"#)
            #expect(await BurstRelayTests.read(raw, until: "\"rooms\""))
            try await waitUntil { try await metricValue("drawserver_connections", port: port) == 2 }
            raw.close()
            try await waitUntil { try await metricValue("drawserver_connections", port: port) == 1 }
            // The other connection is still served.
            ada.send(#"{"t":"rooms"}"#)
            try await ada.next("rooms")
        }
    }
}
