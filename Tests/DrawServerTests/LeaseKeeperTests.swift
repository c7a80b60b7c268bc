import DrawProtocol
import Rooms
import Testing
@testable import DrawServer

/// The lease state machine on virtual time: no database, no clock.
@Suite("Room leases (state machine)")
struct LeaseKeeperTests {
    let room = RoomCode(parsing: "ABCDEF")!
    let configuration = LeaseKeeper.Configuration(duration: .seconds(6), renewAfter: .seconds(2), safetyMargin: .milliseconds(500))

    func at(_ ms: Int64) -> Timestamp { Timestamp(milliseconds: ms) }

    @Test func acquireRenewAndRunOutWithoutRenewal() {
        var keeper = LeaseKeeper(configuration: configuration)
        #expect(keeper.want(room, now: at(1_000)) == [.acquire(room)])
        #expect(keeper.want(room, now: at(1_001)).isEmpty, "one acquire in flight")
        #expect(keeper.epoch(of: room) == nil, "no epoch before the store answers")
        #expect(keeper.acquired(room, epoch: 3).isEmpty)
        #expect(keeper.epoch(of: room) == 3)
        #expect(keeper.tick(now: at(2_999)).isEmpty)
        // Renewal is due `renewAfter` after the request that set the lease was sent.
        #expect(keeper.tick(now: at(3_000)) == [.renew(room, epoch: 3)])
        #expect(keeper.tick(now: at(3_500)).isEmpty, "one renewal in flight")
        keeper.renewed(room, epoch: 3)
        // Valid until the renewal's send time (3 000) + 6 000 - 500.
        #expect(keeper.tick(now: at(4_999)).isEmpty)
        #expect(keeper.tick(now: at(5_000)) == [.renew(room, epoch: 3)])
        keeper.renewFailed(room, epoch: 3)
        #expect(keeper.epoch(of: room) == 3, "a failed renewal keeps the lease while it is valid")
        #expect(keeper.tick(now: at(8_499)) == [.renew(room, epoch: 3)], "and tries again")
        keeper.renewFailed(room, epoch: 3)
        #expect(keeper.tick(now: at(8_500)) == [.lost(room, epoch: 3)], "given up before the store's expiry")
        #expect(keeper.epoch(of: room) == nil)
        #expect(keeper.isLost(room))
        #expect(keeper.want(room, now: at(9_000)).isEmpty, "a lost room stays lost")
        keeper.forget(room)
        #expect(keeper.want(room, now: at(9_000)) == [.acquire(room)])
    }

    /// A lease that ran out here (the database away) leaves its epoch for the changes the
    /// node still holds, once; a lease another node took does not.
    @Test func aLeaseThatRanOutKeepsItsEpochForTheHeldChangesOnce() {
        var keeper = LeaseKeeper(configuration: configuration)
        _ = keeper.want(room, now: at(0))
        _ = keeper.acquired(room, epoch: 4)
        #expect(keeper.ranOutEpoch(of: room) == nil, "held, not run out")
        #expect(keeper.tick(now: at(2_000)) == [.renew(room, epoch: 4)])
        #expect(keeper.tick(now: at(5_500)) == [.lost(room, epoch: 4)], "the renewal never came back")
        #expect(keeper.ranOutEpoch(of: room) == 4)
        keeper.heldChangesWritten(room)
        #expect(keeper.ranOutEpoch(of: room) == nil, "only once")

        var taken = LeaseKeeper(configuration: configuration)
        _ = taken.want(room, now: at(0))
        _ = taken.acquired(room, epoch: 4)
        #expect(taken.fenced(room, epoch: 4) == [.lost(room, epoch: 4)])
        #expect(taken.ranOutEpoch(of: room) == nil, "another node runs it: nothing more is written")
    }

    @Test func validityCountsFromTheRequestNotTheAnswer() {
        var keeper = LeaseKeeper(configuration: configuration)
        _ = keeper.want(room, now: at(0))
        // The answer comes 4 s late: the store's expiry is measured from its own now(),
        // at or after the send, so the node counts from the send.
        _ = keeper.acquired(room, epoch: 1)
        #expect(keeper.tick(now: at(5_499)) == [.renew(room, epoch: 1)])
        #expect(keeper.tick(now: at(5_500)) == [.lost(room, epoch: 1)])
    }

