import NIOCore

/// Where to connect: `ws://HOST:PORT/PATH` (no TLS).
struct ReplayURL: Sendable, Equatable {
    var host: String
    var port: Int
    var path: String
    /// The resolved address, set once before thousands of connections are opened so
    /// none of them waits on a name lookup.
    var address: SocketAddress?

    /// Resolves `host` once (a blocking lookup: call it before the run starts).
    mutating func resolve() throws {
        address = try SocketAddress.makeAddressResolvingHost(host, port: port)
    }

    init?(_ text: String) {
        guard text.hasPrefix("ws://") else { return nil }
        let rest = text.dropFirst("ws://".count)
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<slash]
        path = slash == rest.endIndex ? "/" : String(rest[slash...])
        if let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...]) {
            host = String(authority[..<colon])
            self.port = port
        } else {
            host = String(authority)
            port = 80
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, (1...65535).contains(port) else { return nil }
    }
}
