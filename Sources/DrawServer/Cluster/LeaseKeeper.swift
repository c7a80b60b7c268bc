import Foundation
import Rooms

/// The room leases one node holds, as a pure state machine: events and the current time
/// in, `LeaseAction`s out. `PostgresLeases` performs the actions; the store asks it which
/// epoch a room's writes carry.
struct LeaseKeeper: Sendable {
    struct Configuration: Sendable, Equatable {
        /// How long the store keeps a lease after an acquire or renewal (`--lease-duration`).
        /// A killed node's rooms are taken over at most this long after its last renewal,
        /// plus one take-over scan.
        var durationMs = 3_000
        /// A held lease is renewed this long after the request that last set it
        /// (`--lease-renew`).
        var renewAfterMs = 1_000
        /// Given up this long before the node's estimate of the expiry (clock rate
        /// differences, the time a renewal takes to be acted on).
        var safetyMarginMs = 500

        /// How long the node counts a lease valid after the request that set it.
        var validityMs: Int { durationMs - safetyMarginMs }

        /// Why these durations are unsafe, or nil. A renewal is sent `renewAfterMs` after the
        /// last one; it must leave time for at least one more try (a renewal that fails is
        /// retried at the next tick) before the node's own estimate of the expiry, which is
        /// what keeps two nodes from ever running one room.
        var problem: String? {
            if durationMs < Self.minimumDurationMs { return "the lease duration must be at least \(Self.minimumDurationMs) ms" }
            if durationMs > Self.maximumDurationMs { return "the lease duration must be at most \(Self.maximumDurationMs / 1000) s" }
            if renewAfterMs < Self.minimumRenewMs { return "the lease renewal interval must be at least \(Self.minimumRenewMs) ms" }
            if renewAfterMs * 2 > validityMs {
                return "the lease renewal interval (\(renewAfterMs) ms) must be at most half of the lease duration less \(safetyMarginMs) ms (\(validityMs / 2) ms)"
            }
            return nil
        }

        static let minimumDurationMs = 1_000
        static let maximumDurationMs = 600_000
        static let minimumRenewMs = 100
    }

    /// A duration written `3s`, `1500ms` or `2.5s`, in milliseconds; nil for anything else.
    static func milliseconds(parsing text: String) -> Int? {
        let text = text.trimmingCharacters(in: .whitespaces)
        if text.hasSuffix("ms") {
            guard let value = Int(text.dropLast(2)), value >= 0 else { return nil }
            return value
        }
        guard text.hasSuffix("s"), let seconds = Double(text.dropLast()), seconds.isFinite, seconds >= 0, seconds <= 86_400 else { return nil }
        return Int((seconds * 1000).rounded())
    }

    let configuration: Configuration
    private(set) var leases: [RoomCode: RoomLease] = [:]

    init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The epoch this node's writes for `code` carry; nil when it does not hold the lease.
    func epoch(of code: RoomCode) -> Int64? { leases[code]?.heldEpoch }

    func isLost(_ code: RoomCode) -> Bool { leases[code]?.isLost ?? false }

    /// The epoch this node last held for `code`, which it lost (ran out, or was taken):
    /// the changes it still holds for the room are written under it, and the store's epoch
    /// check refuses them if another node has taken the room since.
    func lostEpoch(of code: RoomCode) -> Int64? {
        if case .lost(let epoch?) = leases[code]?.state { epoch } else { nil }
    }

    func isTracked(_ code: RoomCode) -> Bool { leases[code] != nil }

    /// The node wants to run `code`. A room it lost stays lost until `forget`.
    mutating func want(_ code: RoomCode, now: Timestamp) -> [LeaseAction] {
        guard leases[code] == nil else { return [] }
        leases[code] = RoomLease(code: code, state: .acquiring(sentAt: now))
        return [.acquire(code)]
    }

    /// The store granted the lease at `epoch`.
    mutating func acquired(_ code: RoomCode, epoch: Int64) -> [LeaseAction] {
        guard case .acquiring(let sentAt) = leases[code]?.state else {
            // Released meanwhile: give the fresh lease back.
            return leases[code] == nil ? [.release(code, epoch: epoch)] : []
        }
        leases[code]?.state = .held(epoch: epoch, validUntil: sentAt + configuration.validityMs, renewSentAt: nil)
        return []
    }

    /// Another node holds a live lease on the room.
    mutating func refused(_ code: RoomCode) -> [LeaseAction] {
        guard case .acquiring = leases[code]?.state else { return [] }
        leases[code]?.state = .lost(epoch: nil)
        return [.lost(code, epoch: nil)]
    }

    /// The acquire did not reach the store (or its answer was lost): ask again at the next
    /// `want`.
    mutating func acquireFailed(_ code: RoomCode) {
        if case .acquiring = leases[code]?.state { leases[code] = nil }
    }

    /// The store extended the lease at `epoch`.
    mutating func renewed(_ code: RoomCode, epoch: Int64) {
        guard case .held(epoch, _, let sentAt?) = leases[code]?.state else { return }
        leases[code]?.state = .held(epoch: epoch, validUntil: sentAt + configuration.validityMs, renewSentAt: nil)
    }

    /// The store no longer has the lease at `epoch` (another node took it over).
    mutating func renewRefused(_ code: RoomCode, epoch: Int64) -> [LeaseAction] {
        lose(code, ifEpoch: epoch)
    }

    /// The renewal did not reach the store: keep the lease until it runs out; the next tick
    /// tries again.
    mutating func renewFailed(_ code: RoomCode, epoch: Int64) {
        guard case .held(epoch, let validUntil, _) = leases[code]?.state else { return }
        leases[code]?.state = .held(epoch: epoch, validUntil: validUntil, renewSentAt: nil)
    }

    /// A write carrying `epoch` was refused: the store has a newer owner.
    mutating func fenced(_ code: RoomCode, epoch: Int64) -> [LeaseAction] {
        lose(code, ifEpoch: epoch)
    }

    /// The node stops running `code` (room closed): release the lease.
    mutating func release(_ code: RoomCode) -> [LeaseAction] {
        guard let lease = leases.removeValue(forKey: code) else { return [] }
        if let epoch = lease.heldEpoch { return [.release(code, epoch: epoch)] }
        return []
    }

    /// Drops a lost room's entry, so it may be wanted again.
    mutating func forget(_ code: RoomCode) {
        if leases[code]?.isLost == true { leases[code] = nil }
    }

    /// Renewals that are due, and leases that ran out before a renewal came back.
    mutating func tick(now: Timestamp) -> [LeaseAction] {
        var actions: [LeaseAction] = []
        for code in leases.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            guard case .held(let epoch, let validUntil, let renewSentAt) = leases[code]?.state else { continue }
            if now >= validUntil {
                actions += lose(code, ifEpoch: epoch)
            } else if renewSentAt == nil, now >= validUntil + (configuration.renewAfterMs - configuration.validityMs) {
                leases[code]?.state = .held(epoch: epoch, validUntil: validUntil, renewSentAt: now)
                actions.append(.renew(code, epoch: epoch))
            }
        }
        return actions
    }

    private mutating func lose(_ code: RoomCode, ifEpoch epoch: Int64) -> [LeaseAction] {
        guard leases[code]?.heldEpoch == epoch else { return [] }
        leases[code]?.state = .lost(epoch: epoch)
        return [.lost(code, epoch: epoch)]
    }
}
