import Canvas
import Foundation
import NIOCore

/// What every room of a run shares (immutable).
struct ReplayPlan: Sendable {
    var url: ReplayURL
    var players: Int
    var logs: [ReplayLog]
    var drawTimeSec: Int
    var rounds: Int
    /// How long after its pass the drawer waits before guessers that have not received
    /// everything guess anyway, so a loss cannot stall a room until the turn times out.
    var guessFallbackNanoseconds: UInt64 = 3_000_000_000
    /// Idle mode: connections only say hello.
    var idle = false
    /// Connections opening at once per event loop.
    var connectConcurrency = 64
}

/// The per-event-loop state of a run: counters and histograms that only this loop
/// touches, and a small limiter for opening connections.
final class LoopContext: @unchecked Sendable {
    let eventLoop: any EventLoop
    var counters = ReplayCounters()
    var latency = LatencyHistogram()
    var interval = LatencyHistogram()
    var sendLag = LatencyHistogram()
    /// Wakes this loop's drawers when their frames are due.
    let pacer: ReplayPacer
    /// Inside the measured window: rates, latencies and send lag are recorded only then.
    var measuring = false
    /// True once the run is ending: closes are expected.
    var stopping = false
    var openConnections = 0
    private var waiting: [ReplayClient] = []
    private var inFlight = 0
    let concurrency: Int
    let url: ReplayURL

    init(eventLoop: any EventLoop, url: ReplayURL, concurrency: Int) {
        self.eventLoop = eventLoop
        self.url = url
        self.concurrency = concurrency
        pacer = ReplayPacer(eventLoop: eventLoop)
    }

    /// Opens the client's connection when fewer than `concurrency` are being opened.
    func open(_ client: ReplayClient) {
        waiting.append(client)
        pump()
    }

    /// A connection attempt finished (either way).
    func opened() {
        inFlight -= 1
        pump()
    }

    private func pump() {
        while inFlight < concurrency, !waiting.isEmpty, !stopping {
            let client = waiting.removeFirst()
            inFlight += 1
            client.connection.open(url)
        }
    }

    /// The counters so far and the latencies since the last call (which are reset).
    func takeInterval() -> (ReplayCounters, LatencyHistogram, Int) {
        let histogram = interval
        interval.reset()
        return (counters, histogram, openConnections)
    }
}

/// One room of P clients on one event loop: all of them, and the room's shared state
/// (the ledgers of what the drawer sent, the word), live on that loop, so no locks.
final class ReplayRoom: @unchecked Sendable {
    let index: Int
    let plan: ReplayPlan
    let context: LoopContext
    private(set) var clients: [ReplayClient] = []
    private(set) var code: String?
    /// What each turn's drawer sent, by turn number; the last few are kept.
    private var ledgers: [Int: TurnLedger] = [:]
    private var word: String?
    private var drawer: ReplayClient?
    private var log: ReplayLog?
    private var passes = 0
    private var passStart: UInt64 = 0
    private var passDeadline: UInt64 = .max
    private var frameIndex = 0
    /// This room's slot in its loop's pacer, and the number of the pass it waits for
    /// (bumped when a pass stops, so a wake-up for an earlier one is ignored).
    private var pacerSlot: Int32 = 0
    private var pass: Int32 = 0
    private var fallback: Scheduled<Void>?
    private(set) var stopped = false
    /// Canvas size from the `room` message, for validating received frames.
    var canvas: CanvasSize

    init(index: Int, plan: ReplayPlan, context: LoopContext, clients count: Int) {
        self.index = index
        self.plan = plan
        self.context = context
        canvas = plan.logs.first?.size ?? .standard
        clients = (0..<count).map { ReplayClient(room: self, seat: $0) }
        pacerSlot = context.pacer.register(self)
    }

    var eventLoop: any EventLoop { context.eventLoop }

    /// Opens the host (or, idle, every client); the host's `create` brings in the others.
    func start() {
        if plan.idle {
            for client in clients { context.open(client) }
        } else {
            context.open(clients[0])
        }
    }

    /// The host's room exists: the other players join it by code.
    func created(code: String) {
        guard self.code == nil else { return }
        self.code = code
        for client in clients.dropFirst() { context.open(client) }
    }

    func ledger(for turn: Int) -> TurnLedger? { ledgers[turn] }

    // MARK: - The drawer's pass

    /// The drawer got its `turn`: replay the next log from now.
    func startPass(by client: ReplayClient, turn: Int, word: String?, remainingMs: Int?) {
        guard !stopped else { return }
        stopPass()
        drawer = client
        self.word = word
        let ledger = TurnLedger(turn: turn)
        ledgers[turn] = ledger
        ledgers = ledgers.filter { $0.key >= turn - 2 }
        let log = plan.logs[(index + passes) % plan.logs.count]
        passes += 1
        self.log = log
        frameIndex = 0
        passStart = NIODeadline.now().uptimeNanoseconds
        // Stop sending well before the turn's time runs out, so no frame races the
        // server's end of turn (it would be refused and look lost).
        if let remainingMs, remainingMs > 0 {
            passDeadline = passStart + UInt64(max(0, remainingMs - 1500)) * 1_000_000
        } else {
            passDeadline = .max
        }
        sendDue()
    }

