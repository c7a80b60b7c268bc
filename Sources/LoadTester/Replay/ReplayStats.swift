import Foundation
import Histogram

/// Counts kept by one event loop of the replay client (no locks: only that loop touches
/// them); merged into one at the end.
struct ReplayCounters: Sendable, Codable, Equatable {
    var framesSent = 0
    var opsSent = 0
    /// Operations a guesser should have received (the ledgers of the turns it watched).
    var opsExpected = 0
    /// Operations matched to what a drawer sent (in order or late).
    var opsDelivered = 0
    var opsLost = 0
    var opsOutOfOrder = 0
    var opsDuplicated = 0
    var opsUnexpected = 0
    var framesReceived = 0
    var bytesReceived = 0
    /// Frames `FrameCodec.validate` refused (a relay that corrupts or reorders within a stroke).
    var framesInvalid = 0
    /// Delivered operations and received frames inside the measuring window.
    var windowOpsDelivered = 0
    var windowFramesReceived = 0
    var windowOpsSent = 0
    var connectionsOpened = 0
    var connectErrors = 0
    /// Connections the server closed (or that failed) while the run was still going.
    var unexpectedCloses = 0
    /// `error` messages from the server, by code.
    var serverErrors: [String: Int] = [:]
    /// Close codes of unexpected closes.
    var closeCodes: [String: Int] = [:]
    /// Turns ended, by `turnEnd` reason (counted once per room, by its drawer).
    var turnsEnded: [String: Int] = [:]
    var gamesEnded = 0
    /// Guessers that guessed after a timeout instead of after the last operation arrived.
    var guessFallbacks = 0
    /// Idle mode: connections that got their `welcome`.
    var welcomed = 0
    /// `create`/`join` refused with `server_busy` and sent again after `retryAfterMs`.
    var busyRetries = 0
    /// `--reconnect`: operations of the canvas the server replays after a resume (compacted,
    /// so not matched to what was sent; the turn's unreceived operations stay lost).
    var opsResynced = 0
    /// `redirect` messages followed (the room runs on another node of a shared store).
    var redirects = 0
    /// `--kernel-receive`: reads timed by the kernel's receive stamp, and reads that had none
    /// (timed when read, as without the flag).
    var kernelStampedReads = 0
    var unstampedReads = 0

    mutating func add(_ other: ReplayCounters) {
        kernelStampedReads += other.kernelStampedReads
        unstampedReads += other.unstampedReads
        framesSent += other.framesSent
        opsSent += other.opsSent
        opsExpected += other.opsExpected
        opsDelivered += other.opsDelivered
        opsLost += other.opsLost
        opsOutOfOrder += other.opsOutOfOrder
        opsDuplicated += other.opsDuplicated
        opsUnexpected += other.opsUnexpected
        framesReceived += other.framesReceived
        bytesReceived += other.bytesReceived
        framesInvalid += other.framesInvalid
        windowOpsDelivered += other.windowOpsDelivered
        windowFramesReceived += other.windowFramesReceived
        windowOpsSent += other.windowOpsSent
        connectionsOpened += other.connectionsOpened
        connectErrors += other.connectErrors
        unexpectedCloses += other.unexpectedCloses
        serverErrors.merge(other.serverErrors, uniquingKeysWith: +)
        closeCodes.merge(other.closeCodes, uniquingKeysWith: +)
        turnsEnded.merge(other.turnsEnded, uniquingKeysWith: +)
        gamesEnded += other.gamesEnded
        guessFallbacks += other.guessFallbacks
        welcomed += other.welcomed
        busyRetries += other.busyRetries
        opsResynced += other.opsResynced
        redirects += other.redirects
    }

    /// Adds a finished turn of one guesser.
    mutating func add(turn matcher: OpMatcher, expected: Int) {
        opsExpected += expected
        opsLost += matcher.lost
        opsOutOfOrder += matcher.outOfOrder
        opsDuplicated += matcher.duplicates
        opsUnexpected += matcher.unexpected
    }
}

/// Latencies in microseconds, in an HDR histogram (3 significant digits, up to an hour).
struct LatencyHistogram: Sendable {
    private(set) var histogram = Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)

    init() {}

    mutating func record(microseconds: UInt64) {
        _ = histogram.record(max(1, microseconds))
    }

    mutating func add(_ other: LatencyHistogram) { histogram.add(other.histogram) }
    mutating func reset() { histogram.reset() }

    var count: UInt64 { histogram.totalCount }

    /// Milliseconds at a percentile (0...100); 0 when empty.
    func milliseconds(at percentile: Double) -> Double {
        guard histogram.totalCount > 0 else { return 0 }
        return Double(histogram.valueAtPercentile(percentile)) / 1000
    }

    var maxMilliseconds: Double { histogram.totalCount > 0 ? Double(histogram.max) / 1000 : 0 }
    var meanMilliseconds: Double { histogram.totalCount > 0 ? histogram.mean / 1000 : 0 }

    var percentiles: ReplaySummary.Percentiles {
        ReplaySummary.Percentiles(
            samples: Int(count), p50: milliseconds(at: 50), p90: milliseconds(at: 90), p99: milliseconds(at: 99),
            p999: milliseconds(at: 99.9), max: maxMilliseconds, mean: meanMilliseconds
        )
    }
}

