import DrawProtocol
import Rooms

/// What each client address may do: how many connections it holds open, how fast it
/// opens new ones, how many rooms it creates. Addresses in `unlimitedAddresses` (load
/// generators, trusted gateways) are exempt from all three.
///
/// A value kept under the game server's lock; the token-bucket maps forget addresses
/// whose budget is full again once they grow large, so they stay small.
struct AddressBudgets: Sendable {
    let limits: ServerConfiguration.Limits
    private var open: [String: Int] = [:]
    private var newConnections: [String: TokenBucket] = [:]
    private var roomCreations: [String: TokenBucket] = [:]

    init(limits: ServerConfiguration.Limits) {
        self.limits = limits
    }

    func isUnlimited(_ address: String) -> Bool {
        limits.unlimitedAddresses.contains(address)
    }

    /// Connections open from `address`.
    func openConnections(from address: String) -> Int {
        open[address, default: 0]
    }

    /// Whether `address` is at its cap of open connections.
    func isFull(_ address: String) -> Bool {
        let cap = limits.maxConnectionsPerIP
        return cap > 0 && !isUnlimited(address) && open[address, default: 0] >= cap
    }

    /// Spends one of `address`'s new connections; false when it opens them too fast. With
    /// `maxConnectionsPerIP` 0 (no per-address connection limits) nothing is counted.
    mutating func takeNewConnection(from address: String, now: Timestamp) -> Bool {
        limits.maxConnectionsPerIP == 0 || isUnlimited(address)
            || Self.take(from: &newConnections, address, rate: limits.connectionsPerIPRate, now: now)
    }

    /// Spends one of `address`'s room creations; false when its budget is used up.
    mutating func takeRoomCreation(from address: String, now: Timestamp) -> Bool {
        isUnlimited(address) || Self.take(from: &roomCreations, address, rate: limits.roomCreationsPerIP, now: now)
    }

    /// Counts an open connection; false (and nothing counted) when the address is full.
    mutating func opened(from address: String) -> Bool {
        guard !isFull(address) else { return false }
        open[address, default: 0] += 1
        return true
    }

    mutating func closed(from address: String) {
        let left = open[address, default: 1] - 1
        open[address] = left > 0 ? left : nil
    }

    private static func take(from buckets: inout [String: TokenBucket], _ address: String, rate: Rate, now: Timestamp) -> Bool {
        var bucket = buckets[address] ?? TokenBucket(rate, now: now)
        let allowed = bucket.take(now: now)
        buckets[address] = bucket
        if buckets.count > 10_000 {
            buckets = buckets.filter { entry in
                var copy = entry.value
                return !copy.take(Double(rate.count), now: now)
            }
        }
        return allowed
    }
}