    /// Sends every frame that is due, then sleeps until the next one.
    /// The pacer's wake-up: sends what is due, if still in the same pass.
    func paced(pass: Int32) {
        guard pass == self.pass else { return }
        sendDue()
    }

    private func sendDue() {
        guard !stopped, let drawer, let log, let ledger = ledgers[drawer.turn] else { return }
        let now = NIODeadline.now().uptimeNanoseconds
        while frameIndex < log.frames.count {
            let frame = log.frames[frameIndex]
            let due = passStart + frame.offset
            if due > passDeadline { break }
            if due > now {
                context.pacer.wake(slot: pacerSlot, pass: pass, at: due)
                return
            }
            ledger.append(frame.fingerprints, sentAt: now)
            drawer.connection.sendBinary(frame.buffer)
            context.counters.framesSent += 1
            context.counters.opsSent += frame.fingerprints.count
            if context.measuring {
                context.counters.windowOpsSent += frame.fingerprints.count
                context.sendLag.record(microseconds: (now - due) / 1000)
            }
            frameIndex += 1
        }
        passComplete(ledger)
    }

    private func passComplete(_ ledger: TurnLedger) {
        ledger.complete = true
        for client in clients where client !== drawer { checkGuess(client) }
        fallback?.cancel()
        let turn = ledger.turn
        fallback = eventLoop.scheduleTask(in: .nanoseconds(Int64(plan.guessFallbackNanoseconds))) { [self] in
            for client in clients where client !== drawer && client.turn == turn && client.canGuess {
                context.counters.guessFallbacks += 1
                client.guess(word)
            }
        }
    }

    /// A guesser guesses once the pass is complete and it has everything that was sent.
    func checkGuess(_ client: ReplayClient) {
        guard client.canGuess, let ledger = ledgers[client.turn], ledger.complete,
              client.matcher.hasReachedEnd(of: ledger) else { return }
        client.guess(word)
    }

    /// The drawer's turn ended (or the run stops).
    func stopPass() {
        pass &+= 1
        fallback?.cancel()
        fallback = nil
        drawer = nil
        log = nil
    }

    // MARK: - End of the run

    /// Drawers stop; guessers keep receiving what is in flight.
    func stop() {
        stopped = true
        stopPass()
    }

    /// True when every guesser has received everything sent in its current turn.
    var caughtUp: Bool {
        clients.allSatisfy { client in
            guard client.isWatchingTurn, let ledger = ledgers[client.turn] else { return true }
            return client.matcher.hasReachedEnd(of: ledger)
        }
    }

    /// Closes the books on the open turns and closes every connection.
    func finish() {
        for client in clients {
            client.finishTurn()
            client.connection.close()
        }
    }
}

/// One protocol client: plays whichever role the server gives it.
final class ReplayClient: ReplayPeer, @unchecked Sendable {
    unowned let room: ReplayRoom
    let seat: Int
    private(set) var connection: ReplayConnection!
    private(set) var playerID: String?
    /// `turn` messages seen: the key of the turn's ledger.
    private(set) var turn = 0
    private(set) var matcher = OpMatcher()
    private var cursor = StrokeCursor()
    private var ledger: TurnLedger?
    private var isDrawing = false
    /// A guesser of the current turn whose books are open.
    private(set) var isWatchingTurn = false
    private var guessed = false
    private var readySent = false
    private var wasConnected = false
    private var counted = false

    init(room: ReplayRoom, seat: Int) {
        self.room = room
        self.seat = seat
        connection = ReplayConnection(eventLoop: room.eventLoop, peer: self)
    }

    private var context: LoopContext { room.context }

    var canGuess: Bool { isWatchingTurn && !guessed }

