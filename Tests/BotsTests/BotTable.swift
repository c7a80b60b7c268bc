import Bots
import Canvas
import DrawProtocol
import Rooms

/// A room and its bots' brains on a virtual clock, wired as the server wires them: every
/// message a bot's connection would get is given to its brain as JSON text, drawing
/// frames as bytes; what the brains answer goes back into the room. Keeps a transcript
/// of everything sent, with times, to compare runs.
struct BotTable {
    var room: Room
    var brains: [PlayerID: BotBrain] = [:]
    var wakes: [PlayerID: Timestamp] = [:]
    var now = Timestamp(milliseconds: 1_000)
    var transcript: [String] = []
    var host = PlayerID("host")
    var seed: UInt64
    /// Actions waiting to be carried out, in order (as the runner defers them).
    var pending: [(PlayerID, BotAction)] = []
    /// Styles to play instead of the levels' own (balance measurements).
    var styles: [BotLevel: BotStyle] = [:]
    /// Off for long measurements: the transcript's strings cost more than the game.
    var keepsTranscript = true
    /// Every message the host was sent, in order (a simulated person reads them).
    var heardByHost: [ServerMessage] = []

    init(seed: UInt64, settings: RoomSettings = RoomSettings(), configuration: RoomConfiguration = RoomConfiguration(), library: BotLibrary = .samples) {
        self.seed = seed
        room = Room(code: RoomCode(parsing: "BTSXYZ")!, name: "bots", isPublic: false, settings: settings, configuration: configuration, seed: seed)
        room.botVocabulary = library.vocabulary
        room.drawingIDs = .seeded(seed)
        self.library = library
    }

    let library: BotLibrary

    /// A person hosts and spectates; `levels` bots play.
    mutating func seat(_ levels: [BotLevel]) {
        apply(try! room.join(host, name: "Host", now: now).get())
        for level in levels { apply(room.handle(.addBot(level: level), from: host, now: now)) }
        // Spectating last: with only ready bots seated, the game starts at once.
        apply(room.handle(.spectate(true), from: host, now: now))
        settle()
    }

    mutating func apply(_ effects: [RoomEffect]) {
        for effect in effects {
            switch effect {
            case .send(let message, let audience):
                if keepsTranscript { transcript.append("\(now.milliseconds) \(audience) \(message.jsonString)") }
                if recipients(audience).contains(host) { heardByHost.append(message) }
                for id in recipients(audience) where brains[id] != nil {
                    let actions = brains[id]!.receive(message, now: now)
                    pending += actions.map { (id, $0) }
                }
            case .sendDrawing(let frames, let id):
                for frame in frames where brains[id] != nil {
                    pending += brains[id]!.receive(binary: frame, now: now).map { (id, $0) }
                }
            case .botSeated(let id, let level):
                var mixer = SeededRandom(seed: seed ^ UInt64(truncatingIfNeeded: id.rawValue.hashValueStable))
                brains[id] = BotBrain(level: level, seed: mixer.next(), library: library, playerID: id, style: styles[level])
            case .released(let id):
                brains[id] = nil
                wakes[id] = nil
            case .turnFinished(let record):
                transcript.append("\(now.milliseconds) turnFinished \(record.word) \(record.reason) \(record.strokes.frames.count) frames")
            case .gameFinished, .turnRated:
                break
            }
        }
    }

    /// Carries out the brains' actions until none are left.
    mutating func settle() {
        while !pending.isEmpty {
            let (id, action) = pending.removeFirst()
            guard brains[id] != nil else { continue }
            switch action {
            case .send(let message):
                transcript.append("\(now.milliseconds) \(id) says \(message.jsonString)")
                apply(room.handle(message, from: id, now: now))
            case .sendBinary(let bytes):
                if case .relay(let sender, _) = room.draw(frame: bytes, from: id, now: now) {
                    for other in brains.keys.sorted() where other != sender {
                        pending += brains[other]!.receive(binary: bytes, now: now).map { (other, $0) }
                    }
                } else {
                    transcript.append("\(now.milliseconds) \(id) frame refused")
                }
            case .wake(let at):
                wakes[id] = at
            }
        }
    }

    /// Runs the clock, room timers and bot wake-ups, until `done` or `limitMs` passed.
    mutating func run(limitMs: Int, until done: (BotTable) -> Bool) {
        let end = now + limitMs
        while !done(self) {
            let roomDue = room.nextDeadline
            let botDue = wakes.min { a, b in a.value != b.value ? a.value < b.value : a.key < b.key }
            guard let next = [roomDue, botDue?.value].compactMap({ $0 }).min(), next <= end else { return }
            now = max(now, next)
            if let roomDue, roomDue <= now {
                apply(room.tick(now: now))
            } else if let (id, _) = botDue {
                wakes[id] = nil
                pending += (brains[id]?.wake(now: now) ?? []).map { (id, $0) }
            }
            settle()
        }
    }

    func recipients(_ audience: Audience) -> [PlayerID] {
        let ids = room.members.map(\.id)
        return switch audience {
        case .player(let id): ids.contains(id) ? [id] : []
        case .everyone: ids
        case .everyoneExcept(let excluded): ids.filter { $0 != excluded }
        case .players(let listed): listed.filter(ids.contains)
        }
    }
}

extension String {
    /// FNV-1a: stable across runs, unlike `hashValue`.
    var hashValueStable: UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return hash
    }
}
