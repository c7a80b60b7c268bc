import CoreMetrics
import Canvas
import NIOCore
import Rooms

/// Drives one `Room` and delivers its effects.
///
/// The actor does only I/O: every decision is the `Room` value's. Delivery is a
/// non-blocking `send` into each member's `Outbox`, so a room never waits for a socket,
/// and a drawing frame is relayed as the very buffer it arrived in, shared by all
/// recipients.
actor RoomActor {
    let code: RoomCode
    private var room: Room
    private var outboxes: [PlayerID: Outbox] = [:]
    private let server: GameServer
    private var timer: Task<Void, Never>?
    private var timerDeadline: Timestamp?
    private var publishedSummary: RoomSummary?

    init(room: Room, server: GameServer) {
        self.code = room.code
        self.room = room
        self.server = server
    }

    // MARK: - Membership

    /// Seats the player; nil on success, else the error to answer with.
    func join(_ player: PlayerID, name: String, outbox: Outbox) -> ProtocolError? {
        let now = server.clock.now
        switch room.join(player, name: name, now: now) {
        case .failure(let error):
            return error
        case .success(let effects):
            outboxes[player] = outbox
            server.seated(player, in: code)
            perform(effects)
            return nil
        }
    }

    /// A member resumed on a new connection.
    func attach(_ player: PlayerID, outbox: Outbox) {
        guard room.isMember(player) else { return }
        outboxes[player] = outbox
        perform(room.connect(player, now: server.clock.now))
    }

    /// A member's connection closed; ignored if it has since resumed on another one.
    func detach(_ player: PlayerID, outbox: Outbox) {
        guard outboxes[player] === outbox else { return }
        outboxes[player] = nil
        perform(room.disconnect(player, now: server.clock.now))
    }

    func leave(_ player: PlayerID) {
        perform(room.leave(player, now: server.clock.now))
    }

    func handle(_ message: ClientMessage, from player: PlayerID) {
        perform(room.handle(message, from: player, now: server.clock.now))
    }

    /// Moderator kick: as a host's kick.
    func expel(_ player: PlayerID) -> Bool {
        guard room.isMember(player) else { return false }
        perform(room.expel(player, now: server.clock.now))
        return true
    }

    /// Moderator close.
    func close() {
        perform(room.close())
    }

    // MARK: - Drawing (the hot path)

    /// Returns the points the frame added (0 when it was refused), for the sender's budget.
    @discardableResult
    func draw(_ frame: ByteBuffer, from player: PlayerID, receivedAt: ContinuousClock.Instant = .now) -> Int {
        let now = server.clock.now
        let generation = room.canvasGeneration
        let outcome = frame.withUnsafeReadableBytes { room.draw(frame: $0, from: player, now: now) }
        switch outcome {
        case .relay(let sender, let points):
            // Encoded once, the same bytes for everyone.
            let wire = WireFrame(.binary, payload: frame)
            var recipients = 0
            for (id, outbox) in outboxes where id != sender {
                outbox.send(wire)
                recipients += 1
            }
            if room.canvasGeneration == generation {
                if let stored = room.strokeLog.frames.last {
                    server.store.frameAppended(room: code, generation: generation, frame: stored)
                }
            } else {
                // The turn's record was compacted: store it anew under its new generation; the
                // room row then moves to that generation and the old frames are deleted.
                for stored in room.strokeLog.frames {
                    server.store.frameAppended(room: code, generation: room.canvasGeneration, frame: stored)
                }
                server.store.roomChanged(room.snapshot(now: now))
            }
            server.metrics.sent("binary", bytes: frame.readableBytes, count: recipients)
            server.metrics.relayLatency.recordNanoseconds((ContinuousClock.now - receivedAt).nanoseconds)
            return points
        case .rejected(let error):
            deliver(.error(error), to: .player(player))
            return 0
        }
    }

    // MARK: - Reading state

    var summary: RoomSummary { room.summary }

    func view(now: Timestamp) -> RoomView { room.view(for: nil, now: now) }

    /// A copy of the current drawing and its version, to render off the actor.
    var canvasState: (generation: Int, frames: Int, drawing: Drawing) {
        (room.canvasGeneration, room.strokeLog.frames.count, room.drawing)
    }

    var strokeLog: StrokeLog { room.strokeLog }

    // MARK: - Effects

    private func perform(_ effects: [RoomEffect]) {
        for effect in effects {
            switch effect {
            case .send(let message, let audience):
                deliver(message, to: audience)
            case .sendDrawing(let frames, let player):
                guard let outbox = outboxes[player] else { continue }
                for frame in frames { outbox.send(WireFrame(.binary, payload: frame)) }
            case .released(let player):
                outboxes[player] = nil
                server.released(player, from: code)
            case .turnFinished(let record):
                server.store.turnFinished(record)
            case .gameFinished(let record):
                server.store.gameFinished(record)
            }
        }
        if !effects.isEmpty && !room.isClosed { server.store.roomChanged(room.snapshot(now: server.clock.now)) }
        publish()
    }

    /// Arms the timer of a room restored from storage.
    func start() {
        server.store.roomChanged(room.snapshot(now: server.clock.now))
        publish()
    }

    /// Encodes once, then hands the same buffer to every recipient.
    private func deliver(_ message: ServerMessage, to audience: Audience) {
        let bytes = message.jsonBytes()
        let frame = WireFrame(.text, payload: bytes)
        var recipients = 0
        func send(_ outbox: Outbox?) {
            guard let outbox else { return }
            outbox.send(frame)
            recipients += 1
        }
        switch audience {
        case .player(let id):
            send(outboxes[id])
        case .everyone:
            for outbox in outboxes.values { send(outbox) }
        case .everyoneExcept(let excluded):
            for (id, outbox) in outboxes where id != excluded { send(outbox) }
        case .players(let ids):
            for id in ids { send(outboxes[id]) }
        }
        server.metrics.sent(message.type, bytes: bytes.count, count: recipients)
    }

    /// Tells the lobby what changed and re-arms the timer for the next deadline.
    private func publish() {
        if room.isClosed {
            timer?.cancel()
            timer = nil
            server.roomClosed(code)
            server.store.roomClosed(code)
            return
        }
        let summary = room.summary
        if summary != publishedSummary {
            publishedSummary = summary
            server.update(summary)
        }
        let deadline = room.nextDeadline
        guard deadline != timerDeadline else { return }
        timer?.cancel()
        timerDeadline = deadline
        guard let deadline else {
            timer = nil
            return
        }
        let instant = server.clock.instant(of: deadline)
        timer = Task { [weak self] in
            do {
                try await Task.sleep(until: instant, clock: .continuous)
            } catch {
                return
            }
            await self?.fire()
        }
    }

    private func fire() {
        timerDeadline = nil
        perform(room.tick(now: server.clock.now))
    }
}
