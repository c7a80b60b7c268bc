import Foundation
import NIOCore
import NIOEmbedded
import Synchronization
import Testing
@testable import DrawServer

/// The heartbeat on a test event loop: time on the loop is advanced by hand, and the
/// activity monitor reads the same loop's clock, so nothing waits.
@Suite("Connection heartbeat")
struct ConnectionTimersTests {
    let loop = EmbeddedEventLoop()
    let outbox: Outbox
    let activity: ActivityMonitor
    let hardClosed = Counter()

    init() {
        outbox = Outbox(limit: 1 << 20, eventLoop: loop, hardClose: {})
        activity = ActivityMonitor(clock: .of(loop))
    }

    final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    func timers() -> ConnectionTimers {
        var limits = ServerConfiguration.Limits()
        limits.pingInterval = .seconds(1)
        limits.pingTimeout = .seconds(1)
        let hardClosed = self.hardClosed
        return ConnectionTimers(
            eventLoop: loop, limits: limits, outbox: outbox, activity: activity,
            hasSaidHello: { true }, hardClose: { hardClosed.value.add(1, ordering: .relaxed) }
        )
    }

    @Test func aSilentPeerIsCutOffAfterThePingTimesOut() {
        let timers = timers()
        defer { timers.cancel() }
        activity.touch()
        loop.advanceTime(by: .seconds(1))  // the ping
        loop.advanceTime(by: .seconds(1))  // its timeout, nothing read since
        #expect(outbox.isClosing)
        #expect(hardClosed.value.load(ordering: .relaxed) == 1)
    }

    @Test func aPeerThatAnsweredStays() {
        let timers = timers()
        defer { timers.cancel() }
        loop.advanceTime(by: .seconds(1))
        activity.touch()  // the pong
        loop.advanceTime(by: .seconds(1))
        #expect(!outbox.isClosing)
    }

    /// While the server holds back reads (its session has messages in hand), the pong may
    /// be waiting unread: the peer is not cut off for the server's own backlog. Once reads
    /// start again, a peer that stays silent is cut off as usual.
    @Test func silenceWhileTheServerHoldsBackReadsIsNotThePeers() {
        let timers = timers()
        defer { timers.cancel() }
        activity.touch()
        activity.holdReads(true)
        loop.advanceTime(by: .seconds(1))  // the ping
        loop.advanceTime(by: .seconds(1))  // its timeout, while reads are held
        #expect(!outbox.isClosing, "the server's backlog is not the peer's silence")
        loop.advanceTime(by: .seconds(3))  // more pings and timeouts, still held
        #expect(!outbox.isClosing)
        activity.holdReads(false)  // reading again: counts as activity
        loop.advanceTime(by: .seconds(1))  // the next ping, then silence
        loop.advanceTime(by: .seconds(1))
        #expect(outbox.isClosing)
    }
}
