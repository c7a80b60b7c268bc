import Canvas
import Foundation
import NIOCore

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
    /// `--connect-first`: set when the runner releases the barrier; until then clients that
    /// have joined wait without saying `ready`.
    private(set) var released = false
    private var seatedCount = 0

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

    // MARK: - The barrier (`--connect-first`)

    /// `client` saw the lobby full and waits for the barrier; the room counts as complete on
    /// its loop once every seat has.
    func seated(_ client: ReplayClient) {
        seatedCount += 1
        if seatedCount == clients.count { context.roomsSeated += 1 }
        if released { client.sendReady() }
    }

    /// Every room is released together: the seated clients say `ready` now, the others as
    /// soon as they see the lobby full.
    func release() {
        released = true
        for client in clients where client.isSeated { client.sendReady() }
    }

    /// The client whose pass is being replayed, if any.
    var currentDrawer: ReplayClient? { drawer }

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

    /// `client` is back from an outage. If the pass it watches is complete, it guesses after
    /// the fallback delay unless the replayed canvas brings everything first.
    func resumed(_ client: ReplayClient) {
        guard let ledger = ledgers[client.turn], ledger.complete else { return }
        let turn = client.turn
        eventLoop.scheduleTask(in: .nanoseconds(Int64(plan.guessFallbackNanoseconds))) { [self] in
            guard client.turn == turn, client.canGuess else { return }
            context.counters.guessFallbacks += 1
            client.guess(word)
        }
    }

    /// `client`'s turn as drawer ended. Ignored when the room's pass is already someone
    /// else's: each player reads its own socket, so the next drawer may have read its `turn`
    /// (and started the next pass) before the last drawer reads its `turnEnd`.
    func stopPass(of client: ReplayClient) {
        guard drawer === client else { return }
        stopPass()
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
            // Never connected in the whole run (still waiting, or refused too late to be
            // counted): a connection that could not be opened.
            if !client.everConnected, !client.failureCounted { context.counters.connectErrors += 1 }
            client.finishTurn()
            client.connection.close()
        }
    }
}
