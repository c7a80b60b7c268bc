import DrawProtocol
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
        var duration: Duration = .seconds(3)
        /// A held lease is renewed this long after the request that last set it
        /// (`--lease-renew`).
        var renewAfter: Duration = .seconds(1)
        /// Given up this long before the node's estimate of the expiry (clock rate
        /// differences, the time a renewal takes to be acted on).
        var safetyMargin: Duration = .milliseconds(500)

        /// How long the node counts a lease valid after the request that set it.
        var validity: Duration { duration - safetyMargin }

        /// Why these durations are unsafe, or nil. A renewal is sent `renewAfter` after the
        /// last one; it must leave time for at least one more try (a renewal that fails is
        /// retried at the next tick) before the node's own estimate of the expiry, which is
        /// what keeps two nodes from ever running one room.
        var problem: String? {
            func text(_ d: Duration) -> String { DurationText.describe(d) }
            if duration < Self.minimumDuration { return "the lease duration must be at least \(text(Self.minimumDuration))" }
            if duration > Self.maximumDuration { return "the lease duration must be at most \(text(Self.maximumDuration))" }
            if renewAfter < Self.minimumRenew { return "the lease renewal interval must be at least \(text(Self.minimumRenew))" }
            if renewAfter * 2 > validity {
                return "the lease renewal interval (\(text(renewAfter))) must be at most half of the lease duration less \(text(safetyMargin)) (\(text(validity / 2)))"
            }
            return nil
        }

        static let minimumDuration = Duration.seconds(1)
        static let maximumDuration = Duration.seconds(600)
        static let minimumRenew = Duration.milliseconds(100)

        /// The lease duration in whole milliseconds, as the store's SQL takes it.
        var durationMs: Int { DurationText.milliseconds(duration) }
        /// The game clock (`Timestamp`) counts milliseconds.
        fileprivate var validityMs: Int { DurationText.milliseconds(validity) }
        fileprivate var renewAfterMs: Int { DurationText.milliseconds(renewAfter) }
    }

    /// A lease flag's value: a number and a unit (`3s`, `2500ms`, `2.5s`); a bare number
    /// is refused, since `3` could mean seconds or milliseconds. Nil for anything else.
    static func duration(parsing text: String) -> Duration? {
        guard text.trimmingCharacters(in: .whitespaces).last?.isLetter == true else { return nil }
        return DurationText.parse(text, bareUnit: .seconds)
    }

    let configuration: Configuration
    private(set) var leases: [RoomCode: RoomLease] = [:]
    /// Rooms lost because their leases ran out here (see `ranOutEpoch`).
    private var ranOut: [RoomCode: Int64] = [:]

    init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The epoch this node's writes for `code` carry; nil when it does not hold the lease.
    func epoch(of code: RoomCode) -> Int64? { leases[code]?.heldEpoch }

    func isLost(_ code: RoomCode) -> Bool { leases[code]?.isLost ?? false }

    /// The epoch of a lease that ran out on this node's clock (not one another node took):
    /// the changes the node still holds for the room may be written under it once, and the
    /// store's epoch check refuses them if another node has taken the room since.
    func ranOutEpoch(of code: RoomCode) -> Int64? {
        guard let epoch = ranOut[code], case .lost(epoch) = leases[code]?.state else { return nil }
        return epoch
    }

    /// The held changes of a room whose lease ran out were written (or refused): anything
    /// later for it is dropped.
    mutating func heldChangesWritten(_ code: RoomCode) { ranOut[code] = nil }

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
        ranOut[code] = nil
        guard let lease = leases.removeValue(forKey: code) else { return [] }
        if let epoch = lease.heldEpoch { return [.release(code, epoch: epoch)] }
        return []
    }

    /// Drops a lost room's entry, so it may be wanted again.
    mutating func forget(_ code: RoomCode) {
        if leases[code]?.isLost == true {
            leases[code] = nil
            ranOut[code] = nil
        }
    }

    /// Renewals that are due, and leases that ran out before a renewal came back.
    mutating func tick(now: Timestamp) -> [LeaseAction] {
        // Runs every few tens of milliseconds over every lease, and almost always finds
        // nothing due: only the due ones are put in order (actions go out by room code).
        let renewLeadMs = configuration.renewAfterMs - configuration.validityMs
        var due: [RoomCode] = []
        for (code, lease) in leases {
            guard case .held(_, let validUntil, let renewSentAt) = lease.state else { continue }
            if now >= validUntil || (renewSentAt == nil && now >= validUntil + renewLeadMs) { due.append(code) }
        }
        guard !due.isEmpty else { return [] }
        var actions: [LeaseAction] = []
        for code in due.sorted() {
            guard case .held(let epoch, let validUntil, _) = leases[code]?.state else { continue }
            if now >= validUntil {
                actions += lose(code, ifEpoch: epoch)
                ranOut[code] = epoch
            } else {
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
