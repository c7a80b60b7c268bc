import ArgumentParser
import Canvas
import DrawProtocol
import Foundation
import NIOCore
import NIOPosix
import ProcessStats
import Rooms

/// `drawserver replay`: a load tester that plays the real game with many clients while
/// drawers replay stroke logs, and measures what the guessers receive.
package struct ReplayCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay stroke logs against a server with many real clients and measure delivery and latency.",
        discussion: """
        Load: R rooms of P clients each play the real game (hello, create/join by code, ready, \
        choose); each room's drawer replays a stroke log frame by frame at the log's timing \
        divided by --speed, looping over the logs (one pass per turn); guessers count and time \
        every operation and guess the word once the pass has arrived, so turns end with \
        allGuessed and games go on. Prints a progress line every second on a terminal and a \
        summary at the end; --json writes the summary for machines.

        Against a drawserver on loopback every client comes from one address: start it with \
        --max-connections-per-ip 0 (no per-address cap) and a generous --ip-room-rate \
        (e.g. 100000/1s), or connections and room creations are refused.

        Other modes: --idle N (N connections that only say hello, for memory per connection), \
        --record --room CODE -o FILE (record a turn as a stroke log), \
        --generate-log SEED -o FILE (write a sample stroke log).
        """
    )

    @Option(help: "Server WebSocket URL, ws://HOST:PORT/ws; with several nodes, the balancer's (a `redirect` is followed there).")
    var url: String?
    @Option(name: .customLong("log"), help: "Stroke log to replay (repeatable; rooms cycle through them). Default: the built-in sample drawing (seed 1).")
    var logs: [String] = []
    @Option(help: "Rooms to open.")
    var rooms = 1
    @Option(help: "Players per room (2 to 50), one of them drawing.")
    var players = 4
    @Option(help: "Replay speed: the log's timing is divided by this.")
    var speed = 1.0
    @Option(help: "How long the run lasts (ramp and warm-up included), at most 1h: 30s, 500ms, 2m (a bare number is seconds).", transform: Self.seconds)
    var duration = 10.0
    @Option(help: "Seconds over which the rooms are opened.", transform: Self.seconds)
    var ramp = 0.0
    @Option(help: "Seconds after the ramp before measuring starts (capped at half the duration).", transform: Self.seconds)
    var warmup = 2.0
    @Option(help: "Seconds to wait after the drawers stop for operations still in flight.", transform: Self.seconds)
    var drain = 3.0
    @Option(help: "Lowest delivery ratio that counts as success (exit status 5 below it; 3 when a connection failed, 4 when nothing was delivered).")
    var minRatio = ReplayVerdict.defaultMinimumRatio
    @Option(help: "Write the summary as JSON to this file.")
    var json: String?
    @Flag(help: "No progress line and no summary table.")
    var quiet = false
    @Option(help: "Event-loop threads (default: the cores this process may use).")
    var threads: Int?
    @Option(help: "Upper bound on connections, as a safety limit.")
    var maxConnections = 20_000
    @Option(help: "Rounds per game (1 to 10).")
    var rounds = 3
    @Option(help: "Drawing time per turn in seconds (30 to 240; default: the longest pass plus 10 s).")
    var drawTime: Int?
    @Option(help: "PID of the server, to report its CPU (from /proc/PID/stat) and memory (VmRSS) over the window.")
    var serverPid: Int32?
    @Flag(help: "Open and join every connection (all rooms, all seats) first, then start drawing in all rooms together; --duration counts from that barrier. server_busy refusals are waited out and retried.")
    var connectFirst = false
    @Option(help: "With --connect-first: seconds the connect phase may take before the barrier is released anyway (the run then fails).", transform: Self.seconds)
    var connectTimeout = 120.0
    @Flag(help: "When the server closes a connection (1012, 4008...), resets it or disappears, open it again and resume with the token; each outage is reported (time to reconnect, operations lost).")
    var reconnect = false
    @Option(help: "With --reconnect: seconds a client keeps trying before its outage counts as a failure.", transform: Self.seconds)
    var reconnectTimeout = 60.0
    @Flag(help: "Read every connection with recvmsg and time each frame by the kernel's receive timestamp (SO_TIMESTAMPNS), not by when this busy process got to it; cheaper per delivery too. benchmarks/run.sh passes it.")
    var kernelReceive = false
    @Option(help: "With --kernel-receive: how often each loop reads its sockets (default 0.2ms). A read is stamped with its newest packet, so earlier frames in it read late by up to this.", transform: Self.milliseconds)
    var receiveInterval = 0.2
    @Option(help: "Idle mode: open this many connections that only say hello, hold them for the duration.")
    var idle: Int?

    @Flag(help: "Record mode: join --room as a spectator and write the next turn's frames as a stroke log to -o.")
    var record = false
    @Option(help: "Record mode: the room code to join.")
    var room: String?
    @Option(name: [.short, .customLong("output")], help: "Record and generate modes: the stroke log to write.")
    var output: String?

    @Option(help: "Generate mode: write SampleDrawing.make(seed:) as a stroke log to -o.")
    var generateLog: UInt64?
    @Option(
        name: [.customLong("interval"), .customLong("interval-ms")],
        help: "Generate mode: re-time frames to one every interval, e.g. 16.667ms for 60 frames per second (pauses removed); a bare number is in ms.",
        transform: Self.milliseconds
    )
    var intervalMs: Double?
    @Option(help: "Generate mode: keep at most this many frames (cut where no stroke is open).")
    var frames: Int?

    /// Duration flags are written as everywhere (`30s`, `500ms`, `2m`); a bare number is
    /// seconds, as these flags always took.
    static func seconds(_ text: String) throws -> Double {
        guard let value = DurationText.parse(text, bareUnit: .seconds) else {
            throw ValidationError("a duration is a number and a unit, such as 500ms, 30s or 2m; not \(text)")
        }
        return Double(value.components.seconds) + Double(value.components.attoseconds) / 1e18
    }

    /// The same, in milliseconds, for a flag whose older spelling carries `-ms`: a bare
    /// number is milliseconds.
    static func milliseconds(_ text: String) throws -> Double {
        guard let value = DurationText.parse(text, bareUnit: .milliseconds) else {
            throw ValidationError("a duration is a number and a unit, such as 16.667ms or 1s; not \(text)")
        }
        return (Double(value.components.seconds) + Double(value.components.attoseconds) / 1e18) * 1000
    }

    package func validate() throws {
        if generateLog != nil {
            guard output != nil else { throw ValidationError("--generate-log needs -o FILE") }
            if let intervalMs, intervalMs <= 0 { throw ValidationError("--interval must be more than 0") }
            return
        }
        guard let url, ReplayURL(url) != nil else { throw ValidationError("--url ws://HOST:PORT/ws is required (no TLS)") }
        if record {
            guard room != nil, output != nil else { throw ValidationError("--record needs --room CODE and -o FILE") }
            return
        }
        guard (0.01...1000).contains(speed) else { throw ValidationError("--speed must be 0.01...1000") }
        guard duration > 0, duration <= 3600 else { throw ValidationError("--duration must be 0...3600 seconds") }
        // With --connect-first the ramp is part of the connect phase, not of --duration.
        guard ramp >= 0, connectFirst || ramp < duration else { throw ValidationError("--ramp must be shorter than --duration") }
        guard (0...1).contains(minRatio) else { throw ValidationError("--min-ratio must be 0...1") }
        guard warmup >= 0, drain >= 0, drain <= 60 else { throw ValidationError("--warmup must be >= 0 and --drain 0...60") }
        if let idle {
            guard idle >= 1, idle <= maxConnections else { throw ValidationError("--idle must be 1...\(maxConnections) (see --max-connections)") }
        } else {
            guard rooms >= 1 else { throw ValidationError("--rooms must be at least 1") }
            guard (2...50).contains(players) else { throw ValidationError("--players must be 2...50") }
            guard rooms * players <= maxConnections else {
                throw ValidationError("\(rooms) x \(players) connections is over --max-connections \(maxConnections)")
            }
        }
        guard connectTimeout > 0, connectTimeout <= 3600 else { throw ValidationError("--connect-timeout must be 0...3600 seconds") }
        guard reconnectTimeout > 0, reconnectTimeout <= 3600 else { throw ValidationError("--reconnect-timeout must be 0...3600 seconds") }
        if reconnect, idle != nil { throw ValidationError("--reconnect is for load runs, not --idle") }
        if connectFirst, idle != nil { throw ValidationError("--connect-first is for load runs, not --idle") }
        guard (0.05...10).contains(receiveInterval) else { throw ValidationError("--receive-interval must be 0.05ms...10ms") }
        if let threads { guard (1...64).contains(threads) else { throw ValidationError("--threads must be 1...64") } }
        guard (1...10).contains(rounds) else { throw ValidationError("--rounds must be 1...10") }
        if let drawTime { guard (30...240).contains(drawTime) else { throw ValidationError("--draw-time must be 30...240") } }
    }

    package func run() async throws {
        if let seed = generateLog, let output {
            let log = ReplayLogGenerator.make(seed: seed, intervalMs: intervalMs, maxFrames: frames)
            try Data(log.ndjson().utf8).write(to: URL(fileURLWithPath: output))
            let ops = log.frames.reduce(0) { $0 + OpFingerprints.of($1.bytes).fingerprints.count }
            print("wrote \(output): \(log.frames.count) frames, \(ops) operations, \(log.frames.last?.at ?? 0) ms")
            return
        }
        var target = ReplayURL(url!)!
        try target.resolve()
        if record {
            try await recordTurn(target)
            return
        }
        ReplayRunner.raiseFileLimit()
        let loaded: [ReplayLog]
        if logs.isEmpty {
            loaded = [ReplayLog(name: "sample-seed-1", log: SampleDrawing.make(seed: 1), speed: speed)]
        } else {
            loaded = try logs.map { try ReplayLog.load(path: $0, speed: speed) }
        }
        let longest = loaded.map(\.passNanoseconds).max() ?? 0
        let drawTimeSec = drawTime ?? min(240, max(30, Int(longest / 1_000_000_000) + 10))
        let cores = ProcStat.allowedCores()
        var plan = ReplayPlan(url: target, players: idle == nil ? players : 1, logs: loaded, drawTimeSec: drawTimeSec, rounds: rounds, idle: idle != nil)
        plan.connectFirst = connectFirst
        plan.reconnect = reconnect
        plan.kernelReceive = kernelReceive
        plan.receiveIntervalNanoseconds = Int64(receiveInterval * 1_000_000)
        plan.reconnectTimeoutMs = Int(reconnectTimeout * 1000)
        var runner = ReplayRunner(
            plan: plan, rooms: idle.map { ($0 + 99) / 100 } ?? rooms, idleTotal: idle,
            threads: threads ?? cores, cores: cores, speed: speed, duration: duration, ramp: ramp,
            warmup: warmup, drain: drain, serverPID: serverPid,
            progress: !quiet && isatty(STDOUT_FILENO) == 1
        )
        runner.connectTimeout = connectTimeout
        var summary = try await runner.run()
        summary.url = url!
        if !quiet { print(summary.table()) }
        if let json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(summary).write(to: URL(fileURLWithPath: json))
        }
        let verdict = ReplayVerdict(summary: summary, minimumRatio: minRatio, idleExpected: idle)
        guard verdict.passed else {
            for (_, reason) in verdict.failures { FileHandle.standardError.write(Data("replay FAILED: \(reason)\n".utf8)) }
            throw verdict.exitCode
        }
    }

    private func recordTurn(_ target: ReplayURL) async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let recorder = ReplayRecorder(eventLoop: loop, code: room!)
        loop.execute { recorder.start(target) }
        let limit = duration
        loop.scheduleTask(in: .milliseconds(Int64(limit * 1000))) { recorder.finish("--duration elapsed") }
        do {
            let result = try await recorder.result.get()
            guard !result.log.frames.isEmpty else {
                throw ValidationError("nothing was drawn within \(limit) s")
            }
            try Data(result.log.ndjson().utf8).write(to: URL(fileURLWithPath: output!))
            print("wrote \(output!): \(result.log.frames.count) frames, \(result.log.size), word \(result.log.word ?? "unknown") (\(result.note))")
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
        try await group.shutdownGracefully()
    }
}
