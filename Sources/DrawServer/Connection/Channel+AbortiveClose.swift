import NIOCore
#if canImport(Glibc)
import Glibc
#endif

extension Channel {
    /// Closes the connection at once and discards whatever the kernel still holds for the
    /// peer (SO_LINGER 0: the peer gets a reset), for a peer cut off for not reading or not
    /// answering. A plain close would leave up to megabytes in the kernel's send buffer,
    /// trickling out to a peer that reads slowly long after the server gave up on it.
    func closeAbortively() {
        guard let provider = self as? any SocketOptionProvider else {
            close(promise: nil)
            return
        }
        provider.setSoLinger(linger(l_onoff: 1, l_linger: 0)).whenComplete { _ in
            self.close(promise: nil)
        }
    }
}
