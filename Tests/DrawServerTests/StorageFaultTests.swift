import Canvas
import DrawProtocol
import Foundation
import GRDB
import Logging
import NIOCore
import Rooms
import ServerTestSupport
import Synchronization
import Testing
@testable import DrawServer

/// The persistence writer when commits fail: held, retried, in order, reported.
@Suite("Storage faults (writer)", .timeLimit(.minutes(2)))
struct StorageFaultTests {
    static let quick = PersistenceWriter.Configuration(
        interval: .milliseconds(20), idleStartPatience: .seconds(30),
        health: .init(firstRetry: .milliseconds(20), maxRetry: .milliseconds(100)), exitPatience: .milliseconds(300)
    )

    static func frames(_ count: Int, from start: Int) -> [StrokeLog.Frame] {
        (start..<(start + count)).map { n in
            StrokeLog.Frame(at: n, bytes: strokeBytes(from: Point(x: Int32(n % 700), y: 3), to: Point(x: Int32(n % 500), y: Int32(n % 400)), width: 3))
        }
    }

    /// A full disk, simulated with `PRAGMA max_page_count` through the test hook, then lifted.
    @Test func aFullDiskHoldsEveryChangeInOrderAndWritesThemWhenSpaceComesBack() async throws {
        let limitFile = temporaryDatabasePath() + ".pages"
        let database = try GameDatabase(path: temporaryDatabasePath(), testPageLimitFile: limitFile)
        let metrics = ServerMetrics()
        let writer = PersistenceWriter(database: database, configuration: Self.quick, metrics: metrics, logger: Logger(label: "drawserver-test"))
        let running = Task { try await writer.run() }
        let room = StrokeStorageTests.drawingRoom("FFFFFF")
        writer.roomChanged(room.snapshot(now: Timestamp(milliseconds: 1_000)))
        var sent = Self.frames(50, from: 0)
        for frame in sent { writer.frameAppended(room: room.code, generation: room.canvasGeneration, frame: frame) }
        #expect(await writer.flush())
        #expect(writer.storageReport == StorageReport())

        // No page may be added: the next stroke row (several pages) cannot be written.
        try "1".write(toFile: limitFile, atomically: true, encoding: .utf8)
        for round in 0..<3 {
            let more = Self.frames(300, from: sent.count)
            for frame in more { writer.frameAppended(room: room.code, generation: room.canvasGeneration, frame: frame) }
            sent += more
            #expect(await writer.flush() == false, "round \(round): the commit failed, and flush says so")
        }
        let failing = writer.storageReport
        #expect(failing.fault?.kind == .diskFull, "\(failing)")
        // A small batch may still fit in free space of existing pages (how the writer
        // batches depends on timing), so not every change need be held.
        #expect(failing.heldChanges > 0, "\(failing)")
        #expect(failing.heldBytes > failing.heldChanges * 20)
        #expect(failing.commitFailures >= 3)
        #expect(!failing.refusingNewRooms)
        let exposition = String(decoding: metrics.exposition(), as: UTF8.self)
        #expect(exposition.contains("drawserver_db_commit_failures_total \(failing.commitFailures)\n"), "\(exposition)")
        #expect(exposition.contains("drawserver_db_queued_bytes \(failing.heldBytes)"), "\(exposition)")

        try FileManager.default.removeItem(atPath: limitFile)
        try await waitUntil { writer.storageReport.fault == nil }
        #expect(await writer.flush())
        #expect(writer.storageReport.heldBytes == 0)
        #expect(String(decoding: metrics.exposition(), as: UTF8.self).contains("drawserver_db_queued_bytes 0"))
        running.cancel()
        _ = try await running.value
        #expect(try database.load().rooms.first?.frames == sent, "every frame, in order")
    }

