import Canvas
import DrawProtocol
import Rooms

/// A bot player as a pure state machine: it is given exactly what a player's connection
/// receives (the server's text messages and binary drawing frames) with the current time,
/// and answers with actions for its driver: messages and frames to send, and when to
/// wake it. No I/O, no clock, randomness from its own seed: the same inputs at the same
/// times give the same actions, over any transport.
///
/// It never sees the word as a guesser: it guesses from the mask, the hints, the words of
/// the room's language that fit them, what others guessed wrong, a `close` answer, and a
/// drawing it recognises (one of its library's drawings being replayed). As the drawer it
/// picks a word it has a drawing for and replays that drawing, its pace fitted to the
/// draw time.
public struct BotBrain: Sendable {
    public let level: BotLevel
    /// Its own id: given, or learnt from `welcome`.
    public private(set) var playerID: PlayerID?
    let style: BotStyle
    let library: BotLibrary
    var rng: SeededRandom

    var language = WordLanguage.defaultCode
    var canvas = CanvasSize.standard
    var phase = GamePhase.lobby
    /// Asked to be ready in this lobby visit already.
    var readied = false
    var turn = TurnState.idle
    /// Chat lines waiting for their moment.
    var chats: [(at: Timestamp, text: String)] = []
    /// The wake time last asked for.
    var requestedWake: Timestamp?

    enum TurnState: Sendable {
        case idle
        /// Chooses `index` at `at`; `drawable` false: it has no drawing of any offered word.
        case choosing(index: Int, at: Timestamp, drawable: Bool)
        case drawing(DrawPlan)
        case guessing(GuessPlan)
    }

    struct DrawPlan: Sendable {
        var frames: [(at: Timestamp, bytes: [UInt8])]
        var next = 0
        /// No drawing for this word (or another canvas size): skip the turn then.
        var skipAt: Timestamp?
    }

    struct GuessPlan: Sendable {
        var mask: String
        var candidates: [String]
        var tried: Set<String> = []
        var nextAt: Timestamp
        var done = false
        /// The canvas bytes of this turn so far (until a drawing is recognised).
        var canvas: [UInt8] = []
        var recognised: String?
    }

    /// - Parameter style: how it plays; the level's (`BotStyle.forLevel`) unless a balance
    ///   measurement tries another.
    public init(level: BotLevel, seed: UInt64, library: BotLibrary, playerID: PlayerID? = nil, style: BotStyle? = nil) {
        self.level = level
        self.style = style ?? .forLevel(level)
        self.library = library
        self.rng = SeededRandom(seed: seed)
        self.playerID = playerID
    }

    // MARK: - Inputs

    /// A text message from the server.
    public mutating func receive(text: String, now: Timestamp) -> [BotAction] {
        guard case .object(let m)? = JSONValue.parse(Array(text.utf8)), case .string(let type)? = m["t"] else { return [] }
        var out: [BotAction] = []
        switch type {
        case "welcome":
            if case .string(let id)? = m["playerId"] { playerID = PlayerID(id) }
        case "room":
            out += roomChanged(m, now: now)
        case "joined":
            if case .object(let p)? = m["player"], p["bot"] != .bool(true), p["id"] != playerID.map({ .string($0.rawValue) }) {
                sayMaybe(.greeting, now: now, delay: 800...2_500)
            }
        case "choose":
            out += chooseWord(m, now: now)
        case "turn":
            startTurn(m, now: now)
        case "hint":
            if case .string(let mask)? = m["mask"] { hintArrived(mask) }
        case "close":
            if case .string(let text)? = m["text"] { closeGuess(text, now: now) }
        case "guessed":
            if case .string(let id)? = m["playerId"], PlayerID(id) == playerID, case .guessing(var plan) = turn {
                plan.done = true
                turn = .guessing(plan)
                sayMaybe(.guessedIt, now: now, delay: 600...1_500)
            }
        case "chat":
            if case .string(let from)? = m["from"], PlayerID(from) != playerID, case .string(let text)? = m["text"] {
                othersGuessed(text)
            }
        case "turnEnd":
            turn = .idle
        case "gameEnd":
            turn = .idle
            sayMaybe(.gameOver, now: now, delay: 1_000...3_000)
        case "kicked", "closed":
            turn = .idle
            chats.removeAll()
        default:
            break
        }
        return finish(out, now: now)
    }

    /// A binary drawing frame (frames may arrive merged).
    public mutating func receive(binary bytes: [UInt8], now: Timestamp) -> [BotAction] {
        guard case .guessing(var plan) = turn, plan.recognised == nil, !plan.done else { return [] }
        if plan.canvas.count < BotLibrary.openingLength {
            plan.canvas += bytes.prefix(BotLibrary.openingLength - plan.canvas.count)
            if let word = library.recognise(plan.canvas, language: language), MaskPattern.fits(word, mask: plan.mask) {
                plan.recognised = word
            }
        }
        turn = .guessing(plan)
        return []
    }