/// The result of a replay run, as printed and as written by `--json`.
struct ReplaySummary: Codable, Sendable, Equatable {
    struct Percentiles: Codable, Sendable, Equatable {
        var samples: Int
        var p50: Double
        var p90: Double
        var p99: Double
        var p999: Double
        var max: Double
        var mean: Double
    }

    struct Delivery: Codable, Sendable, Equatable {
        var expected: Int
        var delivered: Int
        /// delivered / expected (0 when nothing was expected: 0 of 0 is no success).
        var ratio: Double
        var lost: Int
        var outOfOrder: Int
        var duplicated: Int
        var unexpected: Int
        var invalidFrames: Int
        /// Operations of canvases replayed after a resume (`--reconnect`).
        var resyncedAfterOutage = 0
    }

    struct Client: Codable, Sendable, Equatable {
        var cpuSeconds: Double
        /// CPU over the window as a percentage of one core.
        var cpuPercentOfOneCore: Double
        /// Cores this process may run on (its CPU affinity).
        var cores: Int
        var threads: Int
        /// How late the drawers' frames went out compared with the log's schedule.
        var sendLagMs: Percentiles
        var bottleneck: Bool
        /// `--kernel-receive`: reads whose frames were timed by the kernel's receive stamp,
        /// and reads timed when read (no stamp). Nil without the flag (all timed when read).
        var kernelStampedReads: Int? = nil
        var unstampedReads: Int? = nil
    }

    struct Server: Codable, Sendable, Equatable {
        var pid: Int32
        var cpuSeconds: Double
        var cpuPercentOfOneCore: Double
        var cpuSecondsPerMillionDeliveries: Double
        var rssKBStart: Int
        var rssKBEnd: Int
    }

    /// `--connect-first`: what the connect phase achieved before the barrier was released.
    struct ConnectPhase: Codable, Sendable, Equatable {
        /// From the first connection attempt to the release of the barrier.
        var seconds: Double
        /// Connections open (upgraded and not closed) when the barrier was released.
        var connectionsEstablished: Int
        var connectionsPlanned: Int
        /// Rooms whose every seat had joined when the barrier was released.
        var roomsComplete: Int
        var roomsPlanned: Int
        /// `create`/`join` refused with `server_busy`, waited out and sent again.
        var busyRetries: Int
        var connectErrors: Int
        /// True when the barrier was released by `--connect-timeout`, not by a full house.
        var timedOut: Bool
    }

    /// `--reconnect`: the clients' outages that overlapped in time, as one event each.
    struct Outage: Codable, Sendable, Equatable {
        /// When the first client lost its connection, from the start of the run.
        var atSeconds: Double
        var clients: Int
        /// Clients the server welcomed back with `resumed:true`.
        var recovered: Int
        /// Clients whose token the server no longer knew (a new player: the seat is lost).
        var refused: Int
        /// From a client's close to its resumed `welcome`, over the recovered clients.
        var reconnectMsP50: Double
        var reconnectMsMax: Double
        /// The 99th percentile (nearest rank) of the same.
        var reconnectMsP99: Double = 0
        /// Operations the affected clients never received in the turns the outage cut.
        var opsLost: Int
        var attempts: Int
        var closeCodes: [String: Int]
        /// Clients that were back in their room (`room` after the resumed `welcome`), and
        /// when, from the event's first close; nil in runs that did not see it.
        var backInRoom: Int? = nil
        var roomMsP50: Double? = nil
        var roomMsP99: Double? = nil
        var roomMsMax: Double? = nil
        /// `[seconds, clients back in their room]` every 100 ms.
        var curve: [[Double]]? = nil
    }