    @Test func anotherNodesLiveLeaseIsRefused() {
        var keeper = LeaseKeeper(configuration: configuration)
        _ = keeper.want(room, now: at(0))
        #expect(keeper.refused(room) == [.lost(room, epoch: nil)])
        #expect(keeper.epoch(of: room) == nil)
    }

    @Test func aFailedAcquireIsAskedAgain() {
        var keeper = LeaseKeeper(configuration: configuration)
        _ = keeper.want(room, now: at(0))
        keeper.acquireFailed(room)
        #expect(!keeper.isTracked(room))
        #expect(keeper.want(room, now: at(10)) == [.acquire(room)])
    }

    @Test func aFencedWriteLosesTheRoomOnlyAtTheCurrentEpoch() {
        var keeper = LeaseKeeper(configuration: configuration)
        _ = keeper.want(room, now: at(0))
        _ = keeper.acquired(room, epoch: 7)
        #expect(keeper.fenced(room, epoch: 6).isEmpty, "an older epoch's refusal is old news")
        #expect(keeper.epoch(of: room) == 7)
        #expect(keeper.fenced(room, epoch: 7) == [.lost(room, epoch: 7)])
        #expect(keeper.tick(now: at(100_000)).isEmpty, "nothing to renew or lose again")
    }

    @Test func renewalRefusedMeansTakenOver() {
        var keeper = LeaseKeeper(configuration: configuration)
        _ = keeper.want(room, now: at(0))
        _ = keeper.acquired(room, epoch: 2)
        #expect(keeper.tick(now: at(2_000)) == [.renew(room, epoch: 2)])
        #expect(keeper.renewRefused(room, epoch: 2) == [.lost(room, epoch: 2)])
    }

    @Test func releaseHandsBackTheHeldEpoch() {
        var keeper = LeaseKeeper(configuration: configuration)
        #expect(keeper.release(room).isEmpty, "nothing held, nothing to release")
        _ = keeper.want(room, now: at(0))
        _ = keeper.acquired(room, epoch: 4)
        #expect(keeper.release(room) == [.release(room, epoch: 4)])
        #expect(!keeper.isTracked(room))
        #expect(keeper.tick(now: at(2_000)).isEmpty)
        // Released while the acquire was in flight: the lease is given back when it comes.
        _ = keeper.want(room, now: at(3_000))
        #expect(keeper.release(room).isEmpty)
        #expect(keeper.acquired(room, epoch: 5) == [.release(room, epoch: 5)])
    }

    // MARK: - The defaults: fast failover, still fenced

    /// A store on virtual time with one lease row, as `PostgresLeases` writes it: expiry =
    /// the store's now at the request + duration.
    struct FakeStore {
        var owner: String?
        var epoch: Int64 = 0
        var expiresAt: Int64 = 0
        let durationMs: Int64

        mutating func acquire(_ node: String, now: Int64) -> Int64? {
            guard owner == nil || expiresAt < now || owner == node else { return nil }
            owner = node
            epoch += 1
            expiresAt = now + durationMs
            return epoch
        }

        mutating func renew(_ node: String, epoch: Int64, now: Int64) -> Bool {
            guard owner == node, self.epoch == epoch else { return false }
            expiresAt = now + durationMs
            return true
        }
    }

