import Bots
import Canvas
import DrawProtocol
import Foundation
import Rooms

/// One person (`model`) and bots of one level in a room on virtual time, as `BotTable`
/// plays bots: a whole game, then the scores.
struct BalanceMatch {
    struct Outcome: Sendable {
        var person: Int
        var bots: [Int]
        /// The person scored at least as much as every bot.
        var personWon: Bool { bots.allSatisfy { person >= $0 } }
    }

    var table: BotTable
    let model: PersonModel
    var rng: SeededRandom
    var personDue: [(at: Timestamp, action: PersonAction)] = []
    var seen = 0

    enum PersonAction {
        case send(ClientMessage)
        case draw([UInt8])
    }

    init(level: BotLevel, bots: Int, seed: UInt64, model: PersonModel = .attentive, style: BotStyle? = nil) {
        var settings = RoomSettings()
        settings.rounds = 3
        table = BotTable(seed: seed, settings: settings)
        table.keepsTranscript = false
        if let style { table.styles[level] = style }
        self.model = model
        rng = SeededRandom(seed: seed &+ 0x9E37_79B9)
        table.apply(try! table.room.join(table.host, name: "Person", now: table.now).get())
        for _ in 0..<bots { table.apply(table.room.handle(.addBot(level: level), from: table.host, now: table.now)) }
        table.settle()
    }

    /// Plays one game to its end.
    mutating func play() -> Outcome {
        table.apply(table.room.handle(.ready(true), from: table.host, now: table.now))
        table.settle()
        let end = table.now + 60 * 60_000
        while table.room.phase != .gameEnd {
            hear()
            let roomDue = table.room.nextDeadline
            let botDue = table.wakes.min { a, b in a.value != b.value ? a.value < b.value : a.key < b.key }
            let person = personDue.first?.at
            guard let next = [roomDue, botDue?.value, person].compactMap({ $0 }).min(), next <= end else { break }
            table.now = max(table.now, next)
            if let person, person <= table.now {
                let action = personDue.removeFirst().action
                switch action {
                case .send(let message): table.apply(table.room.handle(message, from: table.host, now: table.now))
                case .draw(let frame):
                    if case .relay(let sender, _) = table.room.draw(frame: frame, from: table.host, now: table.now) {
                        for other in table.brains.keys.sorted() where other != sender {
                            table.pending += table.brains[other]!.receive(binary: frame, now: table.now).map { (other, $0) }
                        }
                    }
                }
            } else if let roomDue, roomDue <= table.now {
                table.apply(table.room.tick(now: table.now))
            } else if let (id, _) = botDue {
                table.wakes[id] = nil
                table.pending += (table.brains[id]?.wake(now: table.now) ?? []).map { (id, $0) }
            }
            table.settle()
        }
        let scores = Dictionary(uniqueKeysWithValues: table.room.members.map { ($0.id, $0.score) })
        return Outcome(person: scores[table.host] ?? 0, bots: table.room.members.filter(\.isBot).map(\.score))
    }

    /// What the person was sent since last time (read from the transcript's room effects).
    private mutating func hear() {
        while seen < table.heardByHost.count {
            let message = table.heardByHost[seen]
            seen += 1
            react(to: message)
        }
    }

    private mutating func react(to message: ServerMessage) {
        let now = table.now
        switch message {
        case .choose:
            personDue.append((now + 2_500, .send(.choose(index: 0))))
        case .turn(let drawer, _, _, let remaining, _):
            if drawer == table.host {
                personDue += scribble(over: Int(Double(remaining) * model.drawShare), from: now)
            } else if Double.random(in: 0..<1, using: &rng) >= model.missRate {
                let word = table.room.strokeLog.word ?? ""
                let at = now + Int(Double(remaining) * Double.random(in: model.recognises, using: &rng))
                personDue.append((at, .send(.guess(word))))
            }
        case .turnEnd, .gameEnd:
            personDue.removeAll()
        default:
            return
        }
        personDue.sort { $0.at < $1.at }
    }

    /// Strokes no bot knows, spread over `span` milliseconds.
    private mutating func scribble(over span: Int, from now: Timestamp) -> [(at: Timestamp, action: PersonAction)] {
        var cursor = StrokeCursor()
        let strokes = 24
        return (0..<strokes).map { i in
            let start = Point(x: Int32(rng.uniformIndex(below: 780) + 10), y: Int32(rng.uniformIndex(below: 580) + 10))
            let end = Point(x: Int32(rng.uniformIndex(below: 780) + 10), y: Int32(rng.uniformIndex(below: 580) + 10))
            let bytes = FrameCodec.encode([.begin(tool: .pen, color: .black, width: 5, at: start), .points([end]), .end], cursor: &cursor)
            return (now + 800 + span * i / strokes, .draw(bytes))
        }
    }
}
