import Canvas
import DrawProtocol
import Foundation
import Rooms
import ServerTestSupport
import Testing
@testable import DrawServer

/// The per-connection and per-address budgets of issue 7 that the flood tests in
/// `AbuseTests` do not reach: points per second, joins per connection, room creations
/// per address.
@Suite("Budgets: points, joins, room creations", .serialized, .timeLimit(.minutes(2)))
struct BudgetTests {
    /// A 1,024-point zig-zag across the canvas, the largest POINTS a frame may carry (about
    /// 5 canvases of ink, so the ink cap is not what stops it).
    static let thousandPointFrame: [UInt8] = {
        var cursor = StrokeCursor()
        return FrameCodec.encode([
            .begin(tool: .pen, color: .black, width: 3, at: Point(x: 0, y: 0)),
            .points((0..<1024).map { Point(x: Int32($0 % 2 == 0 ? 790 : 10), y: Int32($0 % 600)) }),
            .end,
        ], cursor: &cursor)
    }()

    @Test func thousandPointBatchesBackToBackWaitForThePointBudget() async throws {
        try await withServer { port in
            let ada = TestClient.connect(port: port)
            let bob = TestClient.connect(port: port)
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            try await startTurn(ada, [bob])
            // 10,240 points at once against a budget of 4,000 per second: four frames go at
            // once (the fourth overdraws the budget), each later one when the debt is repaid.
            for _ in 0..<10 { ada.send(binary: Self.thousandPointFrame) }
            let all = Array([[UInt8]](repeating: Self.thousandPointFrame, count: 10).joined())
            let relayed = try await bob.nextBinary(bytes: all.count, within: 10)
            #expect(relayed == all, "every frame, whole and in order")
            // The fifth goes 24 ms later (the 96-point debt), each of the last five 256 ms
            // after the one before it. They were held for the budget (how many times the
            // server answered "later" depends on how late its retries ran, so not counted).
            let delayed = try await messagesDelayed(port: port)
            #expect(delayed >= 1, "frames held for the point budget: \(delayed)")
            ada.send(#"{"t":"rooms"}"#)
            try await ada.next("rooms")
            #expect(!ada.history.contains { if case .json(.object(let o)) = $0 { o["t"] == .string("error") } else { false } })
        }
    }

    @Test func joinsPerConnectionAreBudgeted() async throws {
        try await withServer({ $0.limits.joinRate = Rate(3, perMs: 60_000) }) { port in
            let ada = TestClient.connect(port: port)
            try await ada.hello("Ada")
            let code = try await seat(ada, [])
            let bob = TestClient.connect(port: port)
            try await bob.hello("Bob")
            for _ in 0..<3 {
                bob.send(#"{"t":"join","code":"\#(code)"}"#)
                try await bob.next("room")
                bob.send(#"{"t":"leave"}"#)
                try await bob.next("left")
            }
            bob.send(#"{"t":"join","code":"\#(code)"}"#)
            let error = try await bob.next("error")
            #expect(error["code"]?.stringValue == "rate_limited")
            #expect(error["ref"]?.stringValue == "join")
        }
    }

    @Test func roomCreationsPerAddressAreBudgeted() async throws {
        try await withServer({ $0.limits.roomCreationsPerIP = Rate(2, perMs: 60_000) }) { port in
            // Three connections from the same address, one room each: the third is refused.
            // The first two stay connected: quick play never picks a room nobody is in.
            var seated: [TestClient] = []
            for (index, name) in ["Ada", "Bob", "Cy"].enumerated() {
                let client = TestClient.connect(port: port)
                seated.append(client)
                try await client.hello(name)
                client.send(#"{"t":"create","public":true}"#)
                if index < 2 {
                    try await client.next("room")
                } else {
                    let error = try await client.next("error")
                    #expect(error["code"]?.stringValue == "rate_limited")
                    #expect(error["ref"]?.stringValue == "create")
                    // Joining an existing room is still allowed.
                    client.send(#"{"t":"quickplay"}"#)
                    try await client.next("room")
                }
            }
        }
    }

    /// On virtual time: the budget refills on the server's clock, so however slowly a loaded
    /// machine runs the test, no token comes back before the clock is moved.
    @Test func everyTextMessageWaitsForTheMessageBudgetValidOrNot() async throws {
        let clock = ManualServerClock()
        try await withServer({ $0.limits.messageRate = Rate(4, perMs: 2_000) }, clock: clock) { port in
            let ada = TestClient.connect(port: port)
            try await ada.hello("Ada")
            ada.send(#"{"t":"rooms"}"#)
            try await ada.next("rooms")
            ada.send("{not json")
            #expect(try await ada.next("error")["code"]?.stringValue == "bad_json")
            ada.send(#"{"t":"rooms"}"#)
            try await ada.next("rooms")
            // The budget of 4 is spent: valid or not, the next frames wait for it (one
            // token per 500 ms), in order, and are then handled.
            let before = try await messagesDelayed(port: port)
            ada.send("{still not json")
            ada.send(#"{"t":"rooms"}"#)
            // Held: counted as delayed, and answered only once the clock gives tokens back.
            try await waitUntil { try await messagesDelayed(port: port) > before }
            clock.advance(by: .milliseconds(500))
            #expect(try await ada.next("error")["code"]?.stringValue == "bad_json")
            clock.advance(by: .milliseconds(500))
            try await ada.next("rooms")
            #expect(!ada.history.contains { if case .json(.object(let o)) = $0 { o["code"] == .string("rate_limited") } else { false } })
        }
    }

    @Test func invitationsAreBudgeted() async throws {
        try await withServer({ $0.limits.inviteRate = Rate(2, perMs: 60_000) }) { port in
            let ada = TestClient.connect(port: port)
            let bob = TestClient.connect(port: port)
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            try await seat(ada, [])
            for _ in 0..<2 {
                ada.send(#"{"t":"invite","playerId":"\#(bob.playerID)"}"#)
                try await bob.next("invited")
            }
            ada.send(#"{"t":"invite","playerId":"\#(bob.playerID)"}"#)
            let error = try await ada.next("error")
            #expect(error["code"]?.stringValue == "rate_limited")
            #expect(error["ref"]?.stringValue == "invite")
        }
    }

    @Test func newConnectionsPerAddressAreBudgetedUnlessExempt() async throws {
        try await withServer({ $0.limits.connectionsPerIPRate = Rate(3, perMs: 60_000) }) { port in
            var upgrades: [RawWebSocket] = []
            for _ in 0..<3 {
                let socket = try await RawWebSocket(port: port)
                #expect(socket.status == 101)
                upgrades.append(socket)
                socket.close()
            }
            // Three opened and closed again: the fourth is over the rate, not over the cap.
            #expect(try await RawWebSocket(port: port).status == 429)
        }
        try await withServer({ configuration in
            configuration.limits.maxConnectionsPerIP = 1
            configuration.limits.connectionsPerIPRate = Rate(1, perMs: 60_000)
            configuration.limits.unlimitedAddresses = ["127.0.0.1"]
        }) { port in
            var sockets: [RawWebSocket] = []
            for _ in 0..<5 { sockets.append(try await RawWebSocket(port: port)) }
            #expect(sockets.allSatisfy { $0.status == 101 }, "an exempt address meets no per-address cap")
        }
    }
}
