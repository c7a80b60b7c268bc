import Canvas
import DrawProtocol
import Foundation
import PostgresNIO
import Rooms
import ServerTestSupport
import Synchronization
import Testing
@testable import DrawServer

extension PostgresStoreTests {
    /// The store's deadlines on a test's clock: cut off from the database (a frozen relay:
    /// its calls hang), a running store reports the stalled commit once `stalledCommit`
    /// has passed on its clock and gives its room up when the lease's validity has, never
    /// before, though every renewal hangs; healed, it writes what it held and releases the
    /// room. No real time is waited out: the 2 s and 2.5 s pass on a `ManualServerClock`.
    @Test func aCutOffStoreKeepsItsDeadlinesOnItsClock() async throws {
        let url = try await TestPostgres.freshDatabase()
        let link = try await TestBalancer(nodes: [("postgres", url.port)])
        var viaLink = url
        viaLink.host = "127.0.0.1"
        viaLink.port = link.port
        let clock = ManualServerClock()
        let configuration = PostgresGameStore.Configuration()
        let shared = try await PostgresGameStore.open(
            url: viaLink, nodeID: "cut", configuration: configuration, clock: ServerClock(clock), logger: logger
        )
        let store = WrittenStore(shared)
        let lost = LostRooms(of: store)
        let cluster = Task { try await shared.run() }
        var room = StrokeStorageTests.drawingRoom("PGCLCK")
        let at = Timestamp(milliseconds: 1_000)
        store.roomChanged(room.snapshot(now: at))
        await store.commitPending()
        #expect(shared.keeper.withLock { $0.epoch(of: room.code) } == 1)

        link.freeze()
        _ = room.handle(.chat("held while cut off"), from: PlayerID("ada"), now: at + 10)
        store.roomChanged(room.snapshot(now: at + 10))
        // The batch is taken (its commit now hangs): the watchdog counts from here.
        try await waitUntil { store.writer.waitingCount == 0 }
        clock.advance(by: configuration.stalledCommit - .milliseconds(1))
        try await Task.sleep(for: .milliseconds(100))
        #expect(store.writer.storageReport.fault == nil, "not reported before its deadline")
        clock.advance(by: .milliseconds(1))
        try await waitUntil { store.writer.storageReport.fault != nil }

        // The lease, taken at 0 on the store's clock, is valid until 2.5 s (3 s less the
        // margin); its renewals (due from 1 s) hang. Stepped one lease tick at a time, each
        // step ticked here too: the store's own ticks run on the cooperative pool, which a
        // loaded machine could run late, after the test had moved the clock further (it once
        // saw the loss at 4 s). The keeper marks the lease lost in the tick itself.
        var lostAt: Duration?
        while lostAt == nil, clock.now < configuration.leases.duration + .seconds(2) {
            clock.advance(by: configuration.leaseTick)
            store.tickLeases()
            if shared.keeper.withLock({ $0.isLost(room.code) }) { lostAt = clock.now }
        }
        let when = try #require(lostAt)
        #expect(when >= configuration.leases.validity, "never before the lease's validity ran out")
        #expect(when <= configuration.leases.duration, "before the store's expiry")
        try await waitUntil { !lost.rooms.isEmpty }
        #expect(lost.rooms == [room.code])

        // Healed: what it held is written under its epoch, and the room is released.
        link.thaw()
        try await waitUntil(seconds: 20) {
            // The writer retries what it holds on its clock.
            clock.advance(by: .milliseconds(100))
            return try await TestPostgres.integer(url, "SELECT COUNT(*) FROM room_leases WHERE code = 'PGCLCK' AND expires_at < now()") == 1
        }
        #expect(store.writer.storageReport.fault == nil, "the fault cleared once the held batch went in")
        #expect(store.pendingCount == 0)
        #expect(try await TestPostgres.integer(url, "SELECT epoch FROM room WHERE code = 'PGCLCK'") == 1)
        await store.close()
        cluster.cancel()
        _ = await cluster.result
        // Wake the sleeps still waiting on the test's clock (the lease tick, watchdogs).
        clock.advance(by: .seconds(10))
        await link.shutdown()
    }

