import Foundation
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
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

    func run() async throws -> ReplaySummary {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let loops = Array(group.makeIterator())
        let contexts = loops.map { LoopContext(eventLoop: $0, url: plan.url, concurrency: plan.connectConcurrency) }
        var roomList: [ReplayRoom] = []
        for index in 0..<rooms {
            let context = contexts[index % contexts.count]
            let count = idleTotal.map { min(100, $0 - index * 100) } ?? plan.players
            roomList.append(ReplayRoom(index: index, plan: plan, context: context, clients: count))
        }
        let start = ContinuousClock.now
        for (index, room) in roomList.enumerated() {
            let delay = rooms > 1 ? ramp * Double(index) / Double(rooms) : 0
            room.eventLoop.scheduleTask(in: .nanoseconds(Int64(delay * 1e9))) { room.start() }
        }

        let windowStart = min(ramp + warmup, duration / 2)
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
        var sendLag = LatencyHistogram()
        for context in contexts {
            let (c, l, s) = try await context.eventLoop.submit { (context.counters, context.latency, context.sendLag) }.get()
            counters.add(c)
            latency.add(l)
            sendLag.add(s)
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
            clientCPU: cpu, cores: cores, threads: threads, server: server
        )
        if let idleTotal {
            summary.idleConnections = counters.welcomed
            summary.logs = []
            if counters.welcomed < idleTotal { summary.warnings.append("only \(counters.welcomed) of \(idleTotal) idle connections were welcomed") }
        }
        return summary
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
