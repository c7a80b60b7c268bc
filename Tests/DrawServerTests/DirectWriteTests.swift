import Dispatch
import NIOCore
import NIOPosix
import Testing
@testable import DrawServer
#if canImport(Glibc)
import Glibc
#endif

/// `ConnectionHandler` sends a drain's frames straight to the socket while NIO has nothing
/// of the connection's to write, and through NIO otherwise. Bytes must never overtake
/// each other, however the two alternate.
@Suite("Connection: direct socket writes")
struct DirectWriteTests {
    /// Reads `count` bytes from a blocking descriptor on a thread of its own.
    static func read(_ count: Int, from descriptor: CInt) async -> [UInt8] {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var received: [UInt8] = []
                received.reserveCapacity(count)
                var chunk = [UInt8](repeating: 0, count: 65_536)
                while received.count < count {
                    let got = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                    if got <= 0 { break }
                    received += chunk[0..<got]
                    usleep(200)  // a slow reader, so the writer's socket fills now and then
                }
                continuation.resume(returning: received)
            }
        }
    }

    /// A `ConnectionHandler` alone in the pipeline of a channel on `descriptor`.
    static func connectionHandler(on descriptor: CInt) async throws -> (any EventLoop, ConnectionHandler, any Channel) {
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        let handler = ConnectionHandler(activity: ActivityMonitor(), eventLoop: eventLoop)
        let channel = try await ClientBootstrap(group: eventLoop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(handler) }
            }
            .withConnectedSocket(descriptor).get()
        return (eventLoop, handler, channel)
    }

    @Test func framesKeepTheirOrderWhileTheSocketFillsAndNIOTakesOverAndHandsBack() async throws {
        var descriptors: [CInt] = [0, 0]
        #expect(socketpair(AF_UNIX, CInt(SOCK_STREAM.rawValue), 0, &descriptors) == 0)
        var small: CInt = 8_192
        setsockopt(descriptors[0], SOL_SOCKET, SO_SNDBUF, &small, socklen_t(MemoryLayout<CInt>.size))
        setsockopt(descriptors[1], SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<CInt>.size))
        defer { close(descriptors[1]) }

        let (eventLoop, handler, channel) = try await Self.connectionHandler(on: descriptors[0])

        // Rounds of drains (1 to 4 frames of 300 to 3,000 bytes, the last flushed, as
        // `ConnectionWriter.drain` writes them) with, now and then between two drains, a
        // frame written through the pipeline as the WebSocket layer writes its pongs.
        var expected: [UInt8] = []
        var rounds: [[(frame: WireFrame, viaPipeline: Bool, flush: Bool)]] = []
        var generator = SystemRandomNumberGenerator()
        for round in 0..<40 {
            var writes: [(frame: WireFrame, viaPipeline: Bool, flush: Bool)] = []
            while writes.count < 60 {
                if Int.random(in: 0..<6, using: &generator) == 0 {
                    let pong = WireFrame(.text, payload: Array("pong \(round) \(writes.count)".utf8))
                    writes.append((pong, true, true))
                    expected += Array(buffer: pong.bytes)
                }
                let frames = Int.random(in: 1...4, using: &generator)
                for index in 0..<frames {
                    let length = Int.random(in: 300...3_000, using: &generator)
                    let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0 &+ writes.count &+ round * 7) }
                    let frame = WireFrame(.binary, payload: payload)
                    writes.append((frame, false, index == frames - 1))
                    expected += Array(buffer: frame.bytes)
                }
            }
            rounds.append(writes)
        }
        let (total, reader) = (expected.count, descriptors[1])
        let reading = Task { await Self.read(total, from: reader) }
        for writes in rounds {
            try await eventLoop.submit {
                for write in writes {
                    if write.viaPipeline {
                        channel.writeAndFlush(write.frame.bytes, promise: nil)
                    } else {
                        handler.write(write.frame, flush: write.flush)
                    }
                }
            }.get()
            try await Task.sleep(for: .milliseconds(2))
        }
        let received = await reading.value
        #expect(received.count == expected.count)
        let firstDifference = zip(received, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil, "the bytes differ from offset \(firstDifference ?? 0) on")
        let (direct, viaNIO) = try await eventLoop.submit { (handler.batchesSentDirectly, handler.batchesHandedToNIO) }.get()
        #expect(direct > 0, "some drains went straight to the socket")
        #expect(viaNIO > 0, "some drains found the socket full or NIO busy")
        try await channel.close()
    }

    /// What a connection's read burst relays goes out when that burst ends, before the event
    /// loop reads the next socket, not at the end of the loop's turn: under load a turn reads
    /// hundreds of sockets, and waiting for all of them was most of a frame's latency.
    @Test func aReadBurstsRelayedFramesGoOutWhenTheBurstEnds() async throws {
        var descriptors: [CInt] = [0, 0]
        #expect(socketpair(AF_UNIX, CInt(SOCK_STREAM.rawValue), 0, &descriptors) == 0)
        defer { close(descriptors[1]) }
        let flags = fcntl(descriptors[1], F_GETFL)
        #expect(fcntl(descriptors[1], F_SETFL, flags | O_NONBLOCK) == 0)

        let (eventLoop, handler, channel) = try await Self.connectionHandler(on: descriptors[0])
        let outbox = Outbox(limit: 1 << 20, hardClose: {})
        let scheduler = EventLoopWriteScheduler(eventLoop: eventLoop)
        let reader = descriptors[1]
        let (afterReadComplete, afterSend) = try await eventLoop.submit {
            handler.writer = ConnectionWriter(outbox: outbox, sink: handler, maxFrameSize: 1 << 16, scheduler: scheduler)
            // As a drawer's frame relayed to this connection during some socket's read burst.
            _ = outbox.send(WireFrame(.binary, payload: [1, 2, 3]))
            var chunk = [UInt8](repeating: 0, count: 64)
            let beforeReadComplete = chunk.withUnsafeMutableBytes { Glibc.read(reader, $0.baseAddress, $0.count) }
            channel.pipeline.fireChannelReadComplete()
            let afterReadComplete = chunk.withUnsafeMutableBytes { Glibc.read(reader, $0.baseAddress, $0.count) }
            return (afterReadComplete, beforeReadComplete)
        }.get()
        #expect(afterSend == -1, "nothing is written while the burst is still being read")
        #expect(afterReadComplete == 5, "the frame (2 bytes of header, 3 of payload) is out when the burst ends")
        // The drain task queued by the wake-up finds nothing left, and the writer still works.
        try await eventLoop.submit { _ = outbox.send(WireFrame(.binary, payload: [4])) }.get()
        try await Task.sleep(for: .milliseconds(20))
        var chunk = [UInt8](repeating: 0, count: 64)
        let later = chunk.withUnsafeMutableBytes { Glibc.read(reader, $0.baseAddress, $0.count) }
        #expect(later == 3)
        try await channel.close()
    }
}
