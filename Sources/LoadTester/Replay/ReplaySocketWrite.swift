#if canImport(Glibc)
import Glibc
#endif

/// One `send` of a replay client's frame straight to its socket (`ReplayFrameWriter`). The
/// server has its own (`SocketWrite`, gathering many buffers); this target stays on the
/// server's public API, so the few lines are its own.
enum ReplaySocketWrite {
    /// The bytes the kernel took, 0 when the socket's send buffer is full, nil for any other
    /// failure (the peer is gone...). Never raises SIGPIPE.
    static func send(_ bytes: UnsafeRawBufferPointer, to socket: CInt) -> Int? {
        while true {
            let sent = Glibc.send(socket, bytes.baseAddress, bytes.count, CInt(MSG_NOSIGNAL))
            if sent >= 0 { return sent }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return 0
            default: return nil
            }
        }
    }
}
