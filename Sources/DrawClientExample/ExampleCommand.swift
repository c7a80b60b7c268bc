import ArgumentParser
import DrawClient
import Foundation

/// A small client on DrawClient: joins (or creates) a room, chats, and, when given a
/// stroke log, plays its turns as drawer by sending the log's frames at their pace.
@main
struct ExampleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drawclient-example",
        abstract: "Join a drawserver room, chat, and draw a stroke log."
    )

    @Option(help: "The server's WebSocket URL.")
    var url = "ws://127.0.0.1:8080/ws"
    @Option(help: "Your nickname.")
    var name = "Example"
    @Option(help: "Join this room code; without it a private room is created.")
    var room: String?
    @Option(help: "Send this chat line once in the room.")
    var chat: String?
    @Option(help: "A stroke log (NDJSON, as `drawserver render` reads) to draw when it is your turn.")
    var draw: String?
    @Option(help: "Play the log this many times faster than it was recorded.")
    var speed = 1.0
    @Flag(help: "Mark yourself ready (the game starts when everyone is).")
    var ready = false
    @Flag(help: "After drawing the log, end the turn (skip) so the game goes on.")
    var skip = false
    @Flag(help: "Leave when the first turn ends.")
    var exitAfterTurn = false
    @Option(help: "Leave after this many seconds.")
    var seconds = 60.0

    func run() async throws {
        let log = try draw.map { path in try StrokeLog(ndjson: String(contentsOfFile: path, encoding: .utf8)) }
        let client = DrawClient(transport: WebSocketTransport(url: url), name: name)
        let welcome = try await client.connect()
        say("welcome \(welcome.name) (\(welcome.playerID))")
        if let room {
            try await client.send(.join(code: room))
        } else {
            try await client.send(.create(settings: SettingsPatch(rounds: 1)))
        }
        let deadline = Task {
            try? await Task.sleep(for: .seconds(seconds))
            await client.stop()
        }
        var chatted = false
        var drawer: Task<Void, Never>?
        var decoder = DrawingDecoder()
        var received = 0
        for await event in client.events {
            switch event {
            case .message(.room(let info), _):
                if !chatted {
                    chatted = true
                    say("in room \(info.code) with \(info.players.map(\.name).joined(separator: ", "))")
                    if let chat { try? await client.send(.chat(chat)) }
                    if ready { try? await client.send(.ready(true)) }
                }
            case .message(.chat(_, let name, let text), _):
                say("\(name): \(text)")
            case .message(.choose(let words, _), _):
                say("choosing \(words.first ?? "")")
                try? await client.send(.choose(index: 0))
            case .message(.canvas(let width, let height), _):
                decoder.reset(size: CanvasSize(width: width, height: height))
            case .message(.turn(let drawerID, _, let mask, _, let word), _):
                decoder.reset()
                if drawerID == (await client.playerID), let log {
                    say("drawing \(word ?? mask)")
                    drawer?.cancel()
                    drawer = Task { [speed, skip] in await Self.play(log, on: client, speed: speed, skip: skip) }
                } else {
                    say("guess: \(mask)")
                }
            case .message(.turnEnd(let word, let reason, _, _, _), _):
                if received > 0 { say("received \(received) drawing operations") }
                received = 0
                say("the word was \(word) (\(reason.rawValue))")
                if exitAfterTurn { await client.stop() }
            case .message(.error(let error), _):
                say("error \(error.code.rawValue): \(error.message)")
            case .drawing(let bytes):
                do {
                    received += try decoder.decode(bytes).count
                } catch {
                    say("bad drawing frame: \(error)")
                }
            case .disconnected(let code, let retryIn):
                say("disconnected (\(code))" + (retryIn.map { ", retrying in \($0)" } ?? ""))
            case .stopped(let reason):
                if received > 0 { say("received \(received) drawing operations") }
                say("stopped: \(reason)")
            default:
                break
            }
        }
        deadline.cancel()
    }

    /// Sends the log's frames as recorded, `speed` times faster.
    static func play(_ log: StrokeLog, on client: DrawClient, speed: Double, skip: Bool) async {
        let clock = ContinuousClock()
        let start = clock.now
        for frame in log.frames {
            let due = start + .milliseconds(Int(Double(frame.at) / max(speed, 0.01)))
            try? await clock.sleep(until: due)
            if Task.isCancelled { return }
            // Sent as recorded: the log's frames are already valid wire frames.
            try? await client.send(.binary(frame.bytes))
        }
        var decoder = DrawingDecoder(size: log.size)
        let operations = log.frames.reduce(0) { count, frame in count + ((try? decoder.decode(frame.bytes).count) ?? 0) }
        say("drew \(log.frames.count) frames, \(operations) operations")
        if skip { try? await client.send(.skip) }
    }
}

/// Writes a line at once (unbuffered also into a pipe, so a script can read the room code).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
