@testable import DrawClient
import Testing

@Suite struct MessageCodingTests {
    /// A newer server's message reaches the app as it was sent, between the ones it knows.
    @Test func unrecognizedTextIsReportedAsReceived() async throws {
        let (accepted, acceptedSink) = AsyncStream.makeStream(of: InMemoryConnection.self)
        let client = DrawClient(transport: InMemoryTransport { acceptedSink.yield($0) }, name: "Ada")
        let inbox = Inbox(client)
        var servers = accepted.makeAsyncIterator()
        await client.start()
        guard let server = await servers.next() else { throw InboxTimeout() }
        try server.send(.text(#"{"t":"welcome","playerId":"p","token":"k","resumed":false,"name":"Ada"}"#))
        try server.send(.text(#"{"t":"botJoined","level":"hard"}"#))
        try server.send(.text(#"{"t":"hint","mask":"s _ _"}"#))
        let raw = try await inbox.next { event in if case .unrecognized(let raw) = event { raw } else { nil } }
        #expect(raw == #"{"t":"botJoined","level":"hard"}"#)
        #expect(try await inbox.message("hint") == .hint(mask: "s _ _"))
        await client.stop()
    }

    @Test func drawingEncoderKeepsTheOpenStrokeAcrossFramesAndTheDecoderReadsItBack() throws {
        var encoder = DrawingEncoder()
        let first = encoder.encode([.begin(tool: .pen, color: RGB(r: 1, g: 2, b: 3), width: 4, at: Point(x: 10, y: 10)), .points([Point(x: 20, y: 15)])])
        let second = encoder.encode([.points([Point(x: 25, y: 30)]), .end])
        var decoder = DrawingDecoder(size: CanvasSize(width: 800, height: 600))
        #expect(try decoder.decode(first) == [.begin(tool: .pen, color: RGB(r: 1, g: 2, b: 3), width: 4, at: Point(x: 10, y: 10)), .points([Point(x: 20, y: 15)])])
        #expect(try decoder.decode(second) == [.points([Point(x: 25, y: 30)]), .end])
        // END with no open stroke is invalid, as on the server.
        #expect(throws: FrameError.self) { try decoder.decode([0x03]) }
    }
}
