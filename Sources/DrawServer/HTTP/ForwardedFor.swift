import Foundation
import NIOCore

/// The client address behind a trusted proxy (`--trusted-proxies`, e.g. HAProxy with
/// `option forwardfor`): per-address limits and logs use it instead of the proxy's.
///
/// `X-Forwarded-For` is a list each proxy appends the address it saw to, so only its
/// right-hand end is trustworthy: the address is the rightmost entry that is not itself a
/// trusted proxy. The header is ignored unless the connection comes from a trusted proxy,
/// and an entry that is not an IP address leaves the proxy's own address (a client cannot
/// smuggle a name or garbage into the limits' keys).
struct ForwardedFor: Sendable, Equatable {
    static let header = "x-forwarded-for"

    let trustedProxies: Set<String>

    /// The address to count `peer`'s request under.
    func clientIP(peer: String, headerValues: [String]) -> String {
        guard trustedProxies.contains(peer), !headerValues.isEmpty else { return peer }
        let entries = headerValues.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        for entry in entries.reversed() {
            guard Self.isIPAddress(entry) else { return peer }
            if !trustedProxies.contains(entry) { return entry }
        }
        return peer
    }

    static func isIPAddress(_ text: String) -> Bool {
        guard !text.isEmpty, text.count <= 45 else { return false }
        return (try? SocketAddress(ipAddress: text, port: 0)) != nil
    }
}