    @Test func theHealthRouteIsForModeratorsAndSaysStorageIsFine() async throws {
        try await withServer({ $0.moderatorToken = "t0ken" }) { port in
            #expect(try await HTTP.get(port: port, path: "/api/health").status == 401)
            let reply = try await HTTP.get(port: port, path: "/api/health", token: "t0ken")
            #expect(reply.status == 200)
            let health = try JSONDecoder().decode(HealthReport.self, from: Data(reply.body))
            #expect(health.ready && health.status == "ready")
            #expect(health.storage.ok && !health.storage.persistent && health.storage.fault == nil)
        }
    }

    /// A backend that fails as told and records what it committed.
    final class ScriptedBackend: StorageBackend {
        let failures = Mutex<[StorageFault]>([])
        let committed = Mutex<[[PersistenceWriter.Change]]>([])
        struct Refused: Error { var fault: StorageFault }

        func failNext(_ faults: [StorageFault]) { failures.withLock { $0 += faults } }

        func commit(_ batch: StorageBatch, behind: Bool) async throws -> StorageCommit {
            if let fault = failures.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { throw Refused(fault: fault) }
            committed.withLock { $0.append(batch.changes) }
            return StorageCommit()
        }

        func fault(for error: any Error) -> StorageFault { (error as? Refused)?.fault ?? StorageFault(.other, detail: "\(error)") }

        /// The times of the frames `changes` carry, single or packed, in order.
        static func frameTimes(_ changes: [PersistenceWriter.Change]) -> [Int] {
            changes.flatMap { change -> [Int] in
                switch change {
                case .frame(_, _, let frame): [frame.at]
                case .strokes(_, let runs):
                    runs.flatMap { run in ((try? PackedFrames.unpack(Array(run.packed.readableBytesView))) ?? []).map(\.at) }
                default: []
                }
            }
        }

        var frames: [Int] {
            committed.withLock { $0.flatMap(Self.frameTimes) }
        }
    }

    /// A backend whose commits can go in with their answer lost, as PostgreSQL's can when
    /// its server is lost around `COMMIT`, and that defers a room's changes when told.
    final class DoubtfulBackend: StorageBackend {
        enum Next { case answerLost, deferRoom(RoomCode) }
        let script = Mutex<[Next]>([])
        /// Every attempt: its batch id and frames.
        let attempts = Mutex<[(id: Int64, frames: [Int])]>([])
        /// What is in the store, once per batch id.
        let written = Mutex<(ids: Set<Int64>, frames: [Int])>(([], []))
        struct AnswerLost: Error {}

        func commit(_ batch: StorageBatch, behind: Bool) async throws -> StorageCommit {
            let frames = ScriptedBackend.frameTimes(batch.changes)
            attempts.withLock { $0.append((batch.id, frames)) }
            let next = script.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            var deferred: [PersistenceWriter.Change] = []
            var kept = batch.changes
            if case .deferRoom(let room) = next {
                deferred = batch.changes.filter { $0.room == room }
                kept = batch.changes.filter { $0.room != room }
            }
            written.withLock { w in
                guard w.ids.insert(batch.id).inserted else { return }
                w.frames += ScriptedBackend.frameTimes(kept)
            }
            if case .answerLost = next { throw AnswerLost() }
            return StorageCommit(deferred: deferred)
        }

        func fault(for error: any Error) -> StorageFault { StorageFault(.unreachable, detail: "\(error)") }
        func mayHaveCommitted(_ error: any Error) -> Bool { error is AnswerLost }
    }