    func guess(_ word: String?) {
        guard canGuess else { return }
        guessed = true
        connection.sendText(#"{"t":"guess","text":"# + Self.json(word ?? "?") + "}")
    }

    // MARK: - ReplayPeer

    func connected(_ connection: ReplayConnection) {
        wasConnected = true
        context.counters.connectionsOpened += 1
        context.openConnections += 1
        releaseSlot()
        let name = "r\(room.index)p\(seat)"
        connection.sendText(#"{"t":"hello","name":"# + Self.json(String(name.prefix(24))) + "}")
    }

    func closed(_ connection: ReplayConnection, code: Int?, error: (any Error)?) {
        if wasConnected {
            context.openConnections -= 1
        } else {
            releaseSlot()
        }
        guard !context.stopping, !connection.closing else { return }
        if wasConnected {
            context.counters.unexpectedCloses += 1
            context.counters.closeCodes[code.map(String.init) ?? "none", default: 0] += 1
        } else {
            context.counters.connectErrors += 1
            if let code { context.counters.closeCodes["http \(code)", default: 0] += 1 }
        }
        // A drawer that is gone cannot finish its pass.
        if isDrawing { room.stopPass() }
    }

    private func releaseSlot() {
        guard !counted else { return }
        counted = true
        context.opened()
    }

    func received(text: ByteBuffer, on connection: ReplayConnection) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.readableBytesView))) as? [String: Any],
              let type = object["t"] as? String else { return }
        switch type {
        case "welcome":
            playerID = object["playerId"] as? String
            context.counters.welcomed += 1
            guard !room.plan.idle else { return }
            if seat == 0 {
                // One seat more than the players, so an observer (`--record`, a browser) can join.
                let settings = #"{"maxPlayers":\#(min(16, room.plan.players + 1)),"drawTimeSec":\#(room.plan.drawTimeSec),"rounds":\#(room.plan.rounds),"wordChoices":1}"#
                connection.sendText(#"{"t":"create","name":"replay \#(room.index)","public":false,"settings":\#(settings)}"#)
            } else if let code = room.code {
                connection.sendText(#"{"t":"join","code":"# + Self.json(code) + "}")
            }
        case "room":
            if seat == 0, room.code == nil, let code = object["code"] as? String { room.created(code: code) }
            if let canvas = object["canvas"] as? [String: Any], let w = canvas["w"] as? Int, let h = canvas["h"] as? Int {
                room.canvas = CanvasSize(width: w, height: h)
            }
            let players = (object["players"] as? [Any])?.count ?? 0
            if object["phase"] as? String == "lobby", players >= room.plan.players, !readySent {
                readySent = true
                connection.sendText(#"{"t":"ready","ready":true}"#)
            }
        case "choose":
            connection.sendText(#"{"t":"choose","index":0}"#)
        case "turn":
            finishTurn()
            turn += 1
            let drawer = object["drawer"] as? String
            if drawer != nil, drawer == playerID {
                isDrawing = true
                room.startPass(by: self, turn: turn, word: object["word"] as? String, remainingMs: object["remainingMs"] as? Int)
            } else {
                isDrawing = false
                isWatchingTurn = true
                guessed = false
                matcher = OpMatcher()
                cursor = StrokeCursor()
                ledger = room.ledger(for: turn)
            }
        case "turnEnd":
            if isDrawing {
                isDrawing = false
                room.stopPass()
                context.counters.turnsEnded[object["reason"] as? String ?? "?", default: 0] += 1
            }
            finishTurn()
        case "gameEnd":
            readySent = false
            if seat == 0 { context.counters.gamesEnded += 1 }
        case "error":
            context.counters.serverErrors[object["code"] as? String ?? "?", default: 0] += 1
        default:
            break
        }
    }

    func received(binary: ByteBuffer, at nanoseconds: UInt64, on connection: ReplayConnection) {
        let context = self.context
        context.counters.framesReceived += 1
        context.counters.bytesReceived += binary.readableBytes
        let measuring = context.measuring
        if measuring { context.counters.windowFramesReceived += 1 }
        if ledger == nil, isWatchingTurn { ledger = room.ledger(for: turn) }
        let size = room.canvas
        binary.withUnsafeReadableBytes { bytes in
            do {
                _ = try FrameCodec.validate(bytes, size: size, cursor: &cursor)
            } catch {
                context.counters.framesInvalid += 1
            }
            guard let ledger, isWatchingTurn else {
                OpFingerprints.forEach(bytes) { _ in context.counters.opsUnexpected += 1 }
                return
            }
            OpFingerprints.forEach(bytes) { fingerprint in
                guard let index = matcher.match(fingerprint, in: ledger) else { return }
                context.counters.opsDelivered += 1
                if measuring {
                    context.counters.windowOpsDelivered += 1
                    let sent = ledger.sendTime(at: index)
                    let micros = nanoseconds > sent ? (nanoseconds - sent) / 1000 : 0
                    context.latency.record(microseconds: micros)
                    context.interval.record(microseconds: micros)
                }
            }
        }
        room.checkGuess(self)
    }

    /// Closes this guesser's books on the current turn: what was sent and never arrived is lost.
    func finishTurn() {
        guard isWatchingTurn else { return }
        isWatchingTurn = false
        let ledger = self.ledger ?? room.ledger(for: turn)
        let expected = ledger?.count ?? 0
        matcher.finish(ledgerCount: expected)
        context.counters.add(turn: matcher, expected: expected)
        self.ledger = nil
    }

    /// A JSON string literal.
    static func json(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