    /// Every writer iteration arms a stalled-commit watchdog on the store's clock; one that
    /// ends in time calls it off, so they do not pile up (a sleep per iteration outlived
    /// its cancel by `stalledCommit`: about 27 pending at the 75 ms cadence). Counted on a
    /// clock that knows which of its timers are still live; none is waited out.
    @Test func finishedIterationsLeaveNoWatchdogPending() async throws {
        let url = try await TestPostgres.freshDatabase()
        let manual = ManualServerClock()
        let live = LiveTimers()
        let shared = try await PostgresGameStore.open(url: url, nodeID: "calm", clock: live.clock(over: ServerClock(manual)), logger: logger)
        let store = WrittenStore(shared)
        let cluster = Task { try await shared.run() }
        for round in 0..<20 {
            store.playerChanged(PlayerRecord(id: PlayerID("ada"), name: "Ada \(round)", tokenHash: "hash-ada", lastSeen: Timestamp(milliseconds: Int64(round))))
            await store.commitPending()
        }
        #expect(store.statistics.commits >= 20)
        // The lease tick's sleep and the directory loop's, and at most a call under way:
        // a commit's watchdog and its wait for a connection (`StoreConnections`).
        #expect(live.count <= 4, "\(live.count) timers still live after 20 commits")
        await store.close()
        cluster.cancel()
        _ = await cluster.result
        manual.advance(by: .seconds(10))
    }

    /// A call waits for a connection at most the store's connection patience, on the
    /// store's clock, and then fails: with the database's link shut, the pool backs off
    /// between refused connections and would keep the call queued for a minute.
    @Test func aCallWaitsForAConnectionOnlyAsLongAsThePatience() async throws {
        let url = try await TestPostgres.freshDatabase()
        let link = try await TestBalancer(nodes: [("postgres", url.port)])
        var viaLink = url
        viaLink.host = "127.0.0.1"
        viaLink.port = link.port
        let manual = ManualServerClock()
        let configuration = PostgresGameStore.Configuration()
        let store = try await PostgresGameStore.open(url: viaLink, nodeID: "patient", configuration: configuration, clock: ServerClock(manual), logger: logger)
        await link.shutdown()
        let ended = Once()
        let call = Task {
            defer { _ = ended.first() }
            try await store.client.execute("SELECT 1", logger: logger)
        }
        // The call's deadline is armed (nothing else runs on this clock: the store's loop
        // is not started).
        try await waitUntil { manual.pending == 1 }
        manual.advance(by: configuration.connectionPatience - .milliseconds(1))
        try await Task.sleep(for: .milliseconds(100))
        #expect(ended.first(), "still waiting before its deadline")
        manual.advance(by: .milliseconds(1))
        let outcome = await call.result
        #expect(throws: ConnectionWaitExpired.self) { try outcome.get() }
        await store.close()
    }
}

/// Counts the off-loop timers of a `ServerClock` that are armed and neither fired nor cancelled.
private final class LiveTimers: Sendable {
    private let live = Mutex(0)
    var count: Int { live.withLock { $0 } }

    func clock(over base: ServerClock) -> ServerClock {
        ServerClock(
            base,
            wakeOffLoop: { [self] delay, body in
                live.withLock { $0 += 1 }
                base.wakeOffLoop(delay) {
                    self.live.withLock { $0 -= 1 }
                    body()
                }
            },
            schedule: { [self] delay, body in
                let once = Once()
                let end: @Sendable () -> Bool = {
                    guard once.first() else { return false }
                    self.live.withLock { $0 -= 1 }
                    return true
                }
                live.withLock { $0 += 1 }
                let timer = base.schedule(delay) { if end() { body() } }
                return ClockTimer {
                    _ = end()
                    timer.cancel()
                }
            }
        )
    }
}

/// True the first time only.
private final class Once: Sendable {
    private let done = Mutex(false)
    func first() -> Bool { done.withLock { d in defer { d = true }; return !d } }
}
