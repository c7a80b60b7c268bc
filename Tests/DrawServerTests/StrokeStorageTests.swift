import Canvas
import DrawProtocol
import Foundation
import GRDB
import Logging
import NIOCore
import Rooms
import ServerTestSupport
import Testing
@testable import DrawServer

@Suite("Stroke frames in the database")
struct StrokeStorageTests {
    @Test func packedFramesRoundTripAndCorruptionIsAnError() throws {
        let frames = [
            StrokeLog.Frame(at: 0, bytes: [1, 2, 3]),
            StrokeLog.Frame(at: 300, bytes: []),
            StrokeLog.Frame(at: 70_000, bytes: Array(repeating: 7, count: 300)),
        ]
        let packed = PackedFrames.pack(frames)
        #expect(try PackedFrames.unpack(packed) == frames)
        #expect(try PackedFrames.unpack([]) == [])
        // Cut inside the last frame's bytes, or a varint that never ends: an error, no crash.
        #expect(throws: PackedFrames.Corrupt.self) { try PackedFrames.unpack(Array(packed.dropLast())) }
        #expect(throws: PackedFrames.Corrupt.self) { try PackedFrames.unpack([UInt8](repeating: 0xFF, count: 11)) }
        #expect(throws: PackedFrames.Corrupt.self) { try PackedFrames.unpack([0, 5, 1]) }
    }

    @Test func framesPackedIntoABufferAreTheBytesPackWrites() {
        let frames = [
            StrokeLog.Frame(at: 0, bytes: []),
            StrokeLog.Frame(at: 127, bytes: [9]),
            StrokeLog.Frame(at: 128, bytes: Array(repeating: 3, count: 128)),
            StrokeLog.Frame(at: -5, bytes: [1, 2]),  // a negative time is stored as 0, as `pack` does
            StrokeLog.Frame(at: 1 << 40, bytes: Array(repeating: 4, count: 20_000)),
        ]
        var buffer = ByteBuffer()
        for frame in frames { PackedFrames.append(frame, to: &buffer) }
        #expect(Array(buffer.readableBytesView) == PackedFrames.pack(frames))
    }

    @Test func strokeRunsKeepEachRoomsFramesInOrderAndTakePackedRunsAfterThem() throws {
        func frame(_ at: Int) -> StrokeLog.Frame { StrokeLog.Frame(at: at, bytes: [UInt8(at % 256)]) }
        func unpacked(_ runs: [StrokeRuns.Run]) throws -> [Int] {
            try runs.flatMap { try PackedFrames.unpack(Array($0.packed.readableBytesView)).map(\.at) }
        }
        var runs = StrokeRuns()
        runs.add(frame(1), room: "AAAA", generation: 1)
        runs.add(frame(2), room: "BBBB", generation: 1)
        runs.add(frame(3), room: "AAAA", generation: 1)  // back to A's run
        #expect(runs.contains(room: "AAAA") && runs.contains(room: "BBBB") && !runs.contains(room: "CCCC"))
        // Runs packed elsewhere (a batch's) go after what a room has.
        var packed = StrokeRuns()
        packed.add(frame(4), room: "AAAA", generation: 2)
        packed.add(frame(5), room: "CCCC", generation: 1)
        var other = packed
        runs.add(runs: other.take(room: "AAAA"), room: "AAAA")
        runs.add(runs: other.take(room: "CCCC"), room: "CCCC")
        #expect(runs.frames == 5 && runs.rooms == ["AAAA", "BBBB", "CCCC"])

        var copy = runs
        let all = copy.takeAll()
        #expect(all.map(\.room) == ["AAAA", "BBBB", "CCCC"] && copy.isEmpty)
        #expect(try unpacked(all[0].runs) == [1, 3, 4] && all[0].runs.map(\.generation) == [1, 2])

        copy = runs
        copy.removeRooms { $0 != "BBBB" }
        #expect(copy.frames == 1 && copy.rooms == ["BBBB"])
    }

    /// A room in its first drawing turn, as stored.
    static func drawingRoom(_ code: String) -> Room {
        var room = Room(code: RoomCode(parsing: code)!, name: code, isPublic: false, settings: RoomSettings(), seed: 3)
        let now = Timestamp(milliseconds: 1_000)
        _ = room.join(PlayerID("ada"), name: "Ada", now: now)
        _ = room.join(PlayerID("bob"), name: "Bob", now: now)
        _ = room.handle(.start, from: PlayerID("ada"), now: now)
        if let drawer = room.drawer { _ = room.handle(.choose(index: 0), from: drawer, now: now) }
        return room
    }

