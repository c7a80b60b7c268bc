#if canImport(Glibc)
import Glibc
#endif

/// A connected loopback TCP pair of blocking sockets, for tests that read sockets
/// themselves. (Here rather than in a test file: in a module that also sees the server's
/// epoll shim, `sockaddr_in`'s fields resolve to NIO's copy of the C headers.)
package enum LoopbackTCPPair {
    package struct Failed: Error, CustomStringConvertible {
        package var step: String
        package var description: String { "loopback TCP pair: \(step) failed (errno \(errno))" }
    }

    package static func make() throws -> (sender: CInt, reader: CInt) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                guard bind(listener, raw, length) == 0 else { throw Failed(step: "bind") }
                guard listen(listener, 1) == 0 else { throw Failed(step: "listen") }
                guard getsockname(listener, raw, &length) == 0 else { throw Failed(step: "getsockname") }
            }
        }
        let reader = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                guard connect(reader, raw, length) == 0 else { throw Failed(step: "connect") }
            }
        }
        let sender = accept(listener, nil, nil)
        guard sender >= 0 else { throw Failed(step: "accept") }
        return (sender, reader)
    }
}