    @Test func aBatchThatMayHaveGoneInIsRetriedAloneUnderItsIdAndDeferredChangesGoFirst() async throws {
        let backend = DoubtfulBackend()
        let writer = PersistenceWriter(backend: backend, configuration: Self.quick, metrics: ServerMetrics(), logger: Logger(label: "drawserver-test"))
        let running = Task { try await writer.run() }
        let (a, b) = (RoomCode(parsing: "KKKKKK")!, RoomCode(parsing: "LLLLLL")!)
        backend.script.withLock { $0 = [.answerLost] }
        for n in 0..<10 { writer.frameAppended(room: a, generation: 1, frame: StrokeLog.Frame(at: n, bytes: [1])) }
        #expect(await writer.flush() == false, "the commit's answer was lost")
        for n in 10..<20 { writer.frameAppended(room: a, generation: 1, frame: StrokeLog.Frame(at: n, bytes: [1])) }
        try await waitUntil { writer.storageReport.heldChanges == 0 && writer.storageReport.fault == nil }
        let tries = backend.attempts.withLock { $0 }
        #expect(tries.count == 3)
        #expect(tries[0].id == tries[1].id && tries[1].frames == Array(0..<10), "retried alone, under its id")
        #expect(tries[2].id != tries[0].id && tries[2].frames == Array(10..<20), "what came after it, in a batch of its own")
        #expect(backend.written.withLock { $0.frames } == Array(0..<20), "every frame once, in order")

        // A room's changes the backend defers go in before anything newer.
        backend.script.withLock { $0 = [.deferRoom(b)] }
        writer.frameAppended(room: b, generation: 1, frame: StrokeLog.Frame(at: 20, bytes: [1]))
        writer.frameAppended(room: a, generation: 1, frame: StrokeLog.Frame(at: 21, bytes: [1]))
        await writer.flush()
        writer.frameAppended(room: b, generation: 1, frame: StrokeLog.Frame(at: 22, bytes: [1]))
        try await waitUntil { backend.written.withLock { $0.frames.count } == 23 }
        #expect(backend.written.withLock { $0.frames } == Array(0..<20) + [21, 20, 22])
        #expect(writer.storageReport.fault == nil && writer.storageReport.droppedChanges == 0)
        running.cancel()
        _ = try await running.value
    }

    static let busy = StorageFault(.busy, detail: "SQLite error 5: database is locked")
    static let corrupt = StorageFault(.corrupt, detail: "SQLite error 11: database disk image is malformed")

    @Test func laterBatchesQueueBehindAHeldOneAndAFaultThatCannotPassDropsItsBatch() async throws {
        let backend = ScriptedBackend()
        let writer = PersistenceWriter(backend: backend, configuration: Self.quick, metrics: ServerMetrics(), logger: Logger(label: "drawserver-test"))
        let running = Task { try await writer.run() }
        let code = RoomCode(parsing: "GGGGGG")!
        backend.failNext([Self.busy, Self.busy, Self.busy])
        for n in 0..<30 {
            writer.frameAppended(room: code, generation: 1, frame: StrokeLog.Frame(at: n, bytes: [1]))
            if n % 10 == 9 { await writer.flush() }
        }
        try await waitUntil { writer.storageReport.fault == nil && writer.storageReport.heldChanges == 0 }
        #expect(backend.frames == Array(0..<30), "held batches and the ones behind them are written once, in order")
        #expect(writer.storageReport.commitFailures == 3 && writer.storageReport.droppedChanges == 0)

        backend.failNext([Self.corrupt])
        for n in 30..<35 { writer.frameAppended(room: code, generation: 1, frame: StrokeLog.Frame(at: n, bytes: [1])) }
        #expect(await writer.flush() == false)
        #expect(writer.storageReport.fault == Self.corrupt && writer.storageReport.droppedChanges == 5)
        writer.frameAppended(room: code, generation: 1, frame: StrokeLog.Frame(at: 35, bytes: [1]))
        #expect(await writer.flush())
        #expect(writer.storageReport.fault == nil, "a commit that goes through clears the fault")
        #expect(backend.frames == Array(0..<30) + [35])
        running.cancel()
        _ = try await running.value
    }