    @Test func aBatchStoresOneRowPerRoomAndRowsLoadInOrder() throws {
        let path = temporaryDatabasePath()
        let database = try GameDatabase(path: path)
        let (first, second) = (Self.drawingRoom("AAAAAA"), Self.drawingRoom("BBBBBB"))
        let now = Timestamp(milliseconds: 1_000)
        let strokes = (0..<6).map { i in
            StrokeLog.Frame(at: i * 10, bytes: strokeBytes(from: Point(x: Int32(10 * i), y: 5), to: Point(x: 300, y: Int32(40 * i))))
        }
        // Frames of two rooms interleaved, as rooms relay them.
        var changes: [PersistenceWriter.Change] = [.room(first.snapshot(now: now)), .room(second.snapshot(now: now))]
        for (i, frame) in strokes.enumerated() {
            let room = i.isMultiple(of: 2) ? first : second
            changes.append(.frame(room: room.code, generation: room.canvasGeneration, frame: frame))
        }
        try database.pool.write { db in try PersistenceWriter.apply(changes, to: db, retention: 10) }
        // A row as version 1 wrote it (one frame, not packed), after the packed one.
        let legacy = StrokeLog.Frame(at: 99, bytes: strokeBytes(from: Point(x: 1, y: 1), to: Point(x: 2, y: 2)))
        try database.pool.write { db in
            try db.execute(sql: "INSERT INTO stroke (room_code, generation, at_ms, ops) VALUES (?, ?, ?, ?)",
                           arguments: ["AAAAAA", first.canvasGeneration, legacy.at, Data(legacy.bytes)])
        }
        let rows = try database.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM stroke") }
        #expect(rows == 3, "one packed row per room, plus the legacy row")
        let stored = try database.load()
        let frames = Dictionary(uniqueKeysWithValues: stored.rooms.map { ($0.snapshot.code, $0.frames) })
        #expect(frames["AAAAAA"] == [strokes[0], strokes[2], strokes[4], legacy])
        #expect(frames["BBBBBB"] == [strokes[1], strokes[3], strokes[5]])
    }

    @Test func aRoomsFramesAreWrittenBeforeItsNextSnapshotInTheBatch() throws {
        let path = temporaryDatabasePath()
        let database = try GameDatabase(path: path)
        var room = Self.drawingRoom("CCCCCC")
        let now = Timestamp(milliseconds: 1_000)
        let old = StrokeLog.Frame(at: 0, bytes: strokeBytes(from: Point(x: 1, y: 1), to: Point(x: 50, y: 50)))
        let generation = room.canvasGeneration
        // Frames of the old generation, then the room moves on (its snapshot deletes older
        // generations), then a frame of the new one: only the new one may remain.
        if let drawer = room.drawer { _ = room.handle(.skip, from: drawer, now: now) }
        let later = Timestamp(milliseconds: 60_000)
        _ = room.tick(now: later)
        if let drawer = room.drawer { _ = room.handle(.choose(index: 0), from: drawer, now: later) }
        try #require(room.canvasGeneration > generation, "the next turn has a new canvas")
        let new = StrokeLog.Frame(at: 5, bytes: strokeBytes(from: Point(x: 9, y: 9), to: Point(x: 90, y: 90)))
        let changes: [PersistenceWriter.Change] = [
            .frame(room: room.code, generation: generation, frame: old),
            .room(room.snapshot(now: later)),
            .frame(room: room.code, generation: room.canvasGeneration, frame: new),
        ]
        try database.pool.write { db in try PersistenceWriter.apply(changes, to: db, retention: 10) }
        let stored = try database.load()
        #expect(stored.rooms.first?.frames == [new])
    }

    /// The same through the writer, which packs frames as they are queued: a room's packed
    /// frames are cut into the batch before its next snapshot, and a room closed and made
    /// again under its code in one batch keeps only the new room's frames.
    @Test func framesPackedAsQueuedKeepTheirPlaceBeforeTheRoomsNextSnapshotOrClose() async throws {
        let database = try GameDatabase(path: temporaryDatabasePath())
        var configuration = PersistenceWriter.Configuration()
        configuration.interval = .seconds(60)  // one batch: the flush's
        let writer = PersistenceWriter(database: database, configuration: configuration, metrics: ServerMetrics(), logger: Logger(label: "drawserver-test"))
        let running = Task { try await writer.run() }
        var room = Self.drawingRoom("DDDDDD")
        let again = Self.drawingRoom("EEEEEE")
        let now = Timestamp(milliseconds: 1_000)
        let generation = room.canvasGeneration
        let frame = { (at: Int) in StrokeLog.Frame(at: at, bytes: strokeBytes(from: Point(x: Int32(at), y: 1), to: Point(x: 50, y: 50))) }
        writer.roomChanged(room.snapshot(now: now))
        writer.roomChanged(again.snapshot(now: now))
        writer.frameAppended(room: room.code, generation: generation, frame: frame(1))
        writer.frameAppended(room: again.code, generation: again.canvasGeneration, frame: frame(2))
        if let drawer = room.drawer { _ = room.handle(.skip, from: drawer, now: now) }
        let later = Timestamp(milliseconds: 60_000)
        _ = room.tick(now: later)
        if let drawer = room.drawer { _ = room.handle(.choose(index: 0), from: drawer, now: later) }
        try #require(room.canvasGeneration > generation, "the next turn has a new canvas")
        writer.roomChanged(room.snapshot(now: later))
        writer.frameAppended(room: room.code, generation: room.canvasGeneration, frame: frame(3))
        // EEEEEE closes and is made again: its earlier frame goes with the close.
        writer.roomClosed(again.code)
        writer.roomChanged(again.snapshot(now: later))
        writer.frameAppended(room: again.code, generation: again.canvasGeneration, frame: frame(4))
        #expect(await writer.flush())
        #expect(writer.statistics.commits == 1 && writer.statistics.strokeFrames == 4)
        let stored = Dictionary(uniqueKeysWithValues: try database.load().rooms.map { ($0.snapshot.code, $0.frames.map(\.at)) })
        #expect(stored["DDDDDD"] == [3])
        #expect(stored["EEEEEE"] == [4])
        running.cancel()
        _ = try await running.value
    }

