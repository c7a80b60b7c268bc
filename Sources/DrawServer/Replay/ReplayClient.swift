import Canvas
import Foundation
import NIOCore

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
    private(set) var readySent = false
    /// `--connect-first`: saw the lobby full and waits for the barrier.
    private(set) var isSeated = false
    private var wasConnected = false
    private var counted = false

    init(room: ReplayRoom, seat: Int) {
        self.room = room
        self.seat = seat
        connection = ReplayConnection(eventLoop: room.eventLoop, peer: self)
    }

    private var context: LoopContext { room.context }

    var canGuess: Bool { isWatchingTurn && !guessed }

    /// The host creates the room, the others join it by code.
    private func enterRoom() {
        guard !context.stopping else { return }
        if seat == 0 {
            // One seat more than the players, so an observer (`--record`, a browser) can join.
            let settings = #"{"maxPlayers":\#(min(16, room.plan.players + 1)),"drawTimeSec":\#(room.plan.drawTimeSec),"rounds":\#(room.plan.rounds),"wordChoices":1}"#
            connection.sendText(#"{"t":"create","name":"replay \#(room.index)","public":false,"settings":\#(settings)}"#)
        } else if let code = room.code {
            connection.sendText(#"{"t":"join","code":"# + StrokeLog.jsonString(code) + "}")
        }
    }

    /// Says `ready` once per lobby (again after a game ends).
    func sendReady() {
        guard !readySent else { return }
        readySent = true
        connection.sendText(#"{"t":"ready","ready":true}"#)
    }

    func guess(_ word: String?) {
        guard canGuess else { return }
        guessed = true
        connection.sendText(#"{"t":"guess","text":"# + StrokeLog.jsonString(word ?? "?") + "}")
    }

    // MARK: - ReplayPeer

    func connected(_ connection: ReplayConnection) {
        wasConnected = true
        context.counters.connectionsOpened += 1
        context.openConnections += 1
        releaseSlot()
        let name = "r\(room.index)p\(seat)"
        connection.sendText(#"{"t":"hello","name":"# + StrokeLog.jsonString(String(name.prefix(24))) + "}")
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
        if isDrawing { room.stopPass(of: self) }
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
            enterRoom()
        case "room":
            if seat == 0, room.code == nil, let code = object["code"] as? String { room.created(code: code) }
            if let canvas = object["canvas"] as? [String: Any], let w = canvas["w"] as? Int, let h = canvas["h"] as? Int {
                room.canvas = CanvasSize(width: w, height: h)
            }
            let players = (object["players"] as? [Any])?.count ?? 0
            if object["phase"] as? String == "lobby", players >= room.plan.players, !readySent {
                if room.plan.connectFirst, !isSeated {
                    isSeated = true
                    room.seated(self)
                } else {
                    sendReady()
                }
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
                room.stopPass(of: self)
                context.counters.turnsEnded[object["reason"] as? String ?? "?", default: 0] += 1
            }
            finishTurn()
        case "gameEnd":
            readySent = false
            if seat == 0 { context.counters.gamesEnded += 1 }
        case "error":
            let code = object["code"] as? String ?? "?"
            context.counters.serverErrors[code, default: 0] += 1
            // A saturated server turns new rooms and joins away for a while: wait as told
            // and ask again, so a busy moment does not leave a seat empty.
            if code == "server_busy", let ref = object["ref"] as? String, ref == "create" || ref == "join" {
                context.counters.busyRetries += 1
                let delay = max(10, min(60_000, object["retryAfterMs"] as? Int ?? room.plan.busyRetryDefaultMs))
                room.eventLoop.scheduleTask(in: .milliseconds(Int64(delay))) { [self] in enterRoom() }
            }
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
}
