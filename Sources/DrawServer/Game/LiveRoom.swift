import CoreMetrics
import Bots
import Canvas
import DrawProtocol
import NIOCore
import Rooms
import Synchronization

/// One running room: the `Room` value and its members' outboxes behind one lock, driven by
/// plain synchronous calls from whichever thread has something for it (the event loop that
/// read a player's message, an HTTP handler, the room's timer).
///
/// It does only I/O: every decision is the `Room` value's. Each call changes the room and
/// hands the effects to the members' event loops under the lock (`WakeUps.handOff`: one
/// hand-off per loop), so every recipient sees messages and frames in the order the room
/// produced them. Nothing under the lock waits: delivery only queues, persistence only
/// queues, and the frames that go to a socket at once are written after the lock is
/// released. A drawing frame is therefore judged and relayed right where it was read: its
/// recipients on that loop are written from there, the others' loops are handed it.
///
/// The room's deadlines (turn ends, hints, the grace period) run as tasks on one event loop,
/// on the server's game clock (`ServerClock`).
package final class LiveRoom: Sendable {
    let code: RoomCode
    struct State: Sendable {
        var room: Room
        var outboxes = MemberOutboxes()
        /// The summary the lobby was last told.
        var publishedSummary: RoomSummary?
        /// The deadline the timer is armed for, and the arming's number: a timer that fires
        /// for an older arming does nothing.
        var timerDeadline: Timestamp?
        var timerArming = 0
        /// The lobby and the store were told the room closed.
        var closePublished = false
        var resync = ResyncPacer()
        /// Another node runs the room now: nothing more happens here.
        var abandoned = false
        /// The room's bots' brains, driven under this lock in game time (`LiveRoom+Bots`).
        var bots: [PlayerID: BotSeat] = [:]
        /// The last finished turn, until a like makes its drawing one bots draw (once).
        var lastTurn: TurnRecord?
        /// What the bots answered and is not done yet, in order.
        var botActions: [(id: PlayerID, action: BotAction)] = []
        /// The frames for the members, handed to their loops before the lock is released,
        /// and what to write or wake once it is (`withRoom`).
        var wakes = WakeUps()
        /// When a telephone draw step's drawings were last stored (with the room's snapshot).
        var sketchesStoredAt: Timestamp?
    }

    /// How often a telephone draw step's drawings go to the store while players draw: each
    /// snapshot carries every seat's drawing, so not at every frame. A kill -9 loses at
    /// most this much of a draw step.
    static let sketchStorePeriodMs = 1_000
    private let state: Mutex<State>
    private let server: GameServer
    /// Runs the room's timer.
    let eventLoop: any EventLoop

    package init(room: Room, server: GameServer) {
        self.code = room.code
        self.state = Mutex(State(room: room))
        self.server = server
        self.eventLoop = server.eventLoopGroup.next()
    }

    /// The room's lock; the frames decided under it are handed to their loops before it is
    /// released, in order, and the writes and wake-ups they need are done once it is: no
    /// system call is made while the lock is held.
    private func withRoom<T>(_ body: (inout State) -> T) -> T {
        let (result, wakes) = LockAudit.holding(server.lockAudit, "a room's lock") {
            state.withLock { s in
                let result = body(&s)
                s.wakes.handOff()
                return (result, s.wakes.take())
            }
        }
        wakes.run()
        return result
    }

    // MARK: - Membership

    /// Seats the player; nil on success, else the error to answer with.
    /// `watching`: a screen that watches (`join` with `watch`), seatless.
    func join(_ player: PlayerID, name: String, watching: Bool = false, outbox: Outbox) -> ProtocolError? {
        let now = server.clock.now
        // The avatar the player said hello with; read before the room's lock is taken.
        let avatar = server.withLobby { $0.players[player]?.avatar }
        var refusal: ProtocolError?
        update { s in
            switch s.room.join(player, name: name, avatar: avatar, watching: watching, now: now) {
            case .failure(let error):
                refusal = error
                return []
            case .success(let effects):
                s.outboxes[player] = outbox
                server.seated(player, in: code)
                return effects
            }
        }
        return refusal
    }

    /// A member resumed on a new connection, with the avatar its hello left it with.
    package func attach(_ player: PlayerID, outbox: Outbox, avatar: Avatar? = nil) {
        update { s in
            guard s.room.isMember(player) else { return [] }
            s.outboxes[player] = outbox
            return s.room.connect(player, avatar: avatar, now: server.clock.now)
        }
    }

    /// A member's connection closed; ignored if it has since resumed on another one.
    func detach(_ player: PlayerID, outbox: Outbox) {
        update { s in
            guard s.outboxes[player] === outbox else { return [] }
            s.outboxes[player] = nil
            return s.room.disconnect(player, now: server.clock.now)
        }
    }

    func leave(_ player: PlayerID) {
        update { s in s.room.leave(player, now: server.clock.now) }
    }

    func handle(_ message: ClientMessage, from player: PlayerID) {
        update { s in s.room.handle(message, from: player, now: server.clock.now) }
    }

    /// What the room holds as evidence for a player's report (`Room.evidence`).
    func evidence(for request: ReportRequest, from player: PlayerID) -> Result<ReportEvidence, ProtocolError> {
        withRoom { $0.room.evidence(for: request, from: player) }
    }

    /// Moderator kick (or ban, `reason` `banned`): as a host's kick.
    func expel(_ player: PlayerID, reason: LeaveReason = .kicked) -> Bool {
        var expelled = false
        update { s in
            guard s.room.isMember(player) else { return [] }
            expelled = true
            return s.room.expel(player, reason: reason, now: server.clock.now)
        }
        return expelled
    }

    /// Stops the room without closing it (its lease went to another node): no more
    /// effects, timers or writes; every member is asked to reconnect.
    func abandon() {
        let outboxes = withRoom { s -> [Outbox] in
            s.abandoned = true
            s.timerDeadline = nil
            s.timerArming &+= 1
            return s.outboxes.entries.map(\.outbox)
        }
        for outbox in outboxes { outbox.close(code: .serviceRestart, reason: "room moved to another node: reconnect with your token") }
    }

    /// Moderator close.
    package func close() {
        update { s in s.room.close() }
    }

    // MARK: - Drawing (the hot path)

    /// Judges a drawing frame and relays it to the other members, on the caller's thread
    /// (the drawer's event loop). Returns what the frame costs the sender's budget.
    @discardableResult
    package func draw(_ frame: ByteBuffer, from player: PlayerID, receivedAt: ContinuousClock.Instant = .now) -> DrawCharge {
        draw(frame, from: player, receivedAt: receivedAt, now: server.clock.timestamp(of: receivedAt))
    }

    /// `draw` at `now`, the game time of `receivedAt`, which the caller already has.
    /// What a drawing frame cost its sender: the points it relayed, or for a refused frame
    /// as many as its size could hold (refusals are paid for too, so they are shaped like
    /// any frame), and whether it was invalid (a strike: no honest client sends one).
    package struct DrawCharge: Equatable {
        var points: Int
        var invalid = false
    }

    /// Judges a drawing frame and relays it: at once to recipients on this loop whose
    /// sockets take it (`sendAtOnce`), written once the lock is released, or queued, to go
    /// out with the frames behind it in one write each.
    func draw(
        _ frame: ByteBuffer, from player: PlayerID, receivedAt: ContinuousClock.Instant, now: Timestamp, sendAtOnce: Bool = true
    ) -> DrawCharge {
        // Encoded once, the same bytes for everyone.
        let wire = WireFrame(.binary, payload: frame)
        var resyncLater: Int?
        var relayed = false
        let charge = withRoom { s -> DrawCharge in
            // Handed to another node: nothing more is drawn or stored here.
            if s.abandoned { return DrawCharge(points: 0) }
            let generation = s.room.canvasGeneration
            let outcome = frame.withUnsafeReadableBytes { s.room.draw(frame: $0, from: player, now: now) }
            switch outcome {
            case .relay(let sender, let points):
                let except = s.outboxes[sender]
                s.wakes.deliver(wire, toMembers: s.outboxes, except: except, atOnce: sendAtOnce)
                let recipients = s.outboxes.entries.count - (except == nil ? 0 : 1)
                if !s.bots.isEmpty { Self.showBots(Array(frame.readableBytesView), except: sender, in: &s, now: now) }
                if s.room.canvasGeneration == generation {
                    if let stored = s.room.strokeLog.frames.last {
                        server.store.frameAppended(room: code, generation: generation, frame: stored, wakes: &s.wakes)
                    }
                } else {
                    // The turn's record was compacted: store it anew under its new generation;
                    // the room row then moves to that generation and the old frames are deleted.
                    for stored in s.room.strokeLog.frames {
                        server.store.frameAppended(room: code, generation: s.room.canvasGeneration, frame: stored, wakes: &s.wakes)
                    }
                    server.store.roomChanged(s.room.snapshot(now: now), wakes: &s.wakes)
                }
                server.metrics.sentBinary(bytes: frame.readableBytes, count: recipients)
                relayed = true
                return DrawCharge(points: points)
            case .kept(let points):
                // A telephone drawing: shown to nobody until the album; stored with the
                // room's snapshot (every seat's drawing), once a period.
                if s.sketchesStoredAt.map({ now - $0 >= Self.sketchStorePeriodMs }) ?? true {
                    s.sketchesStoredAt = now
                    server.store.roomChanged(s.room.snapshot(now: now), wakes: &s.wakes)
                }
                return DrawCharge(points: points)
            case .rejected(let error):
                // Never silent: the drawer is told, and its canvas is set back to the room's.
                Self.deliver(.error(error), to: .player(player), in: &s, metrics: server.metrics)
                switch s.resync.refused(now: now) {
                case .now: Self.resync(player, in: &s, metrics: server.metrics)
                case .after(let delay): resyncLater = delay
                case .alreadyOwed: break
                }
                // Each point takes at least two bytes.
                return DrawCharge(points: frame.readableBytes / 2, invalid: error.code == .badOps)
            }
        }
        if let resyncLater {
            // On game time, from the frame's own reading of it: a test paces it virtually.
            server.clock.run(at: now + resyncLater, on: eventLoop) { self.resyncDue(player) }
        }
        if relayed {
            server.metrics.relayLatency.recordNanoseconds((ContinuousClock.now - receivedAt).nanoseconds)
        }
        return charge
    }

    private func resyncDue(_ player: PlayerID) {
        let now = server.clock.now
        withRoom { s in
            guard s.resync.due(now: now) else { return }
            Self.resync(player, in: &s, metrics: server.metrics)
        }
    }

    /// The room's canvas to the drawer (nothing if it no longer draws).
    private static func resync(_ player: PlayerID, in s: inout State, metrics: ServerMetrics) {
        for effect in s.room.resync(drawer: player) {
            switch effect {
            case .send(let message, let audience): deliver(message, to: audience, in: &s, metrics: metrics)
            case .sendDrawing(let frames, _):
                guard let outbox = s.outboxes[player] else { continue }
                for frame in frames { s.wakes.deliver(WireFrame(.binary, payload: frame), to: outbox) }
            default: break
            }
        }
    }

    // MARK: - Reading state

    var summary: RoomSummary { withRoom { $0.room.summary } }

    /// Who draws now (choosing or drawing), if anyone.
    var drawer: PlayerID? { withRoom { $0.room.drawer } }

    func view(now: Timestamp) -> RoomView { withRoom { $0.room.view(for: nil, now: now) } }

    /// A copy of the current drawing and its version, to render off the actor.
    var canvasState: (generation: Int, frames: Int, drawing: Drawing) {
        withRoom { s in (s.room.canvasGeneration, s.room.strokeLog.frames.count, s.room.drawing) }
    }

    var strokeLog: StrokeLog { withRoom { $0.room.strokeLog } }

    // MARK: - Effects

    /// What to do with the timer after a change, decided under the lock.
    enum TimerChange {
        case none
        case arm(deadline: Timestamp, arming: Int)
    }

    /// Changes the room under the lock, delivers the effects and tells the lobby before
    /// releasing it, then arms the timer for the next deadline.
    private func update(_ change: (inout State) -> [RoomEffect]) {
        let server = self.server
        let code = self.code
        let timer = withRoom { s -> TimerChange in
            guard !s.abandoned else { return .none }
            let effects = change(&s)
            let now = server.clock.now
            Self.perform(effects, in: &s, server: server, code: code, now: now)
            Self.runBots(in: &s, server: server, code: code, now: now)
            return Self.publish(in: &s, server: server, code: code)
        }
        arm(timer)
    }

    /// Carries out the room's effects; `now` is the game time they happened at (what the
    /// bots are told).
    static func perform(_ effects: [RoomEffect], in s: inout State, server: GameServer, code: RoomCode, now: Timestamp) {
        // Shelved before `turnEnd` is delivered, so its image links work at once.
        for case .turnFinished(let record) in effects { server.drawings.keep(record) }
        for var effect in effects {
            // The drawer's gallery setting is the shell's (`Moderation`, a leaf lock).
            if case .turnFinished(var record) = effect {
                record.drawerOptedOut = server.moderation.hasOptedOut(record.drawer)
                effect = .turnFinished(record)
            }
            switch effect {
            case .send(let message, let audience):
                deliver(message, to: audience, in: &s, metrics: server.metrics)
                tellBots(message, to: audience, in: &s, now: now)
            case .sendDrawing(let frames, let player):
                if s.bots[player] != nil {
                    for frame in frames { _ = s.bots[player]?.brain.receive(binary: frame, now: now) }
                }
                guard let outbox = s.outboxes[player] else { continue }
                for frame in frames { s.wakes.deliver(WireFrame(.binary, payload: frame), to: outbox) }
            case .released(let player):
                s.outboxes[player] = nil
                s.bots[player] = nil
                server.released(player, from: code)
            case .turnFinished(let record):
                server.store.turnFinished(record, wakes: &s.wakes)
                server.turnFinished(record)
                // A person's drawing: bots may draw it once players like it (`turnRated`).
                s.lastTurn = record.drawing != nil && s.bots[record.drawer] == nil ? record : nil
            case .gameFinished(let record):
                server.store.gameFinished(record, wakes: &s.wakes)
            case .turnRated(let rating):
                server.store.turnRated(rating, wakes: &s.wakes)
                teachBots(rating, in: &s, server: server)
            case .botSeated(let player, let level):
                seatBot(player, level: level, in: &s, server: server)
            }
        }
        if storesState(effects) && !s.room.isClosed { server.store.roomChanged(s.room.snapshot(now: server.clock.now), wakes: &s.wakes) }
    }

    /// Whether `effects` call for writing the room's snapshot. Not for a hint alone: the
    /// last snapshot keeps the random state and schedule that reveal the same letter at the
    /// same time after a restore (`RoomTurnTests.aRoomRestoredFromBeforeAHintRevealsTheSameLetter`),
    /// and hint reveals were most of a busy node's snapshot writes, each a whole room in
    /// JSON (docs/benchmarks/journal-overload-2026-11-25-26.md, "Why the tail is where it is").
    static func storesState(_ effects: [RoomEffect]) -> Bool {
        effects.contains { effect in
            if case .send(.hint, _) = effect { return false }
            return true
        }
    }

    /// Arms the timer of a room restored from storage, and seats its bots again.
    func start() {
        let server = self.server
        let code = self.code
        let timer = withRoom { s -> TimerChange in
            let now = server.clock.now
            var effects: [RoomEffect] = []
            for seat in s.room.botSeats {
                Self.seatBot(seat.id, level: seat.level, in: &s, server: server)
                // The room's state and the turn's own message, as a resuming player gets them.
                effects += s.room.connect(seat.id, now: now)
            }
            Self.perform(effects, in: &s, server: server, code: code, now: now)
            Self.runBots(in: &s, server: server, code: code, now: now)
            server.store.roomChanged(s.room.snapshot(now: server.clock.now), wakes: &s.wakes)
            return Self.publish(in: &s, server: server, code: code)
        }
        arm(timer)
    }

    /// Encodes once, then queues the same buffer for every recipient.
    static func deliver(_ message: ServerMessage, to audience: Audience, in s: inout State, metrics: ServerMetrics) {
        let bytes = message.jsonBytes()
        let frame = WireFrame(.text, payload: bytes)
        var recipients = 0
        func send(_ outbox: Outbox?, _ wakes: inout WakeUps) {
            guard let outbox else { return }
            wakes.deliver(frame, to: outbox)
            recipients += 1
        }
        switch audience {
        case .player(let id):
            send(s.outboxes[id], &s.wakes)
        case .everyone:
            s.wakes.deliver(frame, toMembers: s.outboxes, except: nil)
            recipients = s.outboxes.entries.count
        case .everyoneExcept(let excluded):
            let except = s.outboxes[excluded]
            s.wakes.deliver(frame, toMembers: s.outboxes, except: except)
            recipients = s.outboxes.entries.count - (except == nil ? 0 : 1)
        case .players(let ids):
            for id in ids { send(s.outboxes[id], &s.wakes) }
        }
        metrics.sent(message.type, bytes: bytes.count, count: recipients)
    }

    /// Tells the lobby what changed, under the room's lock so the lobby sees a room's
    /// changes in order, and decides whether the timer needs arming.
    static func publish(in s: inout State, server: GameServer, code: RoomCode) -> TimerChange {
        if s.room.isClosed {
            guard !s.closePublished else { return .none }
            s.closePublished = true
            s.timerDeadline = nil
            s.timerArming &+= 1
            server.roomClosed(code)
            server.store.roomClosed(code, wakes: &s.wakes)
            return .none
        }
        let summary = s.room.summary
        if summary != s.publishedSummary {
            s.publishedSummary = summary
            server.update(summary)
        }
        let deadline = nextDeadline(of: s)
        guard deadline != s.timerDeadline else { return .none }
        s.timerDeadline = deadline
        s.timerArming &+= 1
        guard let deadline else { return .none }
        return .arm(deadline: deadline, arming: s.timerArming)
    }

    /// Schedules the timer on the room's event loop, outside the lock. A timer armed for an
    /// older deadline finds its arming superseded when it fires and does nothing, so timers
    /// need no cancelling. It holds the room until it fires.
    private func arm(_ change: TimerChange) {
        guard case .arm(let deadline, let arming) = change else { return }
        server.clock.run(at: deadline, on: eventLoop) { self.fire(arming: arming) }
    }

    /// Does everything due by now, room deadlines and bots' wake-ups, each in the order of
    /// its time and at its time (`runDue`), so bots play the same whatever the timer's lag.
    private func fire(arming: Int) {
        let server = self.server
        let code = self.code
        let timer = withRoom { s -> TimerChange in
            guard !s.abandoned, arming == s.timerArming else { return .none }
            s.timerDeadline = nil
            Self.runDue(until: server.clock.now, in: &s, server: server, code: code)
            return Self.publish(in: &s, server: server, code: code)
        }
        arm(timer)
    }
}
