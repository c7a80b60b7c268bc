import NIOCore
import Glibc

/// One `send` or `sendmsg` of a run of buffers to a stream socket, for `SocketHandler`'s writes
/// that go past NIO's channel (see there for when that is allowed).
enum SocketWrite {
    /// The most buffers gathered into one call; the rest are left to the caller.
    static let maxBuffers = 64

    /// Writes `buffers[start...]` (at most `maxBuffers` of them) in order. Returns how many
    /// bytes the kernel took, 0 when the socket's send buffer is full, or nil for any other
    /// failure (the peer is gone...), which the caller leaves to NIO to find and handle.
    /// Never raises SIGPIPE.
    static func send(_ buffers: [ByteBuffer], from start: Int = 0, to socket: CInt) -> Int? {
        let count = min(buffers.count - start, maxBuffers)
        guard count > 0 else { return 0 }
        if count == 1 {
            // Most drains write one frame: `send` spares the kernel copying in a message
            // header and an iovec array.
            return buffers[start].withUnsafeReadableBytes { send($0, to: socket) }
        }
        return withUnsafeTemporaryAllocation(of: iovec.self, capacity: count) { vectors in
            gather(buffers, from: start, count: count, into: vectors, at: 0) {
                var message = msghdr()
                message.msg_iov = vectors.baseAddress
                message.msg_iovlen = numericCast(count)
                return outcome { sendmsg(socket, &message, CInt(MSG_NOSIGNAL)) }
            }
        }
    }

    /// Writes `bytes` with one `send`: how many bytes the kernel took, 0 when the socket's
    /// send buffer is full, nil for any other failure. Never raises SIGPIPE.
    static func send(_ bytes: UnsafeRawBufferPointer, to socket: CInt) -> Int? {
        outcome { Glibc.send(socket, bytes.baseAddress, bytes.count, CInt(MSG_NOSIGNAL)) }
    }

    /// Runs a send until it is not interrupted: the bytes sent, 0 for a full socket, nil
    /// for any other error.
    private static func outcome(_ send: () -> Int) -> Int? {
        while true {
            let sent = send()
            if sent >= 0 { return sent }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return 0
            default: return nil
            }
        }
    }

    /// Fills `vectors` with the buffers' readable bytes, keeping each buffer's storage
    /// pinned while `body` runs.
    private static func gather<Result>(
        _ buffers: [ByteBuffer], from start: Int, count: Int,
        into vectors: UnsafeMutableBufferPointer<iovec>, at index: Int,
        _ body: () -> Result
    ) -> Result {
        guard index < count else { return body() }
        return buffers[start + index].withUnsafeReadableBytes { bytes in
            vectors[index] = iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count)
            return gather(buffers, from: start, count: count, into: vectors, at: index + 1, body)
        }
    }
}