    @Test func aGracefulStopRetriesHeldChangesThenExitsWithAnErrorWhenStorageStillFails() async throws {
        let backend = ScriptedBackend()
        let writer = PersistenceWriter(backend: backend, configuration: Self.quick, metrics: ServerMetrics(), logger: Logger(label: "drawserver-test"))
        let running = Task { try await writer.run() }
        backend.failNext(Array(repeating: Self.busy, count: 1_000))
        writer.frameAppended(room: RoomCode(parsing: "HHHHHH")!, generation: 1, frame: StrokeLog.Frame(at: 0, bytes: [1]))
        #expect(await writer.flush() == false)
        running.cancel()
        await #expect(throws: UnwrittenChanges.self) { try await running.value }
        #expect(writer.storageReport.droppedChanges == 1)
    }

    /// The same on the writer's own clock: ten minutes of patience before exit, retries a
    /// few seconds apart, all passed by advancing a `ManualServerClock`.
    @Test func theRetriesAndThePatienceBeforeExitRunOnTheWritersClock() async throws {
        let clock = ManualServerClock()
        let backend = ScriptedBackend()
        var configuration = Self.quick
        configuration.health.firstRetry = .seconds(1)
        configuration.health.maxRetry = .seconds(20)
        configuration.exitPatience = .seconds(600)
        let writer = PersistenceWriter(backend: backend, configuration: configuration, metrics: ServerMetrics(), logger: Logger(label: "drawserver-test"), clock: ServerClock(clock))
        let running = Task { try await writer.run() }
        backend.failNext(Array(repeating: Self.busy, count: 1_000))
        writer.frameAppended(room: RoomCode(parsing: "HHHHHH")!, generation: 1, frame: StrokeLog.Frame(at: 0, bytes: [1]))
        #expect(await writer.flush() == false)
        running.cancel()
        let exited = IdleCommitThreadTests.Flag()
        let outcome = Task {
            defer { exited.set() }
            return try await running.value
        }
        try await waitUntil {
            clock.advance(by: .seconds(15))
            return exited.isSet
        }
        await #expect(throws: UnwrittenChanges.self) { try await outcome.value }
        #expect(clock.now >= .seconds(600), "it waited out its patience in the writer's time")
        #expect(writer.storageReport.droppedChanges == 1)
    }

    @Test func heldChangesOverTheBoundCollapseAndNewRoomsAreRefusedUntilRecovery() async throws {
        let backend = ScriptedBackend()
        var configuration = Self.quick
        configuration.health.heldBytesLimit = 10_000
        let writer = PersistenceWriter(backend: backend, configuration: configuration, metrics: ServerMetrics(), logger: Logger(label: "drawserver-test"))
        let running = Task { try await writer.run() }
        backend.failNext(Array(repeating: Self.busy, count: 1_000))
        var recorder = HeldChangesTests.Recorder("JJJJJJ")
        for _ in 0..<4 { recorder.playTurn(strokes: 30) }
        for change in recorder.changes {
            switch change {
            case .room(let snapshot): writer.roomChanged(snapshot)
            case .frame(let room, let generation, let frame): writer.frameAppended(room: room, generation: generation, frame: frame)
            case .turn(let record): writer.turnFinished(record)
            case .game(let record): writer.gameFinished(record)
            default: break
            }
        }
        #expect(writer.newRoomRefusal == nil)
        #expect(await writer.flush() == false)
        try await waitUntil { writer.storageReport.refusingNewRooms }
        #expect(writer.newRoomRefusal?.code == .storageUnavailable)
        #expect(writer.storageReport.heldBytes < 10_000, "collapsed below the bound: \(writer.storageReport)")
        backend.failures.withLock { $0.removeAll() }
        try await waitUntil { writer.storageReport.fault == nil }
        #expect(writer.newRoomRefusal == nil, "new rooms are admitted again")
        running.cancel()
        _ = try await running.value
        // What was written restores the same room as the whole history would have.
        let full = try HeldChangesTests.store(recorder.changes)
        let written = try HeldChangesTests.store(backend.committed.withLock { $0.flatMap { $0 } })
        #expect(written.rooms == full.rooms && written.snapshots.count == full.snapshots.count && written.turns == full.turns)
    }
}
