import Bots
import NIOCore
import Rooms
import Synchronization

/// Seats a `BotBrain` in a live room as if it were a player's connection: the room
/// queues its messages and frames in an `Outbox` like anyone's, and the same bytes a
/// socket would carry are handed to the brain instead of written. What the brain answers
/// goes back into the room as that player's messages and drawing frames, on the room's
/// event loop; its wake-ups are timers on that loop, at times of the server's clock.
///
/// It only does I/O: every decision is the brain's. It lives while the room holds it
/// (`LiveRoom` keeps it until the bot is released) and stops when its outbox closes.
final class BotRunner: ConnectionWriter.Sink, @unchecked Sendable {
    let id: PlayerID
    let eventLoop: any EventLoop
    let outbox: Outbox
    /// The brain and the arming of its wake timer; `nil` brain once stopped.
    private struct State {
        var brain: BotBrain?
        var arming = 0
    }
    private let state: Mutex<State>
    private weak var room: LiveRoom?
    private let clock: ServerClock
    /// Holds the writer (and through it the outbox) while the runner lives; set once in init.
    private var writer: ConnectionWriter?

    /// The room's bots never overflow in practice; the bound only stops a runaway.
    static let outboxLimit = 8 << 20

    init(id: PlayerID, brain: BotBrain, room: LiveRoom, server: GameServer, eventLoop: any EventLoop) {
        self.id = id
        self.eventLoop = eventLoop
        self.room = room
        self.clock = server.clock
        self.state = Mutex(State(brain: brain))
        self.outbox = Outbox(limit: Self.outboxLimit, eventLoop: eventLoop, hardClose: {})
        self.writer = ConnectionWriter(
            outbox: outbox, sink: self, maxFrameSize: Int(UInt16.max), scheduler: server.writeSchedulers.scheduler(for: eventLoop)
        )
    }

    /// The bot left the room (or the room closed): nothing more is done.
    func stop() {
        state.withLock { $0.brain = nil }
        outbox.finish()
        // The writer refers back to this runner (unowned) until told the sink is gone, on
        // its event loop; the task holds both until then.
        guard let writer else { return }
        if eventLoop.inEventLoop {
            writer.connectionClosed()
        } else {
            eventLoop.execute { writer.connectionClosed(); withExtendedLifetime(self) {} }
        }
    }

    // MARK: - ConnectionWriter.Sink (on the event loop)

    var isWritable: Bool { true }

    func write(_ frame: WireFrame, flush: Bool) {
        let payload = frame.payload
        let now = clock.now
        let actions = state.withLock { s -> [BotAction] in
            switch frame.kind {
            case .text: s.brain?.receive(text: String(buffer: payload), now: now) ?? []
            case .binary: s.brain?.receive(binary: Array(payload.readableBytesView), now: now) ?? []
            case .ping: []
            }
        }
        // After this drain, so the room is never entered from inside a writer's drain.
        if !actions.isEmpty { eventLoop.execute { self.perform(actions) } }
    }

    /// Never called: a bot's outbox is never lent a socket, so nothing is sent at once.
    func writeRemainder(_ rest: ByteBuffer) {}

    func close(_ close: Outbox.Close) { stop() }

    // MARK: - Actions

    private func perform(_ actions: [BotAction]) {
        for action in actions {
            switch action {
            case .send(let text):
                guard let room, case .success(let message) = ClientMessage.decode(Array(text.utf8)) else { continue }
                room.handle(message, from: id)
            case .sendBinary(let bytes):
                room?.draw(ByteBuffer(bytes: bytes), from: id)
            case .wake(let at):
                arm(at)
            }
        }
    }

    /// Schedules the brain's wake-up; a timer superseded by a later request does nothing.
    private func arm(_ at: Timestamp) {
        let arming = state.withLock { s -> Int in
            s.arming &+= 1
            return s.arming
        }
        let delay = clock.instant(of: at) - ContinuousClock.now
        eventLoop.scheduleTask(in: .nanoseconds(max(0, delay.nanoseconds))) { [weak self] in
            self?.fire(arming)
        }
    }

    private func fire(_ arming: Int) {
        let now = clock.now
        let actions = state.withLock { s -> [BotAction] in
            guard s.arming == arming else { return [] }
            return s.brain?.wake(now: now) ?? []
        }
        perform(actions)
    }

    /// A bot's brain seed: from the server's `--seed` and the bot's id, so a seeded server
    /// replays its bots too; random otherwise.
    static func seed(for id: PlayerID, serverSeed: UInt64?) -> UInt64 {
        guard let serverSeed else { return UInt64.random(in: .min ... .max) }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in id.rawValue.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
        }
        return serverSeed ^ hash
    }
}
