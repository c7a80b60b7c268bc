import Canvas
import DrawProtocol
import Foundation
import GRDB
import Rooms
import ServerTestSupport
import Testing
@testable import DrawServer

/// The changes held while storage fails, and how they collapse at the bound.
@Suite("Held changes (pure)")
struct HeldChangesTests {
    /// Drives a room as `LiveRoom` does and records the changes it would store.
    struct Recorder {
        var room: Room
        var changes: [PersistenceWriter.Change] = []
        var now = Timestamp(milliseconds: 1_000)

        init(_ code: String, maxTurnLogBytes: Int = 1 << 20) {
            var configuration = RoomConfiguration()
            configuration.maxTurnLogBytes = maxTurnLogBytes
            room = Room(code: RoomCode(parsing: code)!, name: code, isPublic: false, settings: RoomSettings(), configuration: configuration, seed: 5)
            for (id, name) in [("ada", "Ada"), ("bob", "Bob")] { record((try? room.join(PlayerID(id), name: name, now: now).get()) ?? []) }
            record(room.handle(.start, from: PlayerID("ada"), now: now))
        }

        mutating func record(_ effects: [RoomEffect]) {
            for effect in effects {
                if case .turnFinished(let turn) = effect { changes.append(.turn(turn)) }
                if case .gameFinished(let game) = effect { changes.append(.game(game)) }
            }
            changes.append(.room(room.snapshot(now: now)))
        }

        /// One turn: choose, `strokes` frames, skip, the reveal runs out.
        mutating func playTurn(strokes: Int) {
            draw(strokes: strokes)
            if let drawer = room.drawer { record(room.handle(.skip, from: drawer, now: now)) }
            now = now + 60_000
            record(room.tick(now: now))
        }

        /// Chooses a word if the drawer has to, and draws `strokes` frames.
        mutating func draw(strokes: Int) {
            if room.phase == .choosing, let drawer = room.drawer { record(room.handle(.choose(index: 0), from: drawer, now: now)) }
            for i in 0..<strokes {
                send(strokeBytes(from: Point(x: Int32(10 + i * 7 % 700), y: 10), to: Point(x: 300, y: Int32(20 + i * 13 % 500)), width: 4))
            }
        }

        /// One frame from the drawer, stored as `LiveRoom.draw` stores it.
        mutating func send(_ bytes: [UInt8]) {
            now = now + 20
            guard let drawer = room.drawer else { return }
            let generation = room.canvasGeneration
            guard case .relay = room.draw(frame: bytes, from: drawer, now: now) else {
                Issue.record("a test frame was refused")
                return
            }
            if room.canvasGeneration == generation, let stored = room.strokeLog.frames.last {
                changes.append(.frame(room: room.code, generation: generation, frame: stored))
            } else {
                for stored in room.strokeLog.frames {
                    changes.append(.frame(room: room.code, generation: room.canvasGeneration, frame: stored))
                }
                changes.append(.room(room.snapshot(now: now)))
            }
        }
    }

    /// Players, two rooms over several turns (one compacting its log on the way), a room
    /// closed and a new one opened under the same code.
    static func history() -> [PersistenceWriter.Change] {
        var changes: [PersistenceWriter.Change] = []
        for n in 0..<3 {
            changes.append(.player(PlayerRecord(id: PlayerID("ada"), name: "Ada \(n)", tokenHash: String(repeating: "a", count: 64), lastSeen: Timestamp(milliseconds: Int64(n)))))
        }
        var first = Recorder("AAAAAA", maxTurnLogBytes: 600)
        var second = Recorder("BBBBBB")
        for _ in 0..<3 {
            first.playTurn(strokes: 40)
            second.playTurn(strokes: 15)
        }
        // The first room is left mid-turn, with a canvas.
        first.draw(strokes: 25)
        changes += first.changes + second.changes
        changes.append(.heartbeat)
        changes.append(.roomClosed(second.room.code))
        var reopened = Recorder("BBBBBB")
        reopened.playTurn(strokes: 3)
        reopened.draw(strokes: 2)
        changes += reopened.changes
        changes.append(.heartbeat)
        return changes
    }

