internal import CZlib
import NIOCore

/// Inflates permessage-deflate messages (RFC 7692): raw deflate, one stream for the whole
/// connection unless the peer starts a new one, with a limit on each message's inflated size.
///
/// Made when a connection's first compressed message arrives, not at the upgrade: zlib's
/// state and window are about 40 KB, and most messages of this protocol are not compressed.
final class MessageInflater {
    enum Failure: Error, Equatable {
        /// Inflated past the message limit (close with 1009).
        case tooLarge
        /// Not a valid deflate stream (close with 1007).
        case corrupt
    }

    private let stream: UnsafeMutablePointer<z_stream>

    init?() {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // A raw stream (no zlib header), with the largest window so any client window fits.
        guard inflateInit2_(stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            return nil
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Inflates one whole message's payload (the frames' payloads joined), at most `limit` bytes out.
    func inflate(_ compressed: ByteBuffer, limit: Int) throws(Failure) -> ByteBuffer {
        // RFC 7692 section 7.2.2: the sender removed the empty block's tail; put it back.
        var input = compressed
        input.writeBytes([0x00, 0x00, 0xFF, 0xFF])
        // One byte past the limit tells "too large" from "exactly the limit".
        let cap = limit + 1
        var output = ByteBufferAllocator().buffer(capacity: min(cap, max(256, compressed.readableBytes * 4)))
        var streamEnded = false
        let outcome: Result<Void, Failure> = input.withUnsafeMutableReadableBytes { inBytes in
            stream.pointee.next_in = inBytes.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_in = uInt(inBytes.count)
            while true {
                if output.writableBytes == 0 { output.reserveCapacity(min(cap, output.capacity * 2)) }
                let room = min(output.writableBytes, cap - output.readableBytes)
                let (status, produced) = output.withUnsafeMutableWritableBytes { outBytes in
                    stream.pointee.next_out = outBytes.baseAddress?.assumingMemoryBound(to: Bytef.self)
                    stream.pointee.avail_out = uInt(room)
                    let status = CZlib.inflate(stream, Z_SYNC_FLUSH)
                    return (status, room - Int(stream.pointee.avail_out))
                }
                output.moveWriterIndex(forwardBy: produced)
                if output.readableBytes > limit { return .failure(.tooLarge) }
                switch status {
                case Z_STREAM_END:
                    // The peer ended its stream (BFINAL): its next message starts a new one.
                    streamEnded = true
                    return .success(())
                case Z_OK, Z_BUF_ERROR:
                    // Done once all input is in and zlib had room to spare.
                    if stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0 { return .success(()) }
                    if status == Z_BUF_ERROR && produced == 0 { return .failure(.corrupt) }
                default:
                    return .failure(.corrupt)
                }
            }
        }
        switch outcome {
        case .success:
            if streamEnded { inflateReset(stream) }
            return output
        case .failure(let failure):
            inflateReset(stream)
            throw failure
        }
    }
}
