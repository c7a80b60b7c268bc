import Canvas
import DrawProtocol
import Foundation
import NIOCore
import Rooms

/// Changes that failed to commit for a reason that can pass, in order, with what they cost,
/// until a commit takes them all. A pure value: the writer appends every batch behind the
/// held ones and commits the whole list in one transaction, so the order holds.
///
/// When the bound is reached, `collapse` makes room, in four steps, each only if the one
/// before was not enough (see docs/PERSISTENCE.md, "Storage faults"):
/// 1. What a later change replaces is dropped: earlier snapshots of a room (each is the whole
///    room), earlier records of a player, heartbeats, and the drawing frames of a canvas the
///    room has since left (a later snapshot at a newer canvas generation, or the room's
///    close, deletes them anyway). Restoring gives the same state as with the full list.
/// 2. A room's current canvas whose every frame is held (the room moved to it after the
///    fault began) is replaced by its compacted drawing, the frames a late joiner gets:
///    the same pixels and open stroke, without the timing.
/// 3. Finished turns' stroke logs are compacted to their final picture in the same way.
/// 4. Finished turns' stroke logs are emptied, oldest first, down to three quarters of the
///    bound (the turn's word, drawer and scores are kept).
/// The rooms' current state (snapshot and current canvas's frames) is never dropped: it is
/// bounded by the number of rooms, and new rooms are refused meanwhile.
struct HeldChanges: Sendable {
    struct Item: Sendable {
        var change: PersistenceWriter.Change
        var bytes: Int
        /// Wall-clock milliseconds when it was held: a room's snapshot is aged by the time
        /// it waited, as a restart after a crash would age it.
        var heldAt: Int64
        /// A turn whose stroke log was already compacted or emptied.
        var shrunk = false
    }

    /// What a collapse did, for the log.
    struct Collapse: Sendable, Equatable {
        var bytesBefore = 0
        var bytesAfter = 0
        var supersededChanges = 0
        var compactedCanvases = 0
        var compactedTurns = 0
        var emptiedTurns = 0
    }

    private(set) var items: [Item] = []
    private(set) var bytes = 0
    /// Rooms whose canvas at this generation began while held: every frame of it is here
    /// (a held snapshot at an older generation, or a close, came before it).
    private var wholeCanvases: [String: Int] = [:]

    var isEmpty: Bool { items.isEmpty }
    var count: Int { items.count }

    init() {}

    init(_ changes: [PersistenceWriter.Change], at now: Int64) {
        append(changes, at: now)
    }

    /// The rooms the held changes write.
    var rooms: Set<RoomCode> { Set(items.lazy.compactMap(\.change.room)) }

    mutating func append(_ changes: [PersistenceWriter.Change], at now: Int64) {
        items.reserveCapacity(items.count + changes.count)
        for change in changes {
            // Held frames are single changes: a collapse drops or compacts them one by one.
            if case .strokes(let room, let runs) = change {
                for run in runs {
                    for frame in (try? PackedFrames.unpack(Array(run.packed.readableBytesView))) ?? [] {
                        hold(.frame(room: room, generation: run.generation, frame: frame), at: now)
                    }
                }
                continue
            }
            hold(change, at: now)
        }
    }

    private mutating func hold(_ change: PersistenceWriter.Change, at now: Int64) {
        let size = Self.bytes(of: change)
        items.append(Item(change: change, bytes: size, heldAt: now))
        bytes += size
    }

    /// Puts `changes` in front of the held ones: they are older (a batch's changes the
    /// backend deferred).
    mutating func prepend(_ changes: [PersistenceWriter.Change], at now: Int64) {
        guard !changes.isEmpty else { return }
        var older = HeldChanges(changes, at: now)
        older.items += items
        older.bytes += bytes
        older.wholeCanvases = wholeCanvases
        self = older
    }

    mutating func removeAll() {
        items.removeAll()
        bytes = 0
        wholeCanvases = [:]
    }

    /// The changes to commit at `now`: snapshots aged by the time they were held.
    func changesForCommit(now: Int64) -> [PersistenceWriter.Change] {
        items.map { item in
            guard case .room(let snapshot) = item.change, now > item.heldAt else { return item.change }
            return .room(snapshot.advanced(byMs: Int(min(now - item.heldAt, 86_400_000))))
        }
    }

    // MARK: - Collapse

    mutating func collapse(limit: Int, canvas: CanvasSize = .standard) -> Collapse {
        var report = Collapse(bytesBefore: bytes)
        report.supersededChanges = dropSuperseded()
        if bytes > limit { report.compactedCanvases = compactCanvases(size: canvas) }
        if bytes > limit { report.compactedTurns = compactTurns() }
        if bytes > limit { report.emptiedTurns = emptyTurns(downTo: limit / 4 * 3) }
        report.bytesAfter = bytes
        return report
    }