    var tool = "drawserver replay"
    var url: String
    var mode: String
    var rooms: Int
    var players: Int
    var speed: Double
    var logs: [String]
    var durationSeconds: Double
    /// The measured part of the run: after the ramp and warm-up, until the drawers stop.
    var windowSeconds: Double
    var connectionsOpened: Int
    var connectErrors: Int
    var unexpectedCloses: Int
    var closeCodes: [String: Int]
    var opsSentPerSecond: Double
    /// Operation deliveries (one operation reaching one guesser) per second in the window.
    var opsDeliveredPerSecond: Double
    var framesReceivedPerSecond: Double
    var latencyMs: Percentiles
    /// `--kernel-receive`: the latencies of the frames whose kernel stamp is their own, the
    /// frames that ended their read. A read that takes several of the server's sends is
    /// stamped with the newest, so the frames before it in that read count late in
    /// `latencyMs` (an upper bound); this subset has no such frame.
    var latencyExactMs: Percentiles? = nil
    var delivery: Delivery
    var serverErrors: [String: Int]
    var turnsEnded: [String: Int]
    var gamesEnded: Int
    var guessFallbacks: Int
    var client: Client
    var server: Server?
    var idleConnections: Int?
    var warnings: [String]
    var connectPhase: ConnectPhase? = nil
    /// `--reconnect`: every outage, nil without the flag.
    var outages: [Outage]? = nil
    /// `server_busy` refusals of `create`/`join` retried over the whole run.
    var busyRetries = 0
    /// `redirect` messages followed over the whole run: a join, or a resume, that reached a
    /// node that does not run the room (several nodes on one store).
    var redirects = 0

    /// Derives the figures from merged counters (pure, so it is unit-tested).
    static func make(
        url: String, mode: String, rooms: Int, players: Int, speed: Double, logs: [String],
        duration: Double, window: Double, counters c: ReplayCounters, latency: LatencyHistogram,
        sendLag: LatencyHistogram, clientCPU: Double, cores: Int, threads: Int, server: Server?, kernelReceive: Bool = false
    ) -> ReplaySummary {
        let seconds = max(window, 1e-9)
        let cpuPercent = clientCPU / seconds * 100
        let usable = Double(max(1, min(cores, threads)))
        let lag = sendLag.percentiles
        // The client is the bottleneck when it burns most of the cores it may use, or
        // when its own timers fire late (the load it offers is then below the log's).
        let bottleneck = cpuPercent > 85 * usable || lag.p99 > 20
        var warnings: [String] = []
        // A connection's first bytes may come before its stamps were switched on; more
        // than that means the kernel is not stamping and the latencies are read times.
        if c.unstampedReads * 100 > c.unstampedReads + c.kernelStampedReads {
            warnings.append("\(c.unstampedReads) of \(c.unstampedReads + c.kernelStampedReads) read(s) had no kernel receive stamp and were timed when read")
        }
        if bottleneck {
            warnings.append(String(
                format: "the client itself may be the bottleneck: %.0f%% CPU of %.0f usable core(s), send lag p99 %.1f ms; treat the latencies as upper bounds",
                cpuPercent, usable, lag.p99))
        }
        if c.connectErrors > 0 { warnings.append("\(c.connectErrors) connection(s) could not be opened") }
        if c.opsLost > 0 { warnings.append("\(c.opsLost) operation(s) lost") }
        if c.opsUnexpected > 0 {
            warnings.append("\(c.opsUnexpected) operation(s) received that no drawer sent to that client (does the server echo a drawer's frames back to it?)")
        }
        let ratio = c.opsExpected == 0 ? 0 : Double(c.opsDelivered) / Double(c.opsExpected)
        return ReplaySummary(
            url: url, mode: mode, rooms: rooms, players: players, speed: speed, logs: logs,
            durationSeconds: duration, windowSeconds: window,
            connectionsOpened: c.connectionsOpened, connectErrors: c.connectErrors,
            unexpectedCloses: c.unexpectedCloses, closeCodes: c.closeCodes,
            opsSentPerSecond: Double(c.windowOpsSent) / seconds,
            opsDeliveredPerSecond: Double(c.windowOpsDelivered) / seconds,
            framesReceivedPerSecond: Double(c.windowFramesReceived) / seconds,
            latencyMs: latency.percentiles,
            delivery: Delivery(
                expected: c.opsExpected, delivered: c.opsDelivered, ratio: ratio, lost: c.opsLost,
                outOfOrder: c.opsOutOfOrder, duplicated: c.opsDuplicated, unexpected: c.opsUnexpected,
                invalidFrames: c.framesInvalid, resyncedAfterOutage: c.opsResynced
            ),
            serverErrors: c.serverErrors, turnsEnded: c.turnsEnded, gamesEnded: c.gamesEnded,
            guessFallbacks: c.guessFallbacks,
            client: Client(cpuSeconds: clientCPU, cpuPercentOfOneCore: cpuPercent, cores: cores, threads: threads, sendLagMs: lag, bottleneck: bottleneck,
                           kernelStampedReads: kernelReceive ? c.kernelStampedReads : nil, unstampedReads: kernelReceive ? c.unstampedReads : nil),
            server: server, idleConnections: nil, warnings: warnings, busyRetries: c.busyRetries,
            redirects: c.redirects
        )
    }
}