    /// Batch after batch, every frame is written exactly once, in order, and nothing of an
    /// earlier batch comes back.
    @Test func batchesWriteEachFrameOnce() async throws {
        let database = try GameDatabase(path: temporaryDatabasePath())
        // Only the flushes commit, so each batch is exactly one round of frames; the commit
        // thread is given all the time it needs to start, however busy the test machine is.
        let configuration = PersistenceWriter.Configuration(interval: .seconds(60), maxBatch: 100_000, idleStartPatience: .seconds(30))
        let writer = PersistenceWriter(database: database, configuration: configuration, metrics: ServerMetrics(), logger: Logger(label: "drawserver-test"))
        let room = Self.drawingRoom("DDDDDD")
        let now = Timestamp(milliseconds: 1_000)
        let running = Task { try await writer.run() }
        writer.roomChanged(room.snapshot(now: now))
        var sent: [StrokeLog.Frame] = []
        for batch in 0..<4 {
            for i in 0..<300 {
                let n = batch * 300 + i
                let frame = StrokeLog.Frame(at: n, bytes: strokeBytes(from: Point(x: Int32(n % 500), y: 1), to: Point(x: 2, y: Int32(n % 400))))
                writer.frameAppended(room: room.code, generation: room.canvasGeneration, frame: frame)
                sent.append(frame)
            }
            await writer.flush()
        }
        running.cancel()
        _ = await running.result
        let stored = try database.load()
        #expect(stored.rooms.first?.frames == sent)
        #expect(writer.statistics.strokeFrames == sent.count)
        #expect(writer.statistics.idleCommits == writer.statistics.commits, "a writer that keeps up commits at idle priority")
    }

    /// A full batch (the writer fell behind) commits on GRDB's own queue instead of the
    /// idle-priority thread; both kinds of commit keep the frames in order.
    @Test func aWriterThatFellBehindCommitsAtNormalPriority() async throws {
        let database = try GameDatabase(path: temporaryDatabasePath())
        let configuration = PersistenceWriter.Configuration(interval: .seconds(60), maxBatch: 50, idleStartPatience: .seconds(30))
        let writer = PersistenceWriter(database: database, configuration: configuration, metrics: ServerMetrics(), logger: Logger(label: "drawserver-test"))
        let room = Self.drawingRoom("EEEEEE")
        writer.roomChanged(room.snapshot(now: Timestamp(milliseconds: 1_000)))
        // Queued before the writer runs: its first batch is over `maxBatch`.
        let sent = (0..<120).map { n in
            StrokeLog.Frame(at: n, bytes: strokeBytes(from: Point(x: Int32(n), y: 1), to: Point(x: 2, y: Int32(n))))
        }
        for frame in sent { writer.frameAppended(room: room.code, generation: room.canvasGeneration, frame: frame) }
        let running = Task { try await writer.run() }
        await writer.flush()
        let tail = StrokeLog.Frame(at: 500, bytes: strokeBytes(from: Point(x: 5, y: 5), to: Point(x: 6, y: 6)))
        writer.frameAppended(room: room.code, generation: room.canvasGeneration, frame: tail)
        await writer.flush()
        running.cancel()
        _ = await running.result
        #expect(try database.load().rooms.first?.frames == sent + [tail])
        let statistics = writer.statistics
        #expect(statistics.commits - statistics.idleCommits >= 1, "the full batch went to GRDB's queue")
        #expect(statistics.idleCommits >= 1, "the small one to the idle thread")
    }

    /// A hint alone is not written (a restored room reveals the same letter again); any
    /// other effect, with or without a hint, writes the room's snapshot.
    @Test func aHintAloneDoesNotWriteTheRoom() {
        let hint = RoomEffect.send(.hint(mask: "e _ _"), to: .everyoneExcept(PlayerID("ada")))
        let chat = RoomEffect.send(.chat(from: PlayerID("bob"), name: "bob", text: "hi"), to: .everyone)
        #expect(!LiveRoom.storesState([]))
        #expect(!LiveRoom.storesState([hint]))
        #expect(LiveRoom.storesState([chat]))
        #expect(LiveRoom.storesState([hint, .released(PlayerID("cy"))]))
    }
}