    /// Step 1: walks back from the newest change, keeping what is still needed.
    private mutating func dropSuperseded() -> Int {
        var closed: Set<String> = []
        var snapshotGeneration: [String: Int] = [:]
        var players: Set<String> = []
        var heartbeat = false
        var whole: Set<String> = []
        var keep = [Bool](repeating: true, count: items.count)
        for index in items.indices.reversed() {
            switch items[index].change {
            case .room(let snapshot):
                // The newest snapshot of each incarnation of the room is kept; one before a
                // later close of the room is dead (the close deletes the room).
                if closed.contains(snapshot.code) || snapshotGeneration[snapshot.code] != nil {
                    keep[index] = false
                    if !closed.contains(snapshot.code), let newest = snapshotGeneration[snapshot.code], snapshot.canvasGeneration < newest {
                        whole.insert(snapshot.code)
                    }
                } else {
                    snapshotGeneration[snapshot.code] = snapshot.canvasGeneration
                }
            case .frame(let room, let generation, _):
                if closed.contains(room.rawValue) {
                    keep[index] = false
                } else if let current = snapshotGeneration[room.rawValue], generation < current {
                    keep[index] = false
                }
            case .roomClosed(let code):
                // A room opened again after its close has no stored frames but held ones.
                if !closed.contains(code.rawValue), snapshotGeneration[code.rawValue] != nil { whole.insert(code.rawValue) }
                closed.insert(code.rawValue)
            case .player(let record):
                if !players.insert(record.id.rawValue).inserted { keep[index] = false }
            case .heartbeat:
                if heartbeat { keep[index] = false }
                heartbeat = true
            case .turn, .game, .turnRated, .flushed, .strokes:
                break
            }
        }
        var dropped = 0
        var kept: [Item] = []
        kept.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            if keep[index] {
                kept.append(item)
            } else {
                dropped += 1
                bytes -= item.bytes
            }
        }
        items = kept
        // A canvas known whole in an earlier collapse stays whole at any later generation.
        var wholeNow: [String: Int] = [:]
        for (code, generation) in snapshotGeneration {
            if whole.contains(code) || (wholeCanvases[code].map { $0 <= generation } ?? false) { wholeNow[code] = generation }
        }
        wholeCanvases = wholeNow
        return dropped
    }

    /// Step 2.
    private mutating func compactCanvases(size: CanvasSize) -> Int {
        var compacted = 0
        for (code, generation) in wholeCanvases {
            let indices = items.indices.filter {
                if case .frame(let room, let g, _) = items[$0].change { room.rawValue == code && g == generation } else { false }
            }
            guard indices.count > 1, let first = indices.first else { continue }
            var drawing = Drawing(size: size)
            var at = 0
            var held = 0
            do {
                for index in indices {
                    guard case .frame(_, _, let frame) = items[index].change else { continue }
                    _ = try drawing.apply(frame: frame.bytes)
                    at = frame.at
                    held += items[index].bytes
                }
            } catch {
                continue  // not a canvas this size can replay: leave it as it is
            }
            guard case .frame(let room, _, _) = items[first].change else { continue }
            let heldAt = items[first].heldAt
            let replacement = drawing.compactedFrames().map { bytes -> Item in
                let change = PersistenceWriter.Change.frame(room: room, generation: generation, frame: StrokeLog.Frame(at: at, bytes: bytes))
                return Item(change: change, bytes: Self.bytes(of: change), heldAt: heldAt)
            }
            let newBytes = replacement.reduce(0) { $0 + $1.bytes }
            guard newBytes < held else { continue }
            let removed = Set(indices)
            var rebuilt: [Item] = []
            rebuilt.reserveCapacity(items.count - indices.count + replacement.count)
            for (index, item) in items.enumerated() {
                if index == first { rebuilt += replacement }
                if !removed.contains(index) { rebuilt.append(item) }
            }
            items = rebuilt
            bytes += newBytes - held
            compacted += 1
        }
        return compacted
    }

    /// Step 3.
    private mutating func compactTurns() -> Int {
        var compacted = 0
        for index in items.indices where !items[index].shrunk {
            guard case .turn(var record) = items[index].change, let drawing = try? record.strokes.drawing() else { continue }
            let at = record.strokes.frames.last?.at ?? 0
            record.strokes.frames = drawing.compactedFrames().map { StrokeLog.Frame(at: at, bytes: $0) }
            replace(index, with: .turn(record))
            compacted += 1
        }
        return compacted
    }

    /// Step 4.
    private mutating func emptyTurns(downTo target: Int) -> Int {
        var emptied = 0
        for index in items.indices where bytes > target {
            guard case .turn(var record) = items[index].change, !record.strokes.frames.isEmpty else { continue }
            record.strokes.frames = []
            replace(index, with: .turn(record))
            emptied += 1
        }
        return emptied
    }

    private mutating func replace(_ index: Int, with change: PersistenceWriter.Change) {
        let size = Self.bytes(of: change)
        bytes += size - items[index].bytes
        items[index].change = change
        items[index].bytes = size
        items[index].shrunk = true
    }

    // MARK: - Sizes

    /// Roughly what a change costs to hold: its payload bytes plus a fixed overhead.
    static func bytes(of change: PersistenceWriter.Change) -> Int {
        let overhead = 32
        switch change {
        case .frame(_, _, let frame):
            return overhead + frame.bytes.count
        case .strokes(_, let runs):
            return overhead + runs.reduce(0) { $0 + $1.packed.readableBytes + 16 * $1.frames }
        case .room(let snapshot):
            return overhead + ((try? JSONEncoder().encode(snapshot).count) ?? 4_096)
        case .player(let record):
            return overhead + 64 + record.name.utf8.count + record.tokenHash.utf8.count
        case .turn(let record):
            return overhead + 128 + record.word.utf8.count + record.scores.count * 48
                + record.strokes.frames.reduce(0) { $0 + $1.bytes.count + 16 }
        case .game(let record):
            return overhead + 64 + record.ranking.count * 64
        case .turnRated:
            return overhead + 64
        case .roomClosed, .heartbeat, .flushed:
            return overhead
        }
    }
}
