import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
@testable import DrawServer

/// Large images leave in pieces (`ResponseBody.inPieces`) and arrive whole.
@Suite("Bodies written in pieces")
struct ResponseBodyPiecesTests {
    @Test(arguments: [0, 1, 65_536, 65_537, 300_001])
    func theBodyArrivesWholeWithItsLength(size: Int) async throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let router = Router()
        router.get("image") { _, _ in Response(status: .ok, body: .inPieces(bytes)) }
        let app = Application(router: router)
        try await app.test(.live) { client in
            try await client.execute(uri: "/image", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentLength] == "\(size)")
                #expect(Array(buffer: response.body) == bytes)
            }
        }
    }

    @Test func aLargeBodyIsWrittenAPieceAtATime() async throws {
        let pieces = Pieces()
        let body = ResponseBody.inPieces([UInt8](repeating: 7, count: 150_000), pieceSize: 65_536)
        #expect(body.contentLength == 150_000)
        try await body.write(CollectingWriter(pieces: pieces))
        #expect(pieces.sizes == [65_536, 65_536, 18_928])
    }

    private final class Pieces: @unchecked Sendable {
        var sizes: [Int] = []
    }

    private struct CollectingWriter: ResponseBodyWriter {
        let pieces: Pieces
        mutating func write(_ buffer: ByteBuffer) async throws { pieces.sizes.append(buffer.readableBytes) }
        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
