import Canvas
import Foundation
import Rooms
import Testing
@testable import DrawServer

/// Never silent: a drawer whose frame is refused is told, and its canvas is set back to
/// what everyone else sees.
@Suite("A refused drawing frame")
struct ResyncTests {
    @Test func theDrawerIsToldAndGetsTheRoomsCanvasBack() async throws {
        try await withServer { port in
            let ada = TestClient.connect(port: port)
            let bob = TestClient.connect(port: port)
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            try await startTurn(ada, [bob])
            let stroke = strokeBytes(from: Point(x: 10, y: 10), to: Point(x: 50, y: 50))
            ada.send(binary: stroke)
            #expect(try await bob.nextBinary(bytes: stroke.count) == stroke)
            // POINTS with no open stroke: the whole frame is invalid.
            ada.send(binary: [0x02, 0x01, 0x02, 0x02])
            #expect(try await ada.next("error")["code"]?.stringValue == "bad_ops")
            try await ada.next("canvas")
            var cursor = StrokeCursor()
            let replayed = try await ada.nextBinary(bytes: 1)
            #expect(try FrameCodec.decode(replayed, size: .standard, cursor: &cursor).count == 3, "the room's one stroke, compacted")
        }
    }

    @Test func resyncsArePacedToOnePerInterval() {
        var pacer = ResyncPacer()
        func refused(at ms: Int64) -> ResyncPacer.Decision { pacer.refused(now: Timestamp(milliseconds: ms)) }
        func due(at ms: Int64) -> Bool { pacer.due(now: Timestamp(milliseconds: ms)) }
        #expect(refused(at: 0) == .now)
        #expect(refused(at: 200) == .after(800))
        #expect(refused(at: 300) == .alreadyOwed)
        #expect(due(at: 1_000))
        #expect(!due(at: 1_001), "one owed resync, sent once")
        #expect(refused(at: 1_500) == .after(500))
        #expect(refused(at: 5_000) == .alreadyOwed)
        #expect(due(at: 5_000))
        #expect(refused(at: 6_000) == .now)
    }
}
