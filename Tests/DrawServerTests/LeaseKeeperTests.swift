import Rooms
import Testing
@testable import DrawServer

/// The lease state machine on virtual time: no database, no clock.
@Suite("Room leases (state machine)")
struct LeaseKeeperTests {
    let room = RoomCode(parsing: "ABCDEF")!
    let configuration = LeaseKeeper.Configuration(durationMs: 6_000, renewAfterMs: 2_000, safetyMarginMs: 500)

    func at(_ ms: Int64) -> Timestamp { Timestamp(milliseconds: ms) }

    @Test func acquireRenewAndRunOutWithoutRenewal() {
        var keeper = LeaseKeeper(configuration: configuration)
        #expect(keeper.want(room, now: at(1_000)) == [.acquire(room)])
        #expect(keeper.want(room, now: at(1_001)).isEmpty, "one acquire in flight")
        #expect(keeper.epoch(of: room) == nil, "no epoch before the store answers")
        #expect(keeper.acquired(room, epoch: 3).isEmpty)
        #expect(keeper.epoch(of: room) == 3)
        #expect(keeper.tick(now: at(2_999)).isEmpty)
        // Renewal is due `renewAfterMs` after the request that set the lease was sent.
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
}
