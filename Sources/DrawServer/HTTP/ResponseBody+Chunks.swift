import Hummingbird
import NIOCore

extension ResponseBody {
    /// A body written in pieces, each its own write on the connection's event loop, so
    /// that a large image (a time-lapse can be 2 MB) is copied into the socket a piece per
    /// loop tick, between other connections' reads and writes, instead of in one long
    /// system call that delays every socket the loop serves.
    static func inPieces(_ bytes: [UInt8], pieceSize: Int = 64 * 1024) -> ResponseBody {
        guard bytes.count > pieceSize else { return ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)) }
        return ResponseBody(contentLength: bytes.count) { writer in
            var start = 0
            while start < bytes.count {
                let end = min(start + pieceSize, bytes.count)
                try await writer.write(ByteBuffer(bytes: bytes[start..<end]))
                start = end
            }
            try await writer.finish(nil)
        }
    }
}
