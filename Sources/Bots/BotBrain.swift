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

    /// A text message from the server, as a client receives it; one this version cannot
    /// decode is ignored.
    public mutating func receive(text: String, now: Timestamp) -> [BotAction] {
        guard let message = ServerMessage(text: text.utf8) else { return finish([], now: now) }
        return receive(message, now: now)
    }

    /// A message from the server (a bot inside the server gets it without the JSON).
    public mutating func receive(_ message: ServerMessage, now: Timestamp) -> [BotAction] {
        var out: [BotAction] = []
        switch message {
        case .welcome(let id, _, _, _, _):
            playerID = id
        case .room(let view):
            out += roomChanged(view, now: now)
        case .joined(let player):
            if !player.bot, player.id != playerID {
                sayMaybe(.greeting, now: now, delay: 800...2_500)
            }
        case .choose(let words, let remainingMs):
            out += chooseWord(words, remainingMs: remainingMs, now: now)
        case .turn(let drawer, _, let mask, let remainingMs, let word):
            startTurn(drawer: drawer, mask: mask, remainingMs: remainingMs, word: word, now: now)
        case .hint(let mask):
            hintArrived(mask)
        case .close(let text):
            closeGuess(text, now: now)
        case .guessed(let id, _, _):
            if id == playerID, case .guessing(var plan) = turn {
                plan.done = true
                turn = .guessing(plan)
                sayMaybe(.guessedIt, now: now, delay: 600...1_500)
            }
        case .chat(let from, _, let text):
            if from != playerID { othersGuessed(text) }
        case .turnEnd:
            turn = .idle
        case .gameEnd:
            turn = .idle
            sayMaybe(.gameOver, now: now, delay: 1_000...3_000)
        case .kicked, .closed:
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
            if at <= now { out.append(.send(.choose(index: index))) }
        case .drawing(var plan):
            if let skipAt = plan.skipAt {
                if skipAt <= now {
                    out.append(.send(.skip))
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
                    out.append(.send(.guess(guess)))
                }
                plan.nextAt = now + Int.random(in: style.guessInterval, using: &rng)
            }
            turn = .guessing(plan)
        }
        if case .choosing(_, let at, _) = turn, at <= now { turn = .idle }
        while let first = chats.first, first.at <= now {
            chats.removeFirst()
            out.append(.send(.chat(first.text)))
        }
        return finish(out, now: now)
    }

    // MARK: - Steps

    mutating func roomChanged(_ view: RoomView, now: Timestamp) -> [BotAction] {
        language = view.settings.language
        canvas = CanvasSize(width: view.canvasWidth, height: view.canvasHeight)
        if view.phase == .lobby && phase != .lobby { readied = false }
        phase = view.phase
        // A bot joined as an outside client readies itself once per lobby visit.
        guard phase == .lobby, !readied, let me = playerID,
              view.players.contains(where: { $0.id == me && !$0.ready }) else { return [] }
        readied = true
        return [.send(.ready(true))]
    }

    mutating func startTurn(drawer: PlayerID, mask: String, remainingMs: Int, word: String?, now: Timestamp) {
        let remaining = max(1_000, remainingMs)
        if drawer == playerID {
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
}
