import Canvas
import DrawProtocol
import Foundation
import Rooms
import ServerTestSupport
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

    /// The pacing runs on the server's game time: a second refusal within the interval owes
    /// one resync, sent when a whole second of game time has passed, not a moment before.
    @Test func aSecondRefusalGetsItsResyncOneSecondOfGameTimeLater() async throws {
        let clock = ManualServerClock()
        try await withServer(clock: clock) { port in
            let ada = TestClient.connect(port: port)
            let bob = TestClient.connect(port: port)
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            // No hints: the room's only timer before the resync's is the turn's end.
            try await startTurn(ada, [bob], settings: #"{"rounds":1,"hints":0}"#)
            let stroke = strokeBytes(from: Point(x: 10, y: 10), to: Point(x: 50, y: 50))
            ada.send(binary: stroke)
            #expect(try await bob.nextBinary(bytes: stroke.count) == stroke)
            let invalid: [UInt8] = [0x02, 0x01, 0x02, 0x02]  // POINTS with no open stroke
            // What the drawer hears, in order: errors, canvas messages, replayed frames.
            func heard(_ count: Int) async throws -> [String] {
                var kinds: [String] = []
                while kinds.count < count {
                    switch await ada.nextEvent() {
                    case .json(.object(let message))?:
                        if let kind = message["t"]?.stringValue, kind == "error" || kind == "canvas" { kinds.append(kind) }
                    case .binary?: kinds.append("frame")
                    case .closed?, nil: throw TestClientError.timeout("the drawer's answers")
                    default: continue
                    }
                }
                return kinds
            }
            ada.send(binary: invalid)
            #expect(try await heard(3) == ["error", "canvas", "frame"], "the first refusal resyncs at once")
            ada.send(binary: invalid)
            #expect(try await heard(1) == ["error"])
            try await waitUntil { clock.nextDue == .milliseconds(1_000) }
            clock.advance(by: .milliseconds(999))
            #expect(clock.nextDue == .milliseconds(1_000), "999 ms on, the owed resync is still waiting")
            ada.send(binary: invalid)
            #expect(try await heard(1) == ["error"], "a third refusal is carried by the owed resync")
            clock.advance(by: .milliseconds(1))
            #expect(try await heard(2) == ["canvas", "frame"], "one resync, a second after the first")
            ada.send(binary: invalid)
            #expect(try await heard(1) == ["error"], "the next refusal waits for the next second")
            try await waitUntil { clock.nextDue == .milliseconds(2_000) }
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
