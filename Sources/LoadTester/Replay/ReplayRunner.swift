import Foundation
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
import ProcessStats
#endif

/// Runs a load or idle replay: opens the rooms on a shared event-loop group (each room
/// on one loop), measures a window, stops the drawers, drains, closes and sums up.
struct ReplayRunner {
    let plan: ReplayPlan
    let rooms: Int
    let idleTotal: Int?
    let threads: Int
    let cores: Int
    let speed: Double
    let duration: Double
    let ramp: Double
    let warmup: Double
    let drain: Double
    let serverPID: Int32?
    let progress: Bool
    /// `--connect-first`: the longest the connect phase may take before the barrier is
    /// released anyway.
    var connectTimeout: Double = 120

    func run() async throws -> ReplaySummary {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let loops = Array(group.makeIterator())
        let contexts = loops.map { LoopContext(eventLoop: $0, url: plan.url, concurrency: plan.connectConcurrency, kernelReceive: plan.kernelReceive, receiveInterval: .nanoseconds(plan.receiveIntervalNanoseconds)) }
        var roomList: [ReplayRoom] = []
        for index in 0..<rooms {
            let context = contexts[index % contexts.count]
            let count = idleTotal.map { min(100, $0 - index * 100) } ?? plan.players
            roomList.append(ReplayRoom(index: index, plan: plan, context: context, clients: count))
        }
        let opened = ContinuousClock.now
        let openedUptime = NIODeadline.now().uptimeNanoseconds
        for (index, room) in roomList.enumerated() {
            let delay = rooms > 1 ? ramp * Double(index) / Double(rooms) : 0
            room.eventLoop.scheduleTask(in: .nanoseconds(Int64(delay * 1e9))) { room.start() }
        }

        // With a connect phase the run's clock starts at the barrier: the ramp is behind us.
        var connectPhase: ReplaySummary.ConnectPhase?
        var start = opened
        if plan.connectFirst {
            connectPhase = try await connectAll(roomList, contexts: contexts, since: opened)
            try await release(roomList, contexts: contexts)
            start = ContinuousClock.now
        }
        let windowStart = plan.connectFirst ? min(warmup, duration / 2) : min(ramp + warmup, duration / 2)
        try await sleep(until: start + .seconds(windowStart), contexts: contexts, start: start)
        for context in contexts { try await context.eventLoop.submit { context.measuring = true }.get() }
        let cpuStart = ProcessCPU.seconds
        let serverStart = serverPID.map { (ProcStat.cpuSeconds(pid: $0) ?? 0, ProcStat.residentKB(pid: $0) ?? 0) }
        let measuredFrom = ContinuousClock.now

        try await sleep(until: start + .seconds(duration), contexts: contexts, start: start)
        // The window ends when the drawers stop.
        for context in contexts { try await context.eventLoop.submit { context.measuring = false }.get() }
        let window = (ContinuousClock.now - measuredFrom).seconds
        let cpu = ProcessCPU.seconds - cpuStart
        let serverEnd = serverPID.map { (ProcStat.cpuSeconds(pid: $0) ?? 0, ProcStat.residentKB(pid: $0) ?? 0) }
        for room in roomList { try await room.eventLoop.submit { room.stop() }.get() }
        if progress { print("") }

        // Let what is in flight arrive before closing the books.
        let drainUntil = ContinuousClock.now + .seconds(drain)
        while ContinuousClock.now < drainUntil {
            var caughtUp = true
            for room in roomList where !(try await room.eventLoop.submit { room.caughtUp }.get()) {
                caughtUp = false
                break
            }
            if caughtUp { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        for context in contexts { try await context.eventLoop.submit { context.stopping = true }.get() }
        for room in roomList { try await room.eventLoop.submit { room.finish() }.get() }
        try await Task.sleep(for: .milliseconds(200))

        var counters = ReplayCounters()
        var latency = LatencyHistogram()
        var latencyExact = LatencyHistogram()
        var sendLag = LatencyHistogram()
        var outages: [ReplayOutage] = []
        for context in contexts {
            let (c, l, s, o) = try await context.eventLoop.submit { (context.countersWithReads, context.latency, context.sendLag, context.outages) }.get()
            latencyExact.add(try await context.eventLoop.submit { context.latencyExact }.get())
            counters.add(c)
            latency.add(l)
            sendLag.add(s)
            outages += o
        }
        try await group.shutdownGracefully()

        var server: ReplaySummary.Server?
        if let serverPID, let serverStart, let serverEnd {
            let serverCPU = serverEnd.0 - serverStart.0
            server = ReplaySummary.Server(
                pid: serverPID, cpuSeconds: serverCPU, cpuPercentOfOneCore: serverCPU / max(window, 1e-9) * 100,
                cpuSecondsPerMillionDeliveries: counters.windowOpsDelivered > 0 ? serverCPU / Double(counters.windowOpsDelivered) * 1e6 : 0,
                rssKBStart: serverStart.1, rssKBEnd: serverEnd.1
            )
        }
        var summary = ReplaySummary.make(
            url: "", mode: idleTotal == nil ? "load" : "idle", rooms: idleTotal == nil ? rooms : 0,
            players: idleTotal == nil ? plan.players : 0, speed: speed, logs: plan.logs.map(\.name),
            duration: duration, window: window, counters: counters, latency: latency, sendLag: sendLag,
            clientCPU: cpu, cores: cores, threads: threads, server: server, kernelReceive: plan.kernelReceive
        )
        summary.connectPhase = connectPhase
        if plan.kernelReceive { summary.latencyExactMs = latencyExact.percentiles }
        if plan.reconnect {
            let events = ReplayOutage.events(outages, runStart: openedUptime)
            summary.outages = events
            let lost = events.reduce(0) { $0 + $1.clients - $1.recovered }
            if lost > 0 { summary.warnings.append("\(lost) client(s) did not come back after an outage") }
        }
        if let connectPhase {
            if connectPhase.roomsComplete < connectPhase.roomsPlanned {
                summary.warnings.append("the barrier was released with \(connectPhase.roomsComplete) of \(connectPhase.roomsPlanned) rooms complete (\(connectPhase.connectionsEstablished) of \(connectPhase.connectionsPlanned) connections)")
            }
            if connectPhase.busyRetries > 0 {
                summary.warnings.append("\(connectPhase.busyRetries) create/join refused with server_busy during the connect phase (retried)")
            }
        }
        if let idleTotal {
            summary.idleConnections = counters.welcomed
            summary.logs = []
            if counters.welcomed < idleTotal { summary.warnings.append("only \(counters.welcomed) of \(idleTotal) idle connections were welcomed") }
        }
        return summary
    }

    /// The connect phase: waits until every seat of every room has joined (or the
    /// timeout), and says what it got.
    private func connectAll(_ roomList: [ReplayRoom], contexts: [LoopContext], since opened: ContinuousClock.Instant) async throws -> ReplaySummary.ConnectPhase {
        let deadline = opened + .seconds(connectTimeout)
        var seated = 0
        while true {
            seated = 0
            for context in contexts { seated += try await context.eventLoop.submit { context.roomsSeated }.get() }
            if seated >= roomList.count || ContinuousClock.now >= deadline { break }
            if progress {
                var open = 0
                for context in contexts { open += try await context.eventLoop.submit { context.openConnections }.get() }
                let line = String(format: "\r[%5.1fs] connect phase: %d connections, %d of %d rooms complete  ",
                                  (ContinuousClock.now - opened).seconds, open, seated, roomList.count)
                FileHandle.standardOutput.write(Data(line.utf8))
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        var counters = ReplayCounters()
        var open = 0
        for context in contexts {
            let (c, o) = try await context.eventLoop.submit { (context.counters, context.openConnections) }.get()
            counters.add(c)
            open += o
        }
        if progress { print("") }
        return ReplaySummary.ConnectPhase(
            seconds: (ContinuousClock.now - opened).seconds, connectionsEstablished: open,
            connectionsPlanned: roomList.count * plan.players, roomsComplete: seated, roomsPlanned: roomList.count,
            busyRetries: counters.busyRetries, connectErrors: counters.connectErrors,
            timedOut: seated < roomList.count
        )
    }

    /// The barrier: every loop releases all of its rooms at once, the loops together.
    private func release(_ roomList: [ReplayRoom], contexts: [LoopContext]) async throws {
        let releases = contexts.map { context in
            let mine = roomList.filter { $0.context === context }
            return context.eventLoop.submit { for room in mine { room.release() } }
        }
        for release in releases { try await release.get() }
    }

    /// Sleeps until `deadline`, printing the progress line every second on a terminal.
    private func sleep(until deadline: ContinuousClock.Instant, contexts: [LoopContext], start: ContinuousClock.Instant) async throws {
        while ContinuousClock.now < deadline {
            let next = min(deadline, ContinuousClock.now + .seconds(1))
            try await Task.sleep(until: next, clock: .continuous)
            guard progress else { continue }
            var counters = ReplayCounters()
            var interval = LatencyHistogram()
            var open = 0
            for context in contexts {
                let (c, h, o) = try await context.eventLoop.submit { context.takeInterval() }.get()
                counters.add(c)
                interval.add(h)
                open += o
            }
            let line = String(
                format: "\r[%5.1fs] conns %d  delivered %@  last 1 s: %@ ops, p99 %.1f ms  lost %d  errors %d  ",
                (ContinuousClock.now - start).seconds, open, ReplaySummary.grouped(Double(counters.opsDelivered)),
                ReplaySummary.grouped(Double(interval.count)), interval.milliseconds(at: 99),
                counters.opsLost, counters.connectErrors + counters.unexpectedCloses + counters.serverErrors.values.reduce(0, +)
            )
            FileHandle.standardOutput.write(Data(line.utf8))
        }
    }

    /// Raises the soft open-files limit to the hard limit (thousands of sockets).
    static func raiseFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
