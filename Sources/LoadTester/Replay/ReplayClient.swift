import Canvas
import DrawProtocol
import Foundation
import NIOCore

/// One protocol client: plays whichever role the server gives it.
final class ReplayClient: ReplayPeer, @unchecked Sendable {
    unowned let room: ReplayRoom
    let seat: Int
    private(set) var connection: ReplayConnection!
    private(set) var playerID: PlayerID?
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
    /// This attempt's connection was upgraded; its slot in the loop's limiter was given back.
    private var wasConnected = false
    /// Whether any connection of this client opened during the run, and whether its not
    /// opening was counted: a client whose attempt is still on its way (or never started)
    /// when the run stops did not connect either (`ReplayRoom.finish`).
    private(set) var everConnected = false
    private(set) var failureCounted = false
    private var counted = false
    /// Welcomed on the current connection: what it sends reaches the server.
    private var online = false
    /// The token from `welcome`, to resume with after an outage (`--reconnect`).
    private var token: String?
    /// `--reconnect`: the outage this client is in (an index into its loop's records).
    private var outage: Int?
    /// The outage whose client is welcomed back and waits for its room.
    private var roomOutage: Int?
    /// The outage that cut the turn being watched: its losses are booked when the turn ends.
    private var outageToBook: Int?
    /// Back from an outage until the next `turn`: what arrives now is the server's replay of
    /// the canvas (and the drawer of this turn has stopped).
    private var resynced = false
    /// Set by a resume until the first `room`: that one tells the phase the server restored.
    private var awaitingRestoredRoom = false
    /// Resumed in `drawing`: the server restates the current turn with a `turn` message,
    /// which is not a new turn.
    private var restatedTurnExpected = false
    /// The drawer of the turn being watched or drawn.
    private var turnDrawer: PlayerID?
    private var reconnectDelayMs = 0
    /// Where this client connects: nil for the run's URL; after a `redirect`, the path it
    /// names on the same host and port (the balancer routes `?node=` to the room's node).
    private(set) var target: ReplayURL?
    /// A `redirect` being followed: the room to join once the new connection is welcomed.
    private var redirectRoom: String?
    /// Redirects followed since this client was last in a room: two nodes that disagree
    /// about where a room runs would otherwise bounce it between them for ever.
    private var redirectsInARow = 0
    static let maxRedirectsInARow = 5
    /// `room_not_found` answers to a join retried: a node learns of another node's new room
    /// only at its next directory refresh (0.5 s), and the host made this room, so it exists.
    private var joinRetries = 0
    static let maxJoinRetries = 12
    static let joinRetryDelay = TimeAmount.milliseconds(250)

    init(room: ReplayRoom, seat: Int) {
        self.room = room
        self.seat = seat
        connection = ReplayConnection(eventLoop: room.eventLoop, peer: self)
    }

    private var context: LoopContext { room.context }

    var canGuess: Bool { isWatchingTurn && !guessed && online }

    /// The host creates the room, the others join it by code.
    private func enterRoom() {
        guard !context.stopping else { return }
        if seat == 0 {
            // One seat more than the players, so an observer (`--record`, a browser) can join.
            let settings = SettingsPatch(
                rounds: room.plan.rounds, drawTimeSec: room.plan.drawTimeSec, maxPlayers: min(50, room.plan.players + 1), wordChoices: 1
            )
            send(.create(name: "replay \(room.index)", isPublic: false, settings: settings))
        } else if let code = room.code {
            join(code)
        }
    }

    private func join(_ code: String) {
        send(.join(code: code))
    }

    private func send(_ message: ClientMessage) {
        connection.sendText(message.jsonString)
    }

    /// The room runs on another node (docs/PROTOCOL.md, `redirect`): open a new connection
    /// to the same host and port at the message's `path`, resume there with the token
    /// (`connected`), and join the room (`redirected`).
    private func followRedirect(room code: String, path: String) {
        guard path.hasPrefix("/"), token != nil else {
            context.counters.serverErrors["bad_redirect", default: 0] += 1
            return
        }
        context.counters.redirects += 1
        redirectsInARow += 1
        online = false
        guard redirectsInARow <= Self.maxRedirectsInARow else {
            context.counters.unexpectedCloses += 1
            context.counters.closeCodes["redirect loop", default: 0] += 1
            connection.close()
            return
        }
        redirectRoom = code
        var url = context.url
        url.path = path
        target = url
        connection.close()
        connection = ReplayConnection(eventLoop: room.eventLoop, peer: self)
        wasConnected = false
        counted = false
        context.open(self)
    }

