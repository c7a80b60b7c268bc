import Dispatch
import Foundation
import NIOCore
import NIOPosix
import NIOWebSocket
import ServerTestSupport
import Testing
import WebSocketFrames
@testable import DrawServer
#if canImport(Glibc)
import Glibc
#endif

/// `SocketHandler` sends a drain's frames straight to the socket while NIO has nothing
/// of the connection's to write, and through NIO otherwise. Bytes must never overtake
/// each other, however the two alternate.
@Suite("Connection: direct socket writes")
struct DirectWriteTests {
    /// Reads `count` bytes from a blocking descriptor on a thread of its own.
    static func read(_ count: Int, from descriptor: CInt) async -> [UInt8] {
        await offThePool {
            var received: [UInt8] = []
            received.reserveCapacity(count)
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while received.count < count {
                let got = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if got <= 0 { break }
                received += chunk[0..<got]
                usleep(200)  // a slow reader, so the writer's socket fills now and then
            }
            return received
        }
    }

    /// Runs `body` on a thread of its own and waits for it, from an event loop's task
    /// (`DispatchQueue.sync` would run it on this one).
    static func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        Thread {
            body()
            done.signal()
        }.start()
        done.wait()
    }

    /// Reads what arrives on a non-blocking descriptor until `count` bytes came or 5 seconds
    /// passed: a drain task runs when the shared event loop gets to it.
    static func readSoon(_ count: Int, from descriptor: CInt) async throws -> [UInt8] {
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + .seconds(5)
        var chunk = [UInt8](repeating: 0, count: 64)
        while received.count < count, ContinuousClock.now < deadline {
            let got = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if got > 0 { received += chunk[0..<got] } else { try await Task.sleep(for: .milliseconds(2)) }
        }
        return received
    }

    /// A connected pair of Unix stream sockets: the first for the channel under test, the
    /// second its peer. `smallBuffers` makes the channel's socket fill up often;
    /// `nonBlockingPeer` lets the test read what has arrived without waiting.
    static func socketPair(smallBuffers: Bool = false, nonBlockingPeer: Bool = false) -> [CInt] {
        var descriptors: [CInt] = [0, 0]
        #expect(socketpair(AF_UNIX, CInt(SOCK_STREAM.rawValue), 0, &descriptors) == 0)
        if smallBuffers {
            var small: CInt = 8_192
            setsockopt(descriptors[0], SOL_SOCKET, SO_SNDBUF, &small, socklen_t(MemoryLayout<CInt>.size))
            setsockopt(descriptors[1], SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<CInt>.size))
        }
        if nonBlockingPeer {
            #expect(fcntl(descriptors[1], F_SETFL, fcntl(descriptors[1], F_GETFL) | O_NONBLOCK) == 0)
        }
        return descriptors
    }

    /// A `SocketHandler` alone in the pipeline of a channel on `descriptor`.
    static func connectionHandler(
        on descriptor: CInt, eventLoop: (any EventLoop)? = nil, directWrites: Bool = true
    ) async throws -> (any EventLoop, SocketHandler, any Channel) {
        let eventLoop = eventLoop ?? MultiThreadedEventLoopGroup.singleton.next()
        let handler = SocketHandler(activity: ActivityMonitor(), eventLoop: eventLoop, directWrites: directWrites)
        let channel = try await ClientBootstrap(group: eventLoop)
            // As Hummingbird's server channels.
            .channelOption(.allowRemoteHalfClosure, value: true)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(handler) }
            }
            .withConnectedSocket(descriptor).get()
        return (eventLoop, handler, channel)
    }

    /// An outbox for `handler`'s connection, made on its loop with `delivery` (one of its
    /// own by default), its output given to the handler as the server does.
    static func outbox(
        for handler: SocketHandler, on eventLoop: any EventLoop, delivery: LoopDelivery? = nil, limit: Int = 1 << 20
    ) async throws -> Outbox {
        try await eventLoop.submit {
            let outbox = Outbox(limit: limit, delivery: delivery ?? LoopDelivery(eventLoop: eventLoop), hardClose: {})
            handler.output = outbox.output
            return outbox
        }.get()
    }

    /// `--nio-writes-only`: the plain path the benchmark compares with; every batch goes
    /// through NIO, and nothing is ever sent at once.
    @Test func withoutDirectWritesEveryBatchGoesThroughNIO() async throws {
        let descriptors = Self.socketPair(nonBlockingPeer: true)
        defer { close(descriptors[1]) }
        let (eventLoop, handler, channel) = try await Self.connectionHandler(on: descriptors[0], directWrites: false)
        let outbox = try await Self.outbox(for: handler, on: eventLoop)
        let sentAtOnce = try await eventLoop.submit { () -> Bool in
            handler.write(WireFrame(.binary, payload: [1]), flush: true)
            outbox.send(WireFrame(.binary, payload: [2]))
            return outbox.immediateSends > 0
        }.get()
        #expect(!sentAtOnce, "no frame is sent at once")
        #expect(try await Self.readSoon(6, from: descriptors[1]) == [0x82, 1, 1, 0x82, 1, 2])
        let (direct, viaNIO) = try await eventLoop.submit { (handler.batchesSentDirectly, handler.batchesHandedToNIO) }.get()
        #expect(direct == 0)
        #expect(viaNIO == 2)
        try await channel.close()
    }

    @Test func framesKeepTheirOrderWhileTheSocketFillsAndNIOTakesOverAndHandsBack() async throws {
        let descriptors = Self.socketPair(smallBuffers: true)
        defer { close(descriptors[1]) }

        let (eventLoop, handler, channel) = try await Self.connectionHandler(on: descriptors[0])

        // Rounds of drains (1 to 4 frames of 300 to 3,000 bytes, the last flushed, as
        // `ConnectionOutput.drain` writes them) with, now and then between two drains, a
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
    /// hundreds of sockets, and waiting for all of them was most of a frame's latency. The
    /// reading connection's own frames wait for the loop's task (see `drainNow`).
    @Test func aReadBurstsRelayedFramesGoOutWhenTheBurstEnds() async throws {
        let descriptors = Self.socketPair(nonBlockingPeer: true) + Self.socketPair(nonBlockingPeer: true)
        defer { close(descriptors[1]); close(descriptors[3]) }
        // A reading connection and a recipient of what it relays, on one event loop.
        let (eventLoop, readerHandler, readerChannel) = try await Self.connectionHandler(on: descriptors[0])
        let (_, recipientHandler, recipientChannel) = try await Self.connectionHandler(on: descriptors[2], eventLoop: eventLoop)
        let delivery = LoopDelivery(eventLoop: eventLoop)
        let readerOutbox = try await Self.outbox(for: readerHandler, on: eventLoop, delivery: delivery)
        let recipientOutbox = try await Self.outbox(for: recipientHandler, on: eventLoop, delivery: delivery)
        let (readerPeer, recipientPeer) = (descriptors[1], descriptors[3])
        func readNow(_ descriptor: CInt) -> Int {
            var chunk = [UInt8](repeating: 0, count: 64)
            return chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        }
        let (beforeReadComplete, recipientGot, readerGot) = try await eventLoop.submit {
            // Frames handed off from another thread (a room timer, a text message's task):
            // the loop's task that takes them is queued behind this one.
            Self.onAnotherThread {
                _ = recipientOutbox.send(WireFrame(.binary, payload: [1, 2]))
                _ = readerOutbox.send(WireFrame(.binary, payload: [9]))
            }
            // A drawer's frame relayed to the recipient during the reader's read burst
            // queues behind the recipient's queued frame rather than overtaking it.
            _ = recipientOutbox.send(WireFrame(.binary, payload: [3]))
            let before = readNow(recipientPeer)
            readerChannel.pipeline.fireChannelReadComplete()
            return (before, readNow(recipientPeer), readNow(readerPeer))
        }.get()
        #expect(beforeReadComplete == -1, "nothing is written while the burst is still being read")
        #expect(recipientGot == 5, "both frames, merged (2 bytes of header, 3 of payload), are out when the burst ends")
        #expect(readerGot == -1, "the reader's own frame waits for the loop's task")
        #expect(try await Self.readSoon(3, from: readerPeer) == [0x82, 1, 9], "and the task sends it")
        // The recipient's writer still works.
        try await eventLoop.submit { _ = recipientOutbox.send(WireFrame(.binary, payload: [4])) }.get()
        #expect(try await Self.readSoon(3, from: recipientPeer) == [0x82, 1, 4])
        try await readerChannel.close()
        try await recipientChannel.close()
    }

    /// A frame relayed on the recipient's own event loop while nothing of the recipient's is
    /// waiting goes to its socket within `Outbox.send`: no queueing, no drain. Frames queued
    /// before it, or sent from another thread, still wait for a drain, in order.
    @Test func aFrameForAnIdleConnectionOnItsOwnLoopIsSentAtOnce() async throws {
        let descriptors = Self.socketPair(nonBlockingPeer: true)
        defer { close(descriptors[1]) }

        let (eventLoop, handler, channel) = try await Self.connectionHandler(on: descriptors[0])
        let outbox = try await Self.outbox(for: handler, on: eventLoop)
        let reader = descriptors[1]
        func readNow() -> [UInt8] {
            var chunk = [UInt8](repeating: 0, count: 64)
            let got = chunk.withUnsafeMutableBytes { Glibc.read(reader, $0.baseAddress, $0.count) }
            return got > 0 ? Array(chunk[0..<got]) : []
        }
        let (atOnce, queued, immediateSends) = try await eventLoop.submit {
            _ = outbox.send(WireFrame(.binary, payload: [1, 2, 3]))
            let atOnce = readNow()
            Self.onAnotherThread { _ = outbox.send(WireFrame(.text, payload: Array("a".utf8))) }
            _ = outbox.send(WireFrame(.binary, payload: [4]))
            return (atOnce, readNow(), outbox.immediateSends)
        }.get()
        #expect(atOnce == [0x82, 3, 1, 2, 3], "the frame is on the socket as soon as it is sent")
        #expect(immediateSends == 1)
        #expect(queued.isEmpty, "frames behind a queued one wait for its drain")
        #expect(try await Self.readSoon(6, from: reader) == [0x81, 1, 0x61, 0x82, 1, 4], "the drain task sends them in order")
        // Idle again: the next frame on the loop goes at once.
        let again = try await eventLoop.submit {
            _ = outbox.send(WireFrame(.binary, payload: [5]))
            return readNow()
        }.get()
        #expect(again == [0x82, 1, 5])
        // Off the loop, a frame always queues.
        let offLoop = outbox.send(WireFrame(.binary, payload: [6]))
        #expect(offLoop)
        #expect(try await Self.readSoon(3, from: reader) == [0x82, 1, 6])
        #expect(try await eventLoop.submit { outbox.immediateSends }.get() == 2)
        try await channel.close()
    }

    /// A room queues frames for an idle recipient on its own loop under its lock and writes
    /// them once the lock is released (`WakeUps`: `handOff` under the lock, `run` after).
    /// Nothing is written before; a frame sent from another thread meanwhile follows them.
    @Test func framesQueuedUnderALockGoOutOnceItIsReleasedAndFramesSentMeanwhileFollow() async throws {
        let descriptors = Self.socketPair(nonBlockingPeer: true)
        defer { close(descriptors[1]) }

        let (eventLoop, handler, channel) = try await Self.connectionHandler(on: descriptors[0])
        let outbox = try await Self.outbox(for: handler, on: eventLoop)
        let reader = descriptors[1]
        let (beforeWrite, immediateSends) = try await eventLoop.submit { () -> ([UInt8], Int) in
            var wakes = WakeUps()
            wakes.deliver(WireFrame(.binary, payload: [1]), to: outbox, atOnce: true)
            wakes.deliver(WireFrame(.text, payload: Array("b".utf8)), to: outbox, atOnce: true)
            wakes.handOff()  // as under a room's lock
            let afterLock = wakes.take()
            Self.onAnotherThread { _ = outbox.send(WireFrame(.text, payload: Array("a".utf8))) }
            var chunk = [UInt8](repeating: 0, count: 64)
            let got = chunk.withUnsafeMutableBytes { Glibc.read(reader, $0.baseAddress, $0.count) }
            afterLock.run()  // the lock is released
            return (got > 0 ? Array(chunk[0..<got]) : [], outbox.immediateSends)
        }.get()
        #expect(beforeWrite.isEmpty, "nothing is written while the lock is held")
        #expect(try await Self.readSoon(9, from: reader) == [0x82, 1, 1, 0x81, 1, 0x62, 0x81, 1, 0x61], "the room's frames, then the one sent meanwhile")
        #expect(immediateSends == 1)
        try await channel.close()
    }

    /// A room on another thread hands a message to the recipient's loop; then the room, now
    /// on the recipient's own loop, relays a frame to it. The frame must not overtake the
    /// message waiting in the loop's inbox: the room takes that inbox first.
    @Test func aFrameOnTheRecipientsLoopStaysBehindWhatWasHandedToThatLoopBefore() async throws {
        let descriptors = Self.socketPair(nonBlockingPeer: true)
        defer { close(descriptors[1]) }

        let (eventLoop, handler, channel) = try await Self.connectionHandler(on: descriptors[0])
        let outbox = try await Self.outbox(for: handler, on: eventLoop)
        try await eventLoop.submit {
            Self.onAnotherThread {
                var wakes = WakeUps()
                wakes.deliver(WireFrame(.text, payload: Array("1".utf8)), to: outbox)
                wakes.handOff()  // as under the room's lock, on another thread
                wakes.run()
            }
            var wakes = WakeUps()
            wakes.deliver(WireFrame(.binary, payload: [2]), to: outbox, atOnce: true)
            wakes.handOff()  // the room's lock, on the recipient's loop
            wakes.take().run()
        }.get()
        #expect(try await Self.readSoon(6, from: descriptors[1]) == [0x81, 1, 0x31, 0x82, 1, 2], "the message first, then the frame")
        try await channel.close()
    }

    /// Frames sent to an outbox on the connection's loop (at once, or queued when something
    /// waits), from other threads (queued, drained at read-burst ends or by the loop's task)
    /// and pongs through the pipeline, with a socket that keeps filling up: every frame
    /// arrives whole, and the outbox's frames in the order they were sent.
    @Test func framesSentAtOnceQueuedOrThroughNIONeverOvertakeOrSplitEachOther() async throws {
        let descriptors = Self.socketPair(smallBuffers: true)
        defer { close(descriptors[1]) }

        let (eventLoop, handler, channel) = try await Self.connectionHandler(on: descriptors[0])
        let outbox = try await Self.outbox(for: handler, on: eventLoop, limit: 1 << 26)

        enum Way { case onLoop, otherThread, pipeline, readComplete }
        var generator = SystemRandomNumberGenerator()
        var rounds: [[(way: Way, frame: WireFrame?)]] = []
        // Each payload starts with its frame's number; pongs' numbers have the top bit set.
        var sent: [UInt32] = []
        var pongs: [UInt32] = []
        var total = 0
        for round in 0..<40 {
            var writes: [(way: Way, frame: WireFrame?)] = []
            for index in 0..<40 {
                let way: Way = [.onLoop, .onLoop, .onLoop, .otherThread, .pipeline, .readComplete].randomElement(using: &generator) ?? .onLoop
                guard way != .readComplete else {
                    writes.append((way, nil))
                    continue
                }
                let number = UInt32(round * 40 + index) | (way == .pipeline ? 1 << 31 : 0)
                let length = Int.random(in: 20...3_000, using: &generator)
                let payload = withUnsafeBytes(of: number.bigEndian, Array.init) + (4..<length).map { UInt8(truncatingIfNeeded: $0 &* 7) }
                // Text frames: queued binary frames would be merged.
                let frame = WireFrame(.text, payload: payload)
                writes.append((way, frame))
                total += frame.bytes.readableBytes
                if way == .pipeline { pongs.append(number) } else { sent.append(number) }
            }
            rounds.append(writes)
        }
        let (count, reader) = (total, descriptors[1])
        let reading = Task { await Self.read(count, from: reader) }
        for writes in rounds {
            try await eventLoop.submit {
                for write in writes {
                    switch write.way {
                    case .onLoop: if let frame = write.frame { outbox.send(frame) }
                    case .otherThread: if let frame = write.frame { Self.onAnotherThread { outbox.send(frame) } }
                    case .pipeline: if let frame = write.frame { channel.writeAndFlush(frame.bytes, promise: nil) }
                    case .readComplete: channel.pipeline.fireChannelReadComplete()
                    }
                }
            }.get()
            try await Task.sleep(for: .milliseconds(2))
        }
        let received = await reading.value
        #expect(received.count == total)
        var parser = WebSocketFrameParser(maxFrameSize: 1 << 20)
        var buffer = ByteBuffer()
        buffer.writeBytes(received)
        parser.append(buffer)
        var numbers: [UInt32] = []
        while let frame = try parser.next() {
            #expect(frame.opcode == .text && frame.fin && !frame.isMasked)
            numbers.append(frame.payload.getInteger(at: frame.payload.readerIndex, as: UInt32.self) ?? 0)
        }
        // A pong may go out between queued frames; everything else keeps its order.
        #expect(numbers.filter { $0 & (1 << 31) != 0 } == pongs)
        #expect(numbers.filter { $0 & (1 << 31) == 0 } == sent, "the outbox's frames arrived whole and in order")
        #expect(numbers.count == pongs.count + sent.count)
        let (viaNIO, immediateSends) = try await eventLoop.submit { (handler.batchesHandedToNIO, outbox.immediateSends) }.get()
        #expect(immediateSends > 0, "some frames went at once")
        #expect(viaNIO > 0, "some frames found the socket full or NIO busy")
        try await channel.close()
    }
}
