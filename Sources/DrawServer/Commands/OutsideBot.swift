import Bots
import DrawClient
import DrawProtocol
import Rooms

/// One bot playing through a `DrawClient` connection: the thin owner of a `BotBrain`. It
/// hands the brain every message and frame the connection receives, with the time, and
/// carries out what the brain answers: messages and frames to send, and when to wake it.
struct OutsideBot: Sendable {
    struct Plan: Sendable {
        var url: String
        var room: String
        var games: Int
        var timeout: Duration
    }

    /// What one bot saw and did.
    struct Outcome: Sendable {
        var name: String
        var failure: String?
        var timedOut = false
        var gamesEnded = 0
        var turns = 0
        var turnsDrawn = 0
        var guessedRight = 0
        var messages = 0
        var framesReceived = 0
        var framesSent = 0
        var reconnections = 0

        var summary: String {
            let result = failure.map { "FAILED: \($0)" } ?? (timedOut ? "TIMED OUT" : "ok")
            return "\(name): \(result); games ended \(gamesEnded), turns \(turns) (drew \(turnsDrawn), "
                + "guessed \(guessedRight)), messages \(messages), frames received \(framesReceived), "
                + "frames sent \(framesSent), reconnections \(reconnections)"
        }
    }

    let name: String
    let brain: BotBrain
    let plan: Plan

    private enum Input: Sendable {
        case event(ClientEvent)
        case wake
        case timeout
    }

    func play() async -> Outcome {
        var outcome = Outcome(name: name)
        var brain = self.brain
        let client = DrawClient(transport: WebSocketTransport(url: plan.url), name: name)
        let clock = ContinuousClock()
        let start = clock.now
        func now() -> Timestamp {
            let elapsed = clock.now - start
            return Timestamp(milliseconds: elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
        }
        let (inputs, feed) = AsyncStream.makeStream(of: Input.self)
        let forward = Task {
            for await event in client.events { feed.yield(.event(event)) }
            feed.finish()
        }
        let timeout = plan.timeout
        let deadline = Task {
            try? await Task.sleep(for: timeout)
            feed.yield(.timeout)
        }
        var wake: Task<Void, Never>?
        defer {
            wake?.cancel()
            deadline.cancel()
            forward.cancel()
        }

        do {
            // The welcome also reaches the brain through `events`, first of all.
            try await client.connect()
            try await client.send(.join(code: plan.room))
        } catch {
            outcome.failure = "could not connect and join: \(error)"
            await client.stop()
            return outcome
        }

        loop: for await input in inputs {
            var actions: [BotAction] = []
            switch input {
            case .event(.message(let event, _)):
                outcome.messages += 1
                switch event {
                case .error(let error) where error.ref == "join":
                    outcome.failure = "could not join \(plan.room): \(error.code.rawValue)"
                    break loop
                case .turn(let drawer, _, _, _, _):
                    outcome.turns += 1
                    if drawer == brain.playerID { outcome.turnsDrawn += 1 }
                case .guessed(let player, _, _) where player == brain.playerID:
                    outcome.guessedRight += 1
                case .gameEnd:
                    outcome.gamesEnded += 1
                case .kicked, .closed:
                    outcome.failure = "the room closed or kicked the bot"
                    break loop
                default:
                    break
                }
                actions = brain.receive(event, now: now())
            case .event(.unrecognized):
                outcome.messages += 1
            case .event(.drawing(let bytes)):
                outcome.framesReceived += 1
                actions = brain.receive(binary: bytes, now: now())
            case .event(.disconnected):
                outcome.reconnections += 1
            case .event(.stopped(let reason)):
                outcome.failure = "connection stopped: \(reason)"
                break loop
            case .event(.connecting):
                break
            case .wake:
                actions = brain.wake(now: now())
            case .timeout:
                outcome.timedOut = true
                break loop
            }
            for action in actions {
                switch action {
                case .send(let message):
                    try? await client.send(message)
                case .sendBinary(let bytes):
                    outcome.framesSent += 1
                    try? await client.send(.binary(bytes))
                case .wake(let at):
                    wake?.cancel()
                    let delay = max(0, at - now())
                    wake = Task {
                        try? await Task.sleep(for: .milliseconds(delay))
                        if !Task.isCancelled { feed.yield(.wake) }
                    }
                }
            }
            if outcome.gamesEnded >= plan.games { break }
        }
        await client.stop()
        return outcome
    }
}