    struct Stored: Equatable {
        var rooms: [String: [StrokeLog.Frame]]
        var snapshots: [String: String]
        var players: [String]
        var turns: [String]
        var strokeLogs: [String]
    }

    static func store(_ changes: [PersistenceWriter.Change]) throws -> Stored {
        let database = try GameDatabase(path: temporaryDatabasePath())
        try database.pool.write { db in try PersistenceWriter.apply(changes, to: db, retention: 100) }
        let state = try database.load()
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return try database.pool.read { db in
            Stored(
                rooms: Dictionary(uniqueKeysWithValues: state.rooms.map { ($0.snapshot.code, $0.frames) }),
                snapshots: Dictionary(uniqueKeysWithValues: try state.rooms.map { ($0.snapshot.code, String(decoding: try encoder.encode($0.snapshot), as: UTF8.self)) }),
                players: try String.fetchAll(db, sql: "SELECT id || ' ' || name FROM player ORDER BY id"),
                turns: try String.fetchAll(db, sql: "SELECT room_code || ' ' || game || ' ' || turn || ' ' || word || ' ' || scores FROM turn ORDER BY id"),
                strokeLogs: try String.fetchAll(db, sql: "SELECT strokes FROM turn ORDER BY id")
            )
        }
    }

    @Test func droppingWhatLaterChangesReplaceStoresTheSameState() throws {
        let changes = Self.history()
        var held = HeldChanges()
        held.append(changes, at: 0)
        let before = held.bytes
        let result = held.collapse(limit: .max)
        #expect(result.supersededChanges > 0 && result.compactedTurns == 0 && result.emptiedTurns == 0)
        #expect(held.bytes < before / 2, "most of a busy history is superseded: \(held.bytes) of \(before) bytes left")
        #expect(held.bytes == held.items.reduce(0) { $0 + $1.bytes }, "the byte count follows the items")
        let full = try Self.store(changes)
        let collapsed = try Self.store(held.changesForCommit(now: 0))
        #expect(full == collapsed)
        #expect(full.rooms["AAAAAA"]?.isEmpty == false, "the scenario leaves a canvas to compare")
        #expect(full.rooms.keys.sorted() == ["AAAAAA", "BBBBBB"])
    }

    /// Each stored room's canvas, rendered.
    static func pictures(_ stored: Stored) throws -> [String: Raster] {
        try stored.rooms.mapValues { Renderer.render(try StrokeLog(size: .standard, frames: $0).drawing()) }
    }

    @Test func overTheBoundCanvasesThenTurnsKeepTheirPictureThenTurnsLoseTheirLogsOldestFirst() throws {
        let changes = Self.history()
        var held = HeldChanges()
        held.append(changes, at: 0)
        var superseded = held
        _ = superseded.collapse(limit: .max)
        // Just under what step 1 leaves: the canvases begun while held are compacted.
        var canvases = held
        let first = canvases.collapse(limit: superseded.bytes - 1)
        #expect(first.compactedCanvases == 2 && first.compactedTurns == 0, "both rooms' current canvases began while held: \(first)")
        // Just under that: the turns are compacted too, none emptied.
        var compacted = held
        let result = compacted.collapse(limit: canvases.bytes - 1)
        #expect(result.compactedTurns == changes.count(where: { if case .turn = $0 { true } else { false } }) && result.emptiedTurns == 0)
        #expect(result.bytesAfter < canvases.bytes)
        let full = try Self.store(changes)
        let kept = try Self.store(compacted.changesForCommit(now: 0))
        #expect(kept.snapshots == full.snapshots && kept.turns == full.turns)
        #expect(try Self.pictures(kept) == Self.pictures(full), "the canvases look the same")
        for (original, small) in zip(full.strokeLogs, kept.strokeLogs) {
            let a = try StrokeLog(ndjson: original).drawing()
            let b = try StrokeLog(ndjson: small).drawing()
            #expect(Renderer.render(a) == Renderer.render(b), "a compacted turn keeps its picture")
            #expect(small.utf8.count <= original.utf8.count)
        }
        // A bound below the live state: every turn log goes, the live state stays.
        var tight = held
        let squeezed = tight.collapse(limit: 1)
        #expect(squeezed.emptiedTurns > 0)
        let minimal = try Self.store(tight.changesForCommit(now: 0))
        #expect(minimal.snapshots == full.snapshots && minimal.turns == full.turns)
        #expect(try Self.pictures(minimal) == Self.pictures(full))
        #expect(minimal.strokeLogs.allSatisfy { try! StrokeLog(ndjson: $0).frames.isEmpty })
    }

