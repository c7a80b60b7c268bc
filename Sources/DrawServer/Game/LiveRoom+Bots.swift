import Bots
import Canvas
import DrawProtocol
import Rooms

/// A bot's brain seated in a live room, and when it asked to be woken.
struct BotSeat: Sendable {
    var brain: BotBrain
    var wake: Timestamp?
}

/// The room's bots: brains seated as sessions of the room. Each is given the same bytes a
/// player's socket would carry (every message encoded as for the wire, drawing frames as
/// relayed) and what it answers goes into the room as that player's messages and frames.
///
/// They are driven under the room's lock, in game time: a bot hears a message at the time
/// the room sent it, its answers are handled at that same time, and its wake-ups share the
/// room's timer with the room's own deadlines, each run at its own time in time order
/// (`runDue`). So a game of bots plays out the same on a loaded machine as on an idle one,
/// and the same with the same `--seed`.
extension LiveRoom {
    /// Most steps one call runs: a bound on a bot answering a bot forever.
    static let maxBotSteps = 10_000

    static func seatBot(_ player: PlayerID, level: BotLevel, in s: inout State, server: GameServer) {
        guard s.bots[player] == nil else { return }
        let brain = BotBrain(level: level, seed: botSeed(for: player, serverSeed: server.configuration.seed), library: server.botLibrary, playerID: player)
        s.bots[player] = BotSeat(brain: brain)
    }

    /// Gives a message the room sent to the bots among its audience; their answers wait.
    static func tellBots(_ message: ServerMessage, to audience: Audience, in s: inout State, now: Timestamp) {
        guard !s.bots.isEmpty else { return }
        let ids = s.bots.keys.sorted().filter { id in
            switch audience {
            case .player(let target): id == target
            case .everyone: true
            case .everyoneExcept(let excluded): id != excluded
            case .players(let listed): listed.contains(id)
            }
        }
        guard !ids.isEmpty else { return }
        for id in ids {
            let actions = s.bots[id]?.brain.receive(message, now: now) ?? []
            s.botActions += actions.map { (id, $0) }
        }
    }

    /// A drawing frame relayed by the room, shown to every bot but its sender.
    static func showBots(_ frame: [UInt8], except sender: PlayerID, in s: inout State, now: Timestamp) {
        for id in s.bots.keys.sorted() where id != sender {
            let actions = s.bots[id]?.brain.receive(binary: frame, now: now) ?? []
            s.botActions += actions.map { (id, $0) }
        }
    }

    /// Carries out the bots' answers in order at `now`; what they cause may give the bots
    /// more to do, which follows in turn.
    static func runBots(in s: inout State, server: GameServer, code: RoomCode, now: Timestamp) {
        var steps = 0
        while !s.botActions.isEmpty, steps < maxBotSteps {
            steps += 1
            let (id, action) = s.botActions.removeFirst()
            guard s.bots[id] != nil else { continue }
            switch action {
            case .send(let message):
                perform(s.room.handle(message, from: id, now: now), in: &s, server: server, code: code, now: now)
            case .sendBinary(let bytes):
                botDraw(bytes, from: id, in: &s, server: server, code: code, now: now)
            case .wake(let at):
                s.bots[id]?.wake = at
            }
        }
    }

    /// A bot's drawing frame, judged and relayed as a person's (`draw`), queued for each
    /// member under the lock. A refused one (its turn just ended) is dropped: the brain
    /// replays from its drawing, not from what the room kept.
    static func botDraw(_ bytes: [UInt8], from id: PlayerID, in s: inout State, server: GameServer, code: RoomCode, now: Timestamp) {
        let generation = s.room.canvasGeneration
        guard case .relay(let sender, _) = s.room.draw(frame: bytes, from: id, now: now) else { return }
        let wire = WireFrame(.binary, payload: bytes)
        s.wakes.deliver(wire, toMembers: s.outboxes, except: s.outboxes[sender])
        server.metrics.sentBinary(bytes: bytes.count, count: s.outboxes.entries.count(where: { $0.id != sender }))
        showBots(bytes, except: sender, in: &s, now: now)
        if s.room.canvasGeneration == generation {
            if let stored = s.room.strokeLog.frames.last {
                server.store.frameAppended(room: code, generation: generation, frame: stored, wakes: &s.wakes)
            }
        } else {
            for stored in s.room.strokeLog.frames {
                server.store.frameAppended(room: code, generation: s.room.canvasGeneration, frame: stored, wakes: &s.wakes)
            }
            server.store.roomChanged(s.room.snapshot(now: now), wakes: &s.wakes)
        }
    }

    /// The room's next deadline or a bot's wake-up, whichever comes first.
    static func nextDeadline(of s: State) -> Timestamp? {
        ([s.room.nextDeadline] + s.bots.values.map(\.wake)).compactMap { $0 }.min()
    }

    /// Runs everything due by `wall` in time order, each at its own time: room deadlines
    /// first, then bots' wake-ups by id.
    static func runDue(until wall: Timestamp, in s: inout State, server: GameServer, code: RoomCode) {
        for _ in 0..<maxBotSteps {
            let roomDue = s.room.nextDeadline
            let botDue = s.bots.compactMap { id, seat in seat.wake.map { (id: id, at: $0) } }
                .min { $0.at != $1.at ? $0.at < $1.at : $0.id < $1.id }
            guard let next = [roomDue, botDue?.at].compactMap({ $0 }).min(), next <= wall else { return }
            if let roomDue, roomDue == next {
                perform(s.room.tick(now: next), in: &s, server: server, code: code, now: next)
                // A deadline that did not move would come back at once.
                if s.room.nextDeadline == roomDue && s.botActions.isEmpty { return }
            } else if let botDue {
                s.bots[botDue.id]?.wake = nil
                let actions = s.bots[botDue.id]?.brain.wake(now: next) ?? []
                s.botActions += actions.map { (botDue.id, $0) }
            }
            runBots(in: &s, server: server, code: code, now: next)
        }
    }

    /// A person's drawing that its guessers liked more than disliked joins the drawings bots
    /// draw (ahead of the samples), so bots get better as people play; each drawing once.
    static func teachBots(_ rating: TurnRating, in s: inout State, server: GameServer) {
        guard let turn = s.lastTurn, turn.game == rating.game, turn.turn == rating.turn,
              rating.counts.likes > rating.counts.dislikes else { return }
        s.lastTurn = nil
        server.addBotDrawings([(turn.word, turn.strokes)])
    }

    /// A bot's brain seed: from the server's `--seed` and the bot's id, so a seeded server
    /// replays its bots too; random otherwise.
    static func botSeed(for id: PlayerID, serverSeed: UInt64?) -> UInt64 {
        guard let serverSeed else { return UInt64.random(in: .min ... .max) }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in id.rawValue.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
        }
        return serverSeed ^ hash
    }
}