    /// Time passed: does what is due.
    public mutating func wake(now: Timestamp) -> [BotAction] {
        var out: [BotAction] = []
        switch turn {
        case .idle:
            break
        case .choosing(let index, let at, _):
            if at <= now { out.append(.send(#"{"t":"choose","index":\#(index)}"#)) }
        case .drawing(var plan):
            if let skipAt = plan.skipAt {
                if skipAt <= now {
                    out.append(.send(#"{"t":"skip"}"#))
                    plan.skipAt = nil
                }
            } else {
                while plan.next < plan.frames.count, plan.frames[plan.next].at <= now {
                    out.append(.sendBinary(plan.frames[plan.next].bytes))
                    plan.next += 1
                }
            }
            turn = .drawing(plan)
        case .guessing(var plan):
            if !plan.done, plan.nextAt <= now {
                if let guess = nextGuess(&plan) {
                    plan.tried.insert(GuessNormalizer.normalize(guess))
                    out.append(.send(Self.message("guess", text: guess)))
                }
                plan.nextAt = now + Int.random(in: style.guessInterval, using: &rng)
            }
            turn = .guessing(plan)
        }
        if case .choosing(_, let at, _) = turn, at <= now { turn = .idle }
        while let first = chats.first, first.at <= now {
            chats.removeFirst()
            out.append(.send(Self.message("chat", text: first.text)))
        }
        return finish(out, now: now)
    }

    // MARK: - Steps

    mutating func roomChanged(_ m: [String: JSONValue], now: Timestamp) -> [BotAction] {
        if case .object(let settings)? = m["settings"], case .string(let code)? = settings["language"] { language = code }
        if case .object(let c)? = m["canvas"], case .number(let w)? = c["w"], case .number(let h)? = c["h"] {
            canvas = CanvasSize(width: Int(w), height: Int(h))
        }
        if case .string(let raw)? = m["phase"], let parsed = GamePhase(rawValue: raw) {
            if parsed == .lobby && phase != .lobby { readied = false }
            phase = parsed
        }
        // A bot joined as an outside client readies itself once per lobby visit.
        guard phase == .lobby, !readied, let me = playerID, case .array(let players)? = m["players"] else { return [] }
        for case .object(let p) in players where p["id"] == .string(me.rawValue) && p["ready"] == .bool(false) {
            readied = true
            return [.send(#"{"t":"ready","ready":true}"#)]
        }
        return []
    }

    mutating func startTurn(_ m: [String: JSONValue], now: Timestamp) {
        guard case .string(let drawer)? = m["drawer"], case .string(let mask)? = m["mask"] else { return }
        var remaining = 60_000
        if case .number(let ms)? = m["remainingMs"] { remaining = max(1_000, Int(ms)) }
        if PlayerID(drawer) == playerID {
            var word: String?
            if case .string(let w)? = m["word"] { word = w }
            turn = .drawing(drawPlan(word: word, remaining: remaining, now: now))
            return
        }
        let candidates = WordList.words(for: language).filter { MaskPattern.fits($0, mask: mask) }
        let first = Double.random(in: style.firstGuess, using: &rng)
        turn = .guessing(GuessPlan(mask: mask, candidates: candidates, nextAt: now + Int(Double(remaining) * first)))
    }

    mutating func sayMaybe(_ moment: BotPhrases.Moment, now: Timestamp, delay: ClosedRange<Int>, chance: Double? = nil) {
        guard Double.random(in: 0..<1, using: &rng) < (chance ?? style.chattiness) else { return }
        let lines = BotPhrases.lines(moment, language: language)
        guard !lines.isEmpty else { return }
        let at = now + Int.random(in: delay, using: &rng)
        chats.append((at, lines[rng.uniformIndex(below: lines.count)]))
        chats.sort { $0.at < $1.at }
    }

    /// Appends a wake request when the earliest due time changed.
    mutating func finish(_ actions: [BotAction], now: Timestamp) -> [BotAction] {
        var out = actions
        let due = nextDue
        if let due, due != requestedWake {
            out.append(.wake(at: max(due, now)))
        }
        requestedWake = due
        return out
    }

    /// The earliest time something is due.
    var nextDue: Timestamp? {
        var times = chats.map(\.at)
        switch turn {
        case .idle: break
        case .choosing(_, let at, _): times.append(at)
        case .drawing(let plan):
            if let skipAt = plan.skipAt { times.append(skipAt) } else if plan.next < plan.frames.count { times.append(plan.frames[plan.next].at) }
        case .guessing(let plan): if !plan.done { times.append(plan.nextAt) }
        }
        return times.min()
    }

    static func message(_ type: String, text: String) -> String {
        "{\"t\":\"\(type)\",\"text\":\(StrokeLog.jsonString(text))}"
    }
}
