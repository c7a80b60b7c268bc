import Canvas
import DrawProtocol
import Logging
import NIOCore
import NIOPosix
import Rooms
import Testing
@testable import DrawServer

/// What relaying one drawing frame costs in locks (docs/ARCHITECTURE.md, "The path of a
/// drawing frame"): the room's, then one hand-off per event loop, the drawer's own loop
/// included (what other threads handed it goes first), and none per recipient.
@Suite("Fan-out: locks per frame")
struct FanOutLockTests {
    @Test func aFrameToSevenPlayersOnFourLoopsTakesTheRoomsLockAndOneHandOffPerLoop() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 4)
        let loops = Array(group.makeIterator())
        let audit = LockAudit()
        let server = GameServer(
            configuration: ServerConfiguration(), logger: Logger(label: "drawserver-test"), eventLoopGroup: group, lockAudit: audit
        )
        var room = Room(code: try #require(RoomCode(parsing: "RELAY2")), name: "locks", isPublic: false, settings: RoomSettings(), configuration: RoomConfiguration(), seed: 1)
        let ids = (0..<8).map { PlayerID("p\($0)") }
        for id in ids { _ = room.join(id, name: id.rawValue, now: server.clock.now) }
        _ = room.handle(.start, from: ids[0], now: server.clock.now)
        _ = room.handle(.choose(index: 0), from: ids[0], now: server.clock.now)
        let live = LiveRoom(room: room, server: server)
        var outboxes: [Outbox] = []
        for (index, id) in ids.enumerated() {
            let loop = loops[index % loops.count]
            let delivery = server.loopDeliveries.delivery(for: loop)
            let outbox = try await loop.submit { Outbox(limit: 1 << 20, delivery: delivery, hardClose: {}) }.get()
            live.attach(id, outbox: outbox)
            outboxes.append(outbox)
        }
        // What joining queued (the room's state): the frame comes on top of it.
        var before: [Int] = []
        for outbox in outboxes { before.append(try await outbox.eventLoop.submit { outbox.queuedBytes }.get()) }
        _ = audit.takeAcquisitions()

        // The drawer's frame, read on the drawer's loop.
        let frame = strokeBytes(from: Point(x: 10, y: 10), to: Point(x: 200, y: 120))
        let acquisitions = try await loops[0].submit {
            live.draw(ByteBuffer(bytes: frame), from: ids[0])
            return audit.takeAcquisitions()
        }.get()
        #expect(acquisitions.first == "a room's lock")
        #expect(acquisitions.filter { $0 == "a loop's inbox" }.count == loops.count, "one hand-off per loop, none per recipient")
        #expect(acquisitions.count <= loops.count + 3)
        #expect(audit.violations == [])

        // Every recipient got the frame, on its own loop; the drawer got nothing.
        for (index, outbox) in outboxes.enumerated() {
            let queued = try await outbox.eventLoop.submit { outbox.queuedBytes }.get()
            #expect(queued - before[index] == (index == 0 ? 0 : frame.count + 2), "player \(index)")
        }
        try await group.shutdownGracefully()
    }
}
