import ArgumentParser
import Canvas
import Foundation
@testable import ProcessStats
import Testing
@testable import DrawServer
@testable import LoadTester

/// The pure parts of `drawserver replay`: splitting frames into operations, matching
/// what a guesser receives against what the drawer sent, and the summary maths.
@Suite("Replay: operation matching and accounting")
struct ReplayAccountingTests {
    /// A ledger holding `count` distinct operations sent at 1 ms, 2 ms, ...
    func ledger(_ count: Int) -> (TurnLedger, [UInt64]) {
        let ledger = TurnLedger(turn: 1)
        let prints = (0..<count).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 &+ 1 }
        for (index, print) in prints.enumerated() { ledger.append([print], sentAt: UInt64(index + 1) * 1_000_000) }
        return (ledger, prints)
    }

    @Test func operationCountsAgreeWithTheCodecOnASampleDrawing() throws {
        let log = SampleDrawing.make(seed: 3)
        var cursor = StrokeCursor()
        for frame in log.frames {
            let summary = try FrameCodec.validate(frame.bytes, size: log.size, cursor: &cursor)
            let split = OpFingerprints.of(frame.bytes)
            #expect(split.complete)
            #expect(split.fingerprints.count == summary.operations)
        }
    }

    @Test func mergedFramesGiveTheSameFingerprintsInOrder() {
        let log = SampleDrawing.make(seed: 4)
        let first = log.frames[0].bytes, second = log.frames[1].bytes, third = log.frames[2].bytes
        let separate = OpFingerprints.of(first).fingerprints + OpFingerprints.of(second).fingerprints + OpFingerprints.of(third).fingerprints
        let merged = OpFingerprints.of(first + second + third)
        #expect(merged.complete)
        #expect(merged.fingerprints == separate)
    }

    @Test func everyOpcodeIsSplitAndATruncatedFrameIsReported() {
        var cursor = StrokeCursor()
        let ops: [DrawOperation] = [
            .begin(tool: .pen, color: RGB(r: 1, g: 2, b: 3), width: 4, at: Point(x: 300, y: -20)),
            .points([Point(x: 301, y: -19), Point(x: 1000, y: 400)]), .end,
            .fill(color: RGB(r: 9, g: 9, b: 9), at: Point(x: 799, y: 599)), .undo, .clear,
            .pressureBegin(tool: .eraser, color: .black, width: 30, pressure: 9, at: Point(x: 5, y: 5)),
            .pressurePoints([PressurePoint(Point(x: 6, y: 700), pressure: 255), PressurePoint(Point(x: 7, y: 7), pressure: 1)]),
        ]
        let bytes = FrameCodec.encode(ops, cursor: &cursor)
        let split = OpFingerprints.of(bytes)
        #expect(split.complete)
        #expect(split.fingerprints.count == 8)
        #expect(Set(split.fingerprints).count == 8)
        let cut = OpFingerprints.of(Array(bytes.dropLast(2)))
        #expect(!cut.complete)
        #expect(OpFingerprints.of([0x07]).complete == false)
        #expect(OpFingerprints.of([0x09]).complete == false)
    }

    @Test func inOrderDeliveryMatchesEveryOperation() {
        let (ledger, prints) = ledger(10)
        var matcher = OpMatcher()
        for (index, print) in prints.enumerated() { #expect(matcher.match(print, in: ledger) == index) }
        matcher.finish(ledgerCount: ledger.count)
        #expect(matcher.delivered == 10)
        #expect(matcher.lost == 0 && matcher.outOfOrder == 0 && matcher.duplicates == 0 && matcher.unexpected == 0)
        #expect(matcher.hasReachedEnd(of: ledger))
    }

    @Test func aSkippedOperationIsLostAndTheTailCountsAtTheEnd() {
        let (ledger, prints) = ledger(10)
        var matcher = OpMatcher()
        for index in [0, 1, 4, 5, 6] { #expect(matcher.match(prints[index], in: ledger) == index) }
        #expect(matcher.lost == 2)
        #expect(!matcher.hasReachedEnd(of: ledger))
        matcher.finish(ledgerCount: ledger.count)
        #expect(matcher.lost == 5)  // 2, 3 and the never-seen 7, 8, 9
        #expect(matcher.delivered == 5)
    }

    @Test func aLateOperationIsOutOfOrderNotLost() {
        let (ledger, prints) = ledger(6)
        var matcher = OpMatcher()
        for index in [0, 2, 1, 3, 4, 5] { _ = matcher.match(prints[index], in: ledger) }
        matcher.finish(ledgerCount: ledger.count)
        #expect(matcher.delivered == 6)
        #expect(matcher.lost == 0)
        #expect(matcher.outOfOrder == 1)
    }

    @Test func duplicatesAndStrangersAreCountedApart() {
        let (ledger, prints) = ledger(4)
        var matcher = OpMatcher()
        _ = matcher.match(prints[0], in: ledger)
        _ = matcher.match(prints[1], in: ledger)
        #expect(matcher.match(prints[1], in: ledger) == nil)
        #expect(matcher.match(0xDEAD_BEEF, in: ledger) == nil)
        #expect(matcher.duplicates == 1)
        #expect(matcher.unexpected == 1)
        #expect(matcher.delivered == 2)
    }

    @Test func repeatedIdenticalOperationsMatchByPosition() {
        // END is always the same byte: counting in order still works.
        let ledger = TurnLedger(turn: 1)
        ledger.append([7, 3, 7, 3, 7, 3], sentAt: 5)
        var matcher = OpMatcher()
        for print in [7, 3, 7, 3, 7, 3] as [UInt64] { #expect(matcher.match(print, in: ledger) != nil) }
        matcher.finish(ledgerCount: ledger.count)
        #expect(matcher.delivered == 6 && matcher.lost == 0)
    }

    @Test func turnsAddUpIntoCounters() {
        let (ledger, prints) = ledger(5)
        var matcher = OpMatcher()
        for index in [0, 1, 3] { _ = matcher.match(prints[index], in: ledger) }
        matcher.finish(ledgerCount: ledger.count)
        var counters = ReplayCounters()
        counters.opsDelivered = matcher.delivered
        counters.add(turn: matcher, expected: ledger.count)
        var total = ReplayCounters()
        total.add(counters)
        total.add(counters)
        #expect(total.opsExpected == 10)
        #expect(total.opsDelivered == 6)
        #expect(total.opsLost == 4)
    }

    @Test func summaryMaths() {
        var counters = ReplayCounters()
        counters.opsExpected = 1000
        counters.opsDelivered = 990
        counters.opsLost = 10
        counters.windowOpsDelivered = 500
        counters.windowOpsSent = 100
        counters.windowFramesReceived = 250
        var latency = LatencyHistogram()
        for ms in 1...100 { latency.record(microseconds: UInt64(ms) * 1000) }
        let summary = ReplaySummary.make(
            url: "ws://x/ws", mode: "load", rooms: 2, players: 3, speed: 1, logs: ["a"], duration: 12, window: 10,
            counters: counters, latency: latency, sendLag: LatencyHistogram(), clientCPU: 2, cores: 1, threads: 1, server: nil
        )
        #expect(summary.opsDeliveredPerSecond == 50)
        #expect(summary.opsSentPerSecond == 10)
        #expect(summary.framesReceivedPerSecond == 25)
        #expect(summary.delivery.ratio == 0.99)
        #expect(abs(summary.latencyMs.p50 - 50) < 0.1)
        #expect(abs(summary.latencyMs.p99 - 99) < 0.1)
        #expect(abs(summary.latencyMs.max - 100) < 0.1)
        #expect(summary.latencyMs.samples == 100)
        #expect(abs(summary.client.cpuPercentOfOneCore - 20) < 1e-9)
        #expect(!summary.client.bottleneck)
        #expect(summary.warnings.contains { $0.contains("lost") })
    }

    @Test func nothingExpectedIsNoSuccessAndABusyClientIsFlagged() {
        let summary = ReplaySummary.make(
            url: "", mode: "load", rooms: 1, players: 2, speed: 1, logs: [], duration: 5, window: 4,
            counters: ReplayCounters(), latency: LatencyHistogram(), sendLag: LatencyHistogram(),
            clientCPU: 3.6, cores: 1, threads: 1, server: nil
        )
        #expect(summary.delivery.ratio == 0, "0 of 0 is not a ratio of 1")
        #expect(ReplayVerdict(summary: summary).failures.map(\.0) == [.nothingDelivered])
        #expect(summary.latencyMs.p99 == 0)
        #expect(summary.client.bottleneck)  // 90 % of the one usable core
        #expect(summary.table().contains("WARNING"))
    }

    @Test func summaryRoundTripsThroughJSON() throws {
        let summary = ReplaySummary.make(
            url: "ws://h:1/ws", mode: "load", rooms: 1, players: 2, speed: 2, logs: ["l"], duration: 5, window: 4,
            counters: ReplayCounters(), latency: LatencyHistogram(), sendLag: LatencyHistogram(),
            clientCPU: 0.1, cores: 2, threads: 2, server: nil
        )
        let data = try JSONEncoder().encode(summary)
        #expect(try JSONDecoder().decode(ReplaySummary.self, from: data) == summary)
        #expect(ReplaySummary.grouped(1_234_567.4) == "1,234,567")
        #expect(ReplaySummary.grouped(999) == "999")
    }

    @Test func urlsCPUListsAndGeneratedLogs() throws {
        #expect(ReplayURL("ws://127.0.0.1:8080/ws") == ReplayURL("ws://127.0.0.1:8080/ws"))
        let url = try #require(ReplayURL("ws://localhost:9000/ws"))
        #expect(url.host == "localhost" && url.port == 9000 && url.path == "/ws")
        #expect(ReplayURL("wss://x/ws") == nil)
        #expect(ReplayURL("ws://[::1]:81/")?.host == "::1")
        #expect(ProcStat.parseCPUList("0-3,6") == 5)
        #expect(ProcStat.parseCPUList("1") == 1)

        let log = ReplayLogGenerator.make(seed: 5, intervalMs: 16.667, maxFrames: 90)
        #expect(log.frames.count <= 90)
        #expect(log.frames[1].at == 17 && log.frames[3].at == 50)
        _ = try log.drawing()  // still a valid log
        var cursor = StrokeCursor()
        for frame in log.frames { _ = try FrameCodec.validate(frame.bytes, size: log.size, cursor: &cursor) }
        #expect(!cursor.isOpen)
        let parsed = try StrokeLog(ndjson: log.ndjson())
        #expect(parsed == log)
    }

    /// `--interval` takes a duration like every other flag; the old `--interval-ms` spelling
    /// and a bare number (in ms) still work.
    @Test func theGeneratorsIntervalIsADuration() throws {
        for arguments in [["--interval", "16.667ms"], ["--interval-ms", "16.667"], ["--interval", "0.016667s"]] {
            let command = try ReplayCommand.parse(["--generate-log", "5", "-o", "/dev/null"] + arguments)
            let interval = try #require(command.intervalMs)
            #expect(abs(interval - 16.667) < 1e-6, "\(arguments): \(interval)")
        }
        #expect(throws: (any Error).self) { try ReplayCommand.parse(["--generate-log", "5", "-o", "/dev/null", "--interval", "soon"]) }
        #expect(throws: (any Error).self) { try ReplayCommand.parse(["--generate-log", "5", "-o", "/dev/null", "--interval", "0ms"]) }
    }

    @Test func theVerdictFailsEveryWayARunCanFail() {
        var counters = ReplayCounters()
        counters.opsExpected = 1000
        counters.opsDelivered = 998
        func verdict(_ c: ReplayCounters, minimum: Double = ReplayVerdict.defaultMinimumRatio) -> [ReplayVerdict.Failure] {
            let summary = ReplaySummary.make(
                url: "", mode: "load", rooms: 1, players: 2, speed: 1, logs: [], duration: 5, window: 4,
                counters: c, latency: LatencyHistogram(), sendLag: LatencyHistogram(), clientCPU: 0, cores: 1, threads: 1, server: nil
            )
            return ReplayVerdict(summary: summary, minimumRatio: minimum).failures.map(\.0)
        }
        #expect(verdict(counters) == [.ratioBelowMinimum], "998 of 1000 is below the default 0.999")
        #expect(verdict(counters, minimum: 0.99) == [])
        counters.opsDelivered = 1000
        #expect(verdict(counters) == [])
        counters.connectErrors = 40
        #expect(verdict(counters) == [.connectionsFailed])
        counters.connectErrors = 0
        counters.unexpectedCloses = 1
        #expect(verdict(counters) == [.connectionsFailed], "a connection the server closed early is a failure")
        counters.unexpectedCloses = 0
        counters.opsDelivered = 0
        #expect(verdict(counters) == [.nothingDelivered])
        // The case seen by a new user: 40 of 48 connections refused, "1.000000 (0 of 0)", exit 0.
        var refused = ReplayCounters()
        refused.connectErrors = 40
        #expect(verdict(refused) == [.connectionsFailed, .nothingDelivered])
        #expect(Set(ReplayVerdict.Failure.allCases.map(\.rawValue)).count == 3, "distinct exit statuses")
    }
}
