import Canvas
import DrawProtocol
import Foundation
import Rooms
import ServerTestSupport
import Testing
@testable import DrawServer

/// A network hiccup never costs a drawer their drawing: a real server process is frozen
/// (SIGSTOP) for a few seconds in the middle of a turn while drawers go on drawing at
/// 50, 60 and 100 frames a second; when it resumes, the burst is shaped to the drawing
/// budgets, not refused, and every operation reaches every guesser in order.
/// Not serialized: each case has its own server, so the suite costs its longest stall, not
/// the sum of them.
@Suite("Bursts after a server stall", .timeLimit(.minutes(3)))
struct StallTests {
    static let paces = [50, 60, 100]

    @Test(arguments: [5, 10])
    func everyOperationArrivesAfterAStall(seconds stall: Int) async throws {
        let db = temporaryDatabasePath()
        defer { try? FileManager.default.removeItem(atPath: db) }
        // Loopback load comes from one address: lift the per-address caps.
        let server = try await ServerProcess(["--db", db, "--max-connections-per-ip", "0", "--ip-room-rate", "1000/1s"])
        var drawers: [TestClient] = []
        var guessers: [[TestClient]] = []
        for (index, _) in Self.paces.enumerated() {
            let drawer = TestClient.connect(port: server.port)
            let others = [TestClient.connect(port: server.port), TestClient.connect(port: server.port)]
            try await drawer.hello("Drawer\(index)")
            for (n, guesser) in others.enumerated() { try await guesser.hello("Guesser\(index)\(n)") }
            try await startTurn(drawer, others, settings: #"{"rounds":1,"drawTimeSec":240}"#)
            for guesser in others { try await guesser.next("turn") }
            drawers.append(drawer)
            guessers.append(others)
        }

        // Each drawer draws at its pace for `stall + 3` seconds; the server is frozen from
        // the first second on for `stall` seconds.
        let duration = Double(stall + 3)
        var sent = [[UInt8]](repeating: [], count: Self.paces.count)
        var frames = [Int](repeating: 0, count: Self.paces.count)
        let start = ContinuousClock.now
        var frozen = false, resumed = false
        var resumedAt = ContinuousClock.now
        while true {
            let elapsed = Double((ContinuousClock.now - start) / .milliseconds(1)) / 1000
            if !frozen, elapsed >= 1 {
                server.signal(SIGSTOP)
                frozen = true
            }
            if frozen, !resumed, elapsed >= 1 + Double(stall) {
                server.signal(SIGCONT)
                resumed = true
                resumedAt = ContinuousClock.now
            }
            guard elapsed < duration else { break }
            for (room, pace) in Self.paces.enumerated() {
                while frames[room] < Int(elapsed * Double(pace)) {
                    let i = frames[room]
                    let dot = strokeBytes(from: Point(x: Int32(i % 700), y: Int32(20 + i / 700)), to: Point(x: Int32(i % 700 + 2), y: Int32(21 + i / 700)), width: 2)
                    sent[room] += dot
                    drawers[room].send(binary: dot)
                    frames[room] += 1
                }
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        if !resumed { server.signal(SIGCONT) }

        var caughtUp: [String] = []
        for (room, pace) in Self.paces.enumerated() {
            for guesser in guessers[room] {
                // The server may merge frames: compare the concatenated operations.
                let received = try await guesser.nextBinary(bytes: sent[room].count, within: 60)
                #expect(received == sent[room], "\(pace) frames/s through a \(stall) s stall: \(received.count) of \(sent[room].count) bytes, in order")
            }
            // Rooms are checked in turn, so a later room's figure is an upper bound.
            let after = Double((ContinuousClock.now - resumedAt) / .milliseconds(1)) / 1000
            caughtUp.append("\(pace)/s: \(frames[room]) frames, all delivered \(String(format: "%.1f", after)) s after the resume")
        }
        // Nothing refused, nobody closed: a round trip shows everything before it arrived.
        for client in drawers + guessers.flatMap({ $0 }) {
            client.send(#"{"t":"rooms"}"#)
            try await client.next("rooms", within: 30)
            let trouble = client.history.filter { (event: TestClient.Event) -> Bool in
                if case .closed = event { return true }
                if case .json(.object(let object)) = event { return object["t"] == .string("error") }
                return false
            }
            #expect(trouble.isEmpty, "errors or a close: \(trouble)")
        }
        print("stall \(stall) s, drawing for \(stall + 3) s: " + caughtUp.joined(separator: "; "))
    }

    /// A native client drawing at its display rate (144 Hz) exceeds the frame budget while
    /// it draws: it is shaped, never closed, and every frame arrives in order (864 frames
    /// in 6 s against 120 a second plus a burst of 120). On game time: however late the
    /// server reads them, by 6 s at most 840 frames fit, so some must wait.
    @Test func aDrawerAt144FramesASecondIsShapedNotClosed() async throws {
        let clock = ManualServerClock()
        try await withServer(clock: clock) { port in
            let ada = TestClient.connect(port: port)
            let bob = TestClient.connect(port: port)
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            try await startTurn(ada, [bob], settings: #"{"rounds":1,"drawTimeSec":240}"#)
            let before = try await messagesDelayed(port: port)
            var sent: [UInt8] = []
            let frames = 864
            for frame in 0..<frames {
                let dot = strokeBytes(from: Point(x: Int32(frame % 700), y: 30), to: Point(x: Int32(frame % 700 + 1), y: 31), width: 2)
                sent += dot
                ada.send(binary: dot)
                clock.advance(by: .seconds(1) * (frame + 1) / 144 - clock.now)
            }
            #expect(clock.now == .seconds(6))
            try await waitUntil { try await messagesDelayed(port: port) > before }
            // Game time goes on a second at a time (each lets up to 120 held frames through)
            // until the rest has arrived.
            var received: [UInt8] = []
            try await waitUntil(seconds: 30) {
                clock.advance(by: .seconds(1))
                while received.count < sent.count, let event = await bob.nextEvent(within: 0.01) {
                    if case .binary(let bytes) = event { received += bytes }
                }
                return received.count >= sent.count
            }
            #expect(received == sent, "\(frames) frames at 144 a second of game time, whole and in order")
            ada.send(#"{"t":"rooms"}"#)
            try await ada.next("rooms")
            let trouble = ada.history.filter { (event: TestClient.Event) -> Bool in
                if case .closed = event { return true }
                if case .json(.object(let object)) = event { return object["t"] == .string("error") }
                return false
            }
            #expect(trouble.isEmpty, "errors or a close: \(trouble)")
        }
    }
}
