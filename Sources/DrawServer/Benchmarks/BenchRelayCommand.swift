import ArgumentParser
import Canvas
import Foundation
import Logging
import NIOCore
import Rooms

/// `drawserver bench-relay`: the relay path inside one process, from a drawer's frame
/// through the room actor into every guesser's outbound queue (no sockets).
struct BenchRelayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-relay",
        abstract: "Benchmark the in-process relay path: drawer -> room actor -> guessers' queues."
    )

    @Option(help: "Frames the drawer sends.")
    var frames = 200_000
    @Option(help: "Guessers receiving each frame.")
    var guessers = 7
    @Flag(help: "Persist strokes to a temporary SQLite database, as in production.")
    var persist = false

    func run() async throws {
        var configuration = ServerConfiguration()
        configuration.room.maxTurnStrokeBytes = .max
        configuration.room.maxTurnFills = .max
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString).sqlite").path
        configuration.databasePath = persist ? path : nil
        let runtime = try DrawServerRuntime(configuration: configuration, logger: logger)
        let writerTask = runtime.writer.map { writer in Task { try await writer.run() } }
        defer {
            writerTask?.cancel()
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }

        // A room in the middle of a drawing turn, with one outbox per player.
        var room = Room(code: RoomCode(parsing: "RELAY2")!, name: "bench", isPublic: true, settings: RoomSettings(), configuration: configuration.room, seed: 1)
        let ids = (0...guessers).map { PlayerID("p\($0)") }
        let now = runtime.server.clock.now
        for id in ids { _ = room.join(id, name: id.rawValue, now: now) }
        _ = room.handle(.start, from: ids[0], now: now)
        _ = room.handle(.choose(index: 0), from: ids[0], now: now)
        let actor = RoomActor(room: room, server: runtime.server)
        var consumers: [Task<Int, Never>] = []
        for id in ids {
            let outbox = Outbox(limit: 1 << 30, hardClose: {})
            await actor.attach(id, outbox: outbox)
            consumers.append(Task {
                var count = 0
                while let batch = await outbox.next() {
                    for frame in ConnectionWriter.coalesce(batch.frames, maxFrameSize: 65_536) {
                        if case .binary(let buffer) = frame { count += buffer.readableBytes }
                    }
                }
                return count
            })
        }

        // Realistic frames from a sample drawing, cycled; each is one pointer batch.
        let sample = SampleDrawing.make(seed: 5).frames.map { ByteBuffer(bytes: $0.bytes) }
        let drawer = ids[0]
        let cpuStart = ProcessCPU.seconds
        let start = ContinuousClock.now
        var sentBytes = 0
        for i in 0..<frames {
            let frame = sample[i % sample.count]
            sentBytes += frame.readableBytes
            await actor.draw(frame, from: drawer)
        }
        let sendDone = ContinuousClock.now
        await actor.close()
        var delivered = 0
        for consumer in consumers { delivered += await consumer.value }
        let elapsed = ContinuousClock.now - start
        await runtime.writer?.flush()
        let cpu = ProcessCPU.seconds - cpuStart
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let sendSeconds = Double((sendDone - start).components.seconds) + Double((sendDone - start).components.attoseconds) / 1e18
        let deliveries = frames * guessers
        print("Relay path: \(frames) frames from 1 drawer to \(guessers) guessers, persistence \(persist ? "on (SQLite, batched)" : "off")")
        print(String(format: "  frames/second          %.0f", Double(frames) / sendSeconds))
        print(String(format: "  deliveries/second      %.0f", Double(deliveries) / seconds))
        print(String(format: "  CPU per delivered frame %.3f µs", cpu / Double(deliveries) * 1e6))
        print(String(format: "  bytes delivered        %d (expected %d)", delivered, sentBytes * guessers))
    }
}
