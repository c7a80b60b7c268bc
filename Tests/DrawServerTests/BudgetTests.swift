import Canvas
import Foundation
import Rooms
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

    @Test func thousandPointBatchesBackToBackHitThePointBudget() async throws {
        try await withServer { port in
            let ada = TestClient.connect(port: port)
            let bob = TestClient.connect(port: port)
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            try await seat(ada, [bob])
            ada.send(#"{"t":"start"}"#)
            try await ada.next("choose")
            ada.send(#"{"t":"choose","index":0}"#)
            try await ada.next("turn")
            // 10,240 points at once against a budget of 4,000 per second: the frame that
            // overdraws the budget is the last one relayed until it refills.
            for _ in 0..<10 { ada.send(binary: Self.thousandPointFrame) }
            let error = try await ada.next("error")
            #expect(error["code"]?.stringValue == "rate_limited")
            #expect(error["ref"]?.stringValue == "binary")
            var relayed = 0
            while let event = await bob.nextEvent(within: 0.5) {
                if case .binary(let bytes) = event { relayed += bytes.count / Self.thousandPointFrame.count }
            }
            print("point budget: \(relayed) of 10 back-to-back 1,024-point frames relayed (budget 4,000 points/s)")
            #expect(relayed == 4, "4,096 points overdraw the 4,000-point budget; relayed \(relayed) frames")
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
            for (index, name) in ["Ada", "Bob", "Cy"].enumerated() {
                let client = TestClient.connect(port: port)
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
}
