import DrawProtocol
import Rooms
import Synchronization

/// Which addresses were lately logged for speaking TLS to the plain port, so each is logged
/// at most once a minute: a misconfigured client retries, and a scanner sprays.
///
/// Shared by every connection of the node; touched only when a connection opens with a
/// TLS handshake, and never across a system call.
final class MisdirectedTLSLog: Sendable {
    static let interval: Duration = .seconds(60)
    /// Addresses remembered at most; past it the oldest half is forgotten.
    static let capacity = 4096

    private let lastLogged = Mutex<[String: Timestamp]>([:])

    /// True when `address` was not logged within the interval; records it as logged now.
    func shouldLog(_ address: String, now: Timestamp) -> Bool {
        lastLogged.withLock { seen in
            if let last = seen[address], now - last < DurationText.milliseconds(Self.interval) { return false }
            if seen.count >= Self.capacity {
                let keep = seen.sorted { $0.value > $1.value }.prefix(Self.capacity / 2)
                seen = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
            }
            seen[address] = now
            return true
        }
    }
}