    @Test func aCanvasBegunWhileHeldIsCompactedToItsPictureAndLaterFramesStillApply() throws {
        var recorder = Recorder("KKKKKK")
        recorder.playTurn(strokes: 10)  // a held snapshot at the first canvas comes first
        recorder.draw(strokes: 60)
        var cursor = StrokeCursor()
        let color = RGB(r: 10, g: 120, b: 200)
        recorder.send(FrameCodec.encode([.begin(tool: .pen, color: color, width: 9, at: Point(x: 100, y: 100)), .points([Point(x: 400, y: 380)])], cursor: &cursor))
        var held = HeldChanges()
        held.append(recorder.changes, at: 0)
        var superseded = held
        _ = superseded.collapse(limit: .max)
        let result = held.collapse(limit: superseded.bytes - 1)
        #expect(result.compactedCanvases == 1 && result.compactedTurns == 0, "\(result)")
        #expect(held.bytes < superseded.bytes)
        // The open stroke goes on after the collapse, behind the compacted frames.
        let collapsedAt = recorder.changes.count
        recorder.send(FrameCodec.encode([.points([Point(x: 700, y: 90)]), .end], cursor: &cursor))
        recorder.draw(strokes: 3)
        held.append(Array(recorder.changes[collapsedAt...]), at: 0)
        let full = try Self.store(recorder.changes)
        let kept = try Self.store(held.changesForCommit(now: 0))
        #expect(kept.snapshots == full.snapshots && kept.turns == full.turns)
        let (all, compacted) = (try #require(full.rooms["KKKKKK"]), try #require(kept.rooms["KKKKKK"]))
        #expect(compacted.count < all.count, "\(compacted.count) frames instead of \(all.count)")
        let picture = try StrokeLog(size: .standard, frames: all).drawing()
        #expect(Renderer.render(try StrokeLog(size: .standard, frames: compacted).drawing()) == Renderer.render(picture))
        #expect(Renderer.render(recorder.room.drawing) == Renderer.render(picture), "what is stored is the room's canvas")
    }

    @Test func aCanvasThatMayHaveStoredFramesIsNotCompacted() {
        var recorder = Recorder("LLLLLL")
        recorder.draw(strokes: 60)  // no older snapshot held: frames of this canvas may be stored
        var held = HeldChanges()
        held.append(Array(recorder.changes.suffix(40)), at: 0)
        #expect(held.collapse(limit: 1).compactedCanvases == 0)
    }

    @Test func aHeldSnapshotIsAgedByTheTimeItWaited() throws {
        var recorder = Recorder("CCCCCC")
        if let drawer = recorder.room.drawer { recorder.record(recorder.room.handle(.choose(index: 0), from: drawer, now: recorder.now)) }
        guard case .room(let snapshot)? = recorder.changes.last else {
            Issue.record("no snapshot")
            return
        }
        var held = HeldChanges()
        held.append([.room(snapshot)], at: 10_000)
        guard case .room(let aged)? = held.changesForCommit(now: 25_000).first else {
            Issue.record("no snapshot to commit")
            return
        }
        #expect(aged.phase.remainingMs == snapshot.phase.remainingMs - 15_000)
        #expect(aged.phase.elapsedMs == (snapshot.phase.elapsedMs ?? 0) + 15_000)
    }
}