    /// Welcomed on the node a `redirect` named: the token resumed the same player there.
    private func redirected(resumed: Bool, to code: String) {
        redirectRoom = nil
        guard resumed else {
            // The other node does not know the token: this seat cannot be taken again.
            context.counters.unexpectedCloses += 1
            context.counters.closeCodes["redirect refused", default: 0] += 1
            connection.close()
            return
        }
        online = true
        join(code)
    }

    /// Says `ready` once per lobby (again after a game ends).
    func sendReady() {
        guard !readySent else { return }
        readySent = true
        send(.ready(true))
    }

    func guess(_ word: String?) {
        guard canGuess else { return }
        guessed = true
        send(.guess(word ?? "?"))
    }

    // MARK: - ReplayPeer

    func connected(_ connection: ReplayConnection) {
        wasConnected = true
        everConnected = true
        context.counters.connectionsOpened += 1
        context.openConnections += 1
        releaseSlot()
        let name = "r\(room.index)p\(seat)"
        // After an outage the token resumes the same player in the same seat.
        let resume = outage != nil || redirectRoom != nil ? token : nil
        send(.hello(name: String(name.prefix(24)), token: resume))
    }

    func closed(_ connection: ReplayConnection, code: Int?, error: (any Error)?) {
        // The connection this client left to follow a `redirect` (it was open: the redirect
        // came over it); the new one is already on its way.
        guard connection === self.connection else {
            context.openConnections -= 1
            return
        }
        if wasConnected {
            context.openConnections -= 1
        } else {
            releaseSlot()
        }
        online = false
        guard !context.stopping, !connection.closing else { return }
        // A drawer that is gone cannot finish its pass.
        if isDrawing { room.stopPass(of: self) }
        if room.plan.reconnect, token != nil, reconnect(after: wasConnected ? code : nil) { return }
        if wasConnected {
            context.counters.unexpectedCloses += 1
            context.counters.closeCodes[code.map(String.init) ?? "none", default: 0] += 1
        } else {
            context.counters.connectErrors += 1
            failureCounted = true
            if let code { context.counters.closeCodes["http \(code)", default: 0] += 1 }
        }
    }

    /// Starts or goes on with an outage: opens a new connection after a short back-off.
    /// False once the outage has lasted `reconnectTimeoutMs` (it then counts as a failure).
    private func reconnect(after code: Int?) -> Bool {
        let now = NIODeadline.now().uptimeNanoseconds
        let index: Int
        if let outage {
            index = outage
        } else {
            index = context.outages.count
            context.outages.append(ReplayOutage(startedAt: now, closeCode: code))
            outage = index
            // Back through the run's URL (the balancer), as a client does after an outage.
            target = nil
            if isWatchingTurn { outageToBook = index }
            reconnectDelayMs = 0
        }
        guard now - context.outages[index].startedAt < UInt64(room.plan.reconnectTimeoutMs) * 1_000_000 else { return false }
        // 50 ms, doubling to 1 s: quick after a restart, gentle while the server is away.
        reconnectDelayMs = reconnectDelayMs == 0 ? 50 : min(1000, reconnectDelayMs * 2)
        room.eventLoop.scheduleTask(in: .milliseconds(Int64(reconnectDelayMs))) { [self] in
            guard !context.stopping else { return }
            context.outages[index].attempts += 1
            connection = ReplayConnection(eventLoop: room.eventLoop, peer: self)
            wasConnected = false
            counted = false
            context.open(self)
        }
        return true
    }

    /// The server welcomed this client back after an outage.
    private func resumed(_ resumed: Bool) {
        guard let index = outage else { return }
        outage = nil
        guard resumed else {
            // The server no longer knows the token: a new player without a seat.
            context.outages[index].refused = true
            context.counters.unexpectedCloses += 1
            connection.close()
            return
        }
        context.outages[index].endedAt = NIODeadline.now().uptimeNanoseconds
        roomOutage = index
        online = true
        resynced = true
        awaitingRestoredRoom = true
        cursor = StrokeCursor()
        room.resumed(self)
    }

    private func releaseSlot() {
        guard !counted else { return }
        counted = true
        context.opened()
    }

