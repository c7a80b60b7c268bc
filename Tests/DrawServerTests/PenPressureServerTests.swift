import Canvas
import DrawProtocol
import Foundation
import ServerTestSupport
import Testing
@testable import DrawServer

/// Pen pressure through the server (docs/PROTOCOL.md 12.4): relayed byte for byte, replayed
/// to a late joiner as a stroke that renders the same, drawn on the moderator's snapshot,
/// and a pressure of 0 refused as any invalid frame.
@Suite("Pen pressure on the server", .timeLimit(.minutes(1)))
struct PenPressureServerTests {
    static let token = "let-me-in"

    @Test func aPressureStrokeIsRelayedReplayedAndRendered() async throws {
        try await withServer({ $0.moderatorToken = Self.token }) { port async throws in
            let ada = TestClient.connect(port: port)
            let bob = TestClient.connect(port: port)
            try await ada.hello("Ada")
            try await bob.hello("Bob")
            let code = try await seat(ada, [bob])
            _ = try await startGame(ada)
            let ops: [DrawOperation] = [
                .pressureBegin(tool: .pen, color: .black, width: 40, pressure: 20, at: Point(x: 100, y: 300)),
                .pressurePoints((1...20).map { PressurePoint(Point(x: 100 + Int32($0) * 30, y: 300), pressure: UInt8(20 + $0 * 11)) }),
                .end,
            ]
            var cursor = StrokeCursor()
            let frame = FrameCodec.encode(ops, cursor: &cursor)
            ada.send(binary: frame)
            #expect(try await bob.nextBinary(bytes: frame.count) == frame, "relayed as sent")

            var drawing = Drawing(size: .standard)
            _ = try drawing.apply(frame: frame)
            let expected = Renderer.render(drawing)
            let png = try await HTTP.get(port: port, path: "/api/rooms/\(code)/canvas.png", token: Self.token)
            #expect(png.body == PNGEncoder.encode(expected))
            // Thin where the pen was light, thick where it pressed.
            func ink(atX x: Int) -> Int { (0..<600).count { expected.pixels[($0 * 800 + x) * 3] < 128 } }
            #expect(ink(atX: 110) < 6 && ink(atX: 690) > 30)

            let cy = TestClient.connect(port: port)
            try await cy.hello("Cy")
            cy.send(#"{"t":"join","code":"\#(code)"}"#)
            try await cy.next("canvas")
            var replay = Drawing(size: .standard)
            while replay.visibleItemCount < 1 {
                _ = try replay.apply(frame: try await cy.nextBinary())
            }
            #expect(Renderer.render(replay) == expected, "the late joiner's canvas")

            ada.send(binary: [0x07, 0, 0, 0, 0, 10, 0, 10, 12])
            let refused = try await ada.next("error")
            #expect(refused["code"]?.stringValue == "bad_ops")
            #expect(refused["message"]?.stringValue?.contains("pressure 0") == true)
        }
    }
}