    @Test func defaultsResumeAKilledNodesRoomWellUnderFiveSecondsAndNeverOverlap() throws {
        let defaults = LeaseKeeper.Configuration()
        #expect(defaults.duration == .seconds(3) && defaults.renewAfter == .seconds(1))
        #expect(defaults.problem == nil)
        let tickMs: Int64 = 75 // the writer loop's batch interval
        let scanMs: Int64 = 500 // the take-over scan (`directoryInterval`)
        let requestMs: Int64 = 40 // each request reaches the store this long after it is sent
        var worst: Int64 = 0
        // Kill (or pause: it stops ticking and hears nothing) the owner at many moments.
        for killAt in stride(from: Int64(1_000), through: 6_000, by: 37) {
            var store = FakeStore(durationMs: Int64(defaults.durationMs))
            var owner = LeaseKeeper(configuration: defaults)
            _ = owner.want(room, now: at(0))
            let granted = store.acquire("a", now: requestMs)
            let epoch = try #require(granted)
            _ = owner.acquired(room, epoch: epoch)
            var now: Int64 = 0
            while now < killAt {
                now += tickMs
                for case .renew(let code, let held) in owner.tick(now: at(now)) {
                    if store.renew("a", epoch: held, now: now + requestMs) { owner.renewed(code, epoch: held) }
                }
            }
            // The survivor scans every 0.5 s and takes the lease once it has expired.
            var takenAt: Int64?
            var scan = (now / scanMs + 1) * scanMs
            while takenAt == nil {
                if store.acquire("b", now: scan) != nil { takenAt = scan }
                scan += scanMs
            }
            let takeover = try #require(takenAt)
            worst = max(worst, takeover - killAt)
            // Fencing: the paused owner, waking at any moment after the take-over, counts
            // its lease lost without asking the store.
            var paused = owner
            _ = paused.tick(now: at(takeover))
            #expect(paused.epoch(of: room) == nil, "killed at \(killAt): the old owner still counts the lease valid when another node takes it")
        }
        #expect(worst <= 3_600, "a killed node's room is taken over \(worst) ms after the kill")
    }

    @Test func anOwnerNeverCountsALeaseValidPastTheStoresExpiry() {
        let defaults = LeaseKeeper.Configuration()
        var store = FakeStore(durationMs: Int64(defaults.durationMs))
        var keeper = LeaseKeeper(configuration: defaults)
        _ = keeper.want(room, now: at(0))
        let granted = store.acquire("a", now: 0)
        _ = keeper.acquired(room, epoch: granted ?? 0)
        // Renewals reach the store late (up to 400 ms) or not at all (every third).
        var now: Int64 = 0
        var count = 0
        while now < 20_000 {
            now += 75
            for case .renew(let code, let epoch) in keeper.tick(now: at(now)) {
                count += 1
                if count % 3 == 0 {
                    keeper.renewFailed(code, epoch: epoch)
                } else if store.renew("a", epoch: epoch, now: now + Int64(count * 37 % 400)) {
                    keeper.renewed(code, epoch: epoch)
                }
            }
            if keeper.epoch(of: room) != nil {
                #expect(now < store.expiresAt, "at \(now) the node runs the room after the store's expiry \(store.expiresAt)")
            }
        }
        #expect(keeper.epoch(of: room) != nil, "one failed renewal in three does not lose the room")
    }

    @Test func unsafeLeaseFlagsAreRefused() throws {
        #expect(LeaseKeeper.duration(parsing: "3s") == .seconds(3))
        #expect(LeaseKeeper.duration(parsing: "2.5s") == .milliseconds(2_500))
        #expect(LeaseKeeper.duration(parsing: "800ms") == .milliseconds(800))
        #expect(LeaseKeeper.duration(parsing: "3") == nil, "a bare number could mean either unit")
        #expect(LeaseKeeper.duration(parsing: "-1s") == nil)
        #expect(LeaseKeeper.duration(parsing: "fast") == nil)
        let parsed = try ServeCommand.leaseConfiguration(duration: "6s", renew: "2s")
        #expect(parsed.duration == .seconds(6) && parsed.renewAfter == .seconds(2))
        #expect(parsed.durationMs == 6_000, "the store's SQL takes whole milliseconds")
        #expect(throws: (any Error).self) { try ServeCommand.leaseConfiguration(duration: "3s", renew: "2s") }
        #expect(throws: (any Error).self) { try ServeCommand.leaseConfiguration(duration: "500ms", renew: nil) }
        #expect(throws: (any Error).self) { try ServeCommand.leaseConfiguration(duration: "3s", renew: "10ms") }
        #expect(throws: (any Error).self) { try ServeCommand.leaseConfiguration(duration: "soon", renew: nil) }
    }
}