    func received(text: ByteBuffer, on connection: ReplayConnection) {
        guard let message = ServerMessage(text: text.readableBytesView) else { return }
        switch message {
        case .welcome(let id, let token, let resumed, _, _):
            if outage != nil {
                self.resumed(resumed)
                // The outage cut a redirect short: the room is still to be joined.
                if online, let code = redirectRoom { redirectRoom = nil; join(code) }
                return
            }
            if let code = redirectRoom { return redirected(resumed: resumed, to: code) }
            online = true
            self.token = token
            playerID = id
            context.counters.welcomed += 1
            guard !room.plan.idle else { return }
            enterRoom()
        case .redirect(let code, _, let path):
            followRedirect(room: code.rawValue, path: path)
        case .room(let view):
            redirectsInARow = 0
            if seat == 0, room.code == nil { room.created(code: view.code.rawValue) }
            room.canvas = CanvasSize(width: view.canvasWidth, height: view.canvasHeight)
            // Back in a turn this client was drawing: its pass stopped with the connection and
            // cannot pick up where the server's canvas is, so the turn is handed on.
            if let index = roomOutage, view.code.rawValue == room.code {
                roomOutage = nil
                context.outages[index].roomAt = NIODeadline.now().uptimeNanoseconds
            }
            if awaitingRestoredRoom {
                awaitingRestoredRoom = false
                restatedTurnExpected = view.phase == .drawing
                if restatedTurnExpected, let drawer = view.drawer, drawer == playerID, room.currentDrawer !== self {
                    send(.skip)
                }
            }
            if view.phase == .lobby, view.players.count >= room.plan.players, !readySent {
                if room.plan.connectFirst, !isSeated {
                    isSeated = true
                    room.seated(self)
                } else {
                    sendReady()
                }
            }
        case .choose:
            send(.choose(index: 0))
        case .canvas:
            // The server replays the canvas from a white page: strokes start afresh.
            cursor = StrokeCursor()
        case .turn(let drawer, _, _, let remainingMs, let word):
            if restatedTurnExpected {
                restatedTurnExpected = false
                // The turn this client was in before the outage, restated: nothing new.
                if drawer == turnDrawer { return }
            }
            finishTurn()
            resynced = false
            turn += 1
            turnDrawer = drawer
            if drawer == playerID {
                isDrawing = true
                room.startPass(by: self, turn: turn, word: word, remainingMs: remainingMs)
            } else {
                isDrawing = false
                isWatchingTurn = true
                guessed = false
                matcher = OpMatcher()
                cursor = StrokeCursor()
                ledger = room.ledger(for: turn)
            }
        case .turnEnd(_, let reason, _, _, _):
            restatedTurnExpected = false
            if isDrawing {
                isDrawing = false
                room.stopPass(of: self)
                context.counters.turnsEnded[reason.rawValue, default: 0] += 1
            }
            finishTurn()
        case .gameEnd:
            readySent = false
            if seat == 0 { context.counters.gamesEnded += 1 }
        case .error(let error):
            context.counters.serverErrors[error.code.rawValue, default: 0] += 1
            // A saturated server turns new rooms and joins away for a while: wait as told
            // and ask again, so a busy moment does not leave a seat empty.
            if error.code == .serverBusy, error.ref == "create" || error.ref == "join" {
                context.counters.busyRetries += 1
                let delay = max(10, min(60_000, error.retryAfterMs ?? room.plan.busyRetryDefaultMs))
                room.eventLoop.scheduleTask(in: .milliseconds(Int64(delay))) { [self] in enterRoom() }
            }
            if error.code == .roomNotFound, error.ref == "join", seat > 0, joinRetries < Self.maxJoinRetries, let code = room.code {
                joinRetries += 1
                let sent = connection
                room.eventLoop.scheduleTask(in: Self.joinRetryDelay) { [self] in
                    if connection === sent, online { join(code) }
                }
            }
        default:
            break
        }
    }

    func received(binary: ByteBuffer, at nanoseconds: UInt64, exact: Bool, on connection: ReplayConnection) {
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
            // After a resume the server replays the canvas, compacted: it cannot be matched
            // to what the drawer sent, and the books of this turn stay as the outage left them.
            if resynced {
                OpFingerprints.forEach(bytes) { _ in context.counters.opsResynced += 1 }
                return
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
                    if exact { context.latencyExact.record(microseconds: micros) }
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
        if let index = outageToBook {
            context.outages[index].opsLost += matcher.lost
            outageToBook = nil
        }
        self.ledger = nil
    }
}
