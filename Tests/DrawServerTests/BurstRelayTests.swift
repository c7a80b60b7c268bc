import Canvas
import Foundation
import ServerTestSupport
import Testing
@testable import DrawServer
#if canImport(Glibc)
import Glibc
#endif

/// A server that is behind reads a drawer's frames in bursts. Each recipient then gets the
/// whole burst in one write (one merged binary frame), not one write per frame: the busier
/// the loop, the fewer writes per relayed frame.
@Suite("Relaying a burst of drawing frames")
struct BurstRelayTests {
    /// One event loop, so the recipient's writer is drained when the burst's read ends. On
    /// another loop it is woken by a task, which a loaded machine could run between two frames
    /// of the burst (2 failures in 16 full runs).
    @Test func framesReadTogetherReachEachRecipientInOneWrite() async throws {
        try await withServer({ $0.eventLoopThreads = 1 }) { port in
            let ada = TestClient.connect(port: port)
            let bob = TestClient.connect(port: port)
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            try await startTurn(ada, [bob])

            // Ada's seat moves to a raw socket, which can put several frames in one write.
            let raw = try await RawWebSocket(port: port)
            raw.sendText(#"{"t":"hello","name":"Ada","token":"\#(ada.token)"}"#)
            #expect(await Self.read(raw, until: "\"welcome\""), "the resumed drawer is welcomed")

            let strokes = (0..<4).map { strokeBytes(from: Point(x: 10 + 20 * $0, y: 10), to: Point(x: 10 + 20 * $0, y: 90)) }
            raw.write(strokes.flatMap { RawWebSocket.frame(opcode: 2, $0) })
            let all = strokes.flatMap { $0 }
            #expect(try await bob.nextBinary() == all, "one binary message holding the four frames, in order")

            // A frame alone still goes at once, on its own.
            let single = strokeBytes(from: Point(x: 100, y: 100), to: Point(x: 150, y: 120))
            raw.sendFrame(opcode: 2, single)
            #expect(try await bob.nextBinary() == single)
        }
    }

    /// Reads what the server sends until `text` has appeared in it (the socket's receive
    /// timeout ends a wait that never succeeds).
    static func read(_ raw: RawWebSocket, until text: String) async -> Bool {
        await offThePool { [socket = raw.socket] in
            var received: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while !String(decoding: received, as: UTF8.self).contains(text) {
                let got = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
                guard got > 0 else { return false }
                received += chunk[0..<got]
            }
            return true
        }
    }
}
