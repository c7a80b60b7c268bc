import ArgumentParser
import DrawProtocol
import Foundation
import Glibc
import NIOCore
import NIOPosix
import Rooms
import ServerTestSupport
import Synchronization
import Testing
@testable import DrawServer
@testable import LoadTester

/// `replay --kernel-receive`: the receiver reads sockets itself and times frames by the
/// kernel's receive stamp (`ReplayReceiver`, `ReplayReceiveStamp`).
@Suite("Replay: kernel receive")
struct ReplayKernelReceiveTests {
    // MARK: - The control message

    /// A `cmsghdr` (64-bit Linux: len, level, type) followed by `payload`, padded to 8.
    static func message(level: CInt, type: CInt, payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        withUnsafeBytes(of: UInt(16 + payload.count).littleEndian) { bytes += $0 }
        withUnsafeBytes(of: level.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: type.littleEndian) { bytes += $0 }
        bytes += payload
        while bytes.count % 8 != 0 { bytes.append(0) }
        return bytes
    }

    static func timespecBytes(seconds: Int, nanoseconds: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        withUnsafeBytes(of: seconds.littleEndian) { bytes += $0 }
        withUnsafeBytes(of: nanoseconds.littleEndian) { bytes += $0 }
        return bytes
    }

    static func stamp(_ control: [UInt8], length: Int? = nil) -> UInt64? {
        control.withUnsafeBytes { ReplayReceiveStamp.realtimeStamp(in: $0, length: length ?? control.count) }
    }

    @Test func theTimestampMessageIsFound() {
        let stamp = Self.message(level: SOL_SOCKET, type: ReplayReceiveStamp.timestampOption,
                                 payload: Self.timespecBytes(seconds: 1_700_000_000, nanoseconds: 123_456_789))
        #expect(Self.stamp(stamp) == 1_700_000_000_123_456_789)
        // Behind a message of another kind, whose length is not a multiple of 8.
        let other = Self.message(level: CInt(IPPROTO_IP), type: 8, payload: [1, 2, 3, 4])
        #expect(other.count == 24)
        #expect(Self.stamp(other + stamp) == 1_700_000_000_123_456_789)
    }

    @Test func withoutATimestampMessageThereIsNoStamp() {
        #expect(Self.stamp([]) == nil)
        #expect(Self.stamp(Self.message(level: CInt(IPPROTO_IP), type: 8, payload: [1, 2, 3, 4])) == nil)
        let stamp = Self.message(level: SOL_SOCKET, type: ReplayReceiveStamp.timestampOption,
                                 payload: Self.timespecBytes(seconds: 1_700_000_000, nanoseconds: 5))
        // Cut short (the kernel truncated the control data: MSG_CTRUNC), or a length that
        // runs past what was returned: no stamp, never bytes from beyond it.
        #expect(Self.stamp(stamp, length: 20) == nil)
        var lying = stamp
        lying[0] = 200
        #expect(Self.stamp(lying) == nil)
        // A nonsense time.
        #expect(Self.stamp(Self.message(level: SOL_SOCKET, type: ReplayReceiveStamp.timestampOption,
                                        payload: Self.timespecBytes(seconds: 1, nanoseconds: 2_000_000_000))) == nil)
    }

    @Test func theArrivalIsTheReadTimeLessTheStampsAge() {
        let now: UInt64 = 50_000_000_000
        let real: UInt64 = 1_700_000_000_000_000_000
        #expect(ReplayReceiveStamp.arrival(stamp: real - 3_000_000, nowRealtime: real, nowUptime: now) == now - 3_000_000)
        // No stamp: timed when read, as without --kernel-receive.
        #expect(ReplayReceiveStamp.arrival(stamp: nil, nowRealtime: real, nowUptime: now) == now)
        // A stamp from the future (the clock stepped back) or from long ago: the read time.
        #expect(ReplayReceiveStamp.arrival(stamp: real + 1_000_000, nowRealtime: real, nowUptime: now) == now)
        #expect(ReplayReceiveStamp.arrival(stamp: real - 3_600_000_000_000, nowRealtime: real, nowUptime: now) == now)
    }

    /// `--receive-interval` takes a duration (bare numbers are ms) within 0.05 to 10 ms.
    @Test func theReceiveIntervalIsChecked() throws {
        let base = ["--url", "ws://127.0.0.1:1/ws", "--kernel-receive"]
        #expect(try ReplayCommand.parse(base).receiveInterval == 0.2)
        #expect(try ReplayCommand.parse(base + ["--receive-interval", "1ms"]).receiveInterval == 1)
        #expect(try ReplayCommand.parse(base + ["--receive-interval", "0.5"]).receiveInterval == 0.5)
        #expect(throws: (any Error).self) { try ReplayCommand.parse(base + ["--receive-interval", "0ms"]) }
        #expect(throws: (any Error).self) { try ReplayCommand.parse(base + ["--receive-interval", "1s"]) }
        #expect(throws: (any Error).self) { try ReplayCommand.parse(base + ["--receive-interval", "soon"]) }
    }

    // MARK: - The receiver on a real socket

    /// Records what the receiver hands over.
    final class Reader: ReplayReceiving {
        var chunks: [(bytes: [UInt8], arrival: UInt64)] = []
        var ended: [CInt?] = []
        func receive(_ bytes: ByteBuffer, arrivedAt nanoseconds: UInt64) { chunks.append((Array(buffer: bytes), nanoseconds)) }
        func receiveEnded(errno code: CInt?) { ended.append(code) }
    }

    /// A connected loopback TCP pair (blocking sockets): (the sender's end, the reader's end).
    static func socketPair() throws -> (CInt, CInt) {
        let pair = try LoopbackTCPPair.make()
        return (pair.sender, pair.reader)
    }

    static func send(_ bytes: [UInt8], on socket: CInt) throws {
        let sent = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, 0) }
        try #require(sent == bytes.count)
    }

    /// Polls by hand until `done` holds (at most 5 s): on a busy machine the loopback
    /// delivery of a send, or of a close's FIN, may run a moment after the call returns
    /// (softirq work deferred to `ksoftirqd`), so one poll right after it may find nothing yet.
    static func poll(_ receiver: ReplayReceiver, on loop: any EventLoop, until done: @escaping () -> Bool) async throws {
        for _ in 0..<2_500 {
            if try await loop.submit({ receiver.poll(); return done() }).get() { return }
            try await Task.sleep(for: .milliseconds(2))
        }
        Issue.record("the receiver did not get there within 5 s")
    }

    /// Bytes sent before the read are stamped when they were queued: their arrival is before
    /// the read, however late the read comes. Bytes read with no stamp are timed at the read.
    @Test func bytesAreTimedWhenTheKernelQueuedThemNotWhenRead() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let (sender, readerSocket) = try Self.socketPair()
        // The test polls by hand: no timer reads in between.
        let receiver = try #require(ReplayReceiver(eventLoop: loop, configuration: .init(interval: .hours(1))))
        let reader = Reader()
        let id = try await loop.submit { receiver.register(socket: readerSocket, reader: reader) }.get()
        #expect(id != nil)

        // A frame split over two sends (and so two reads): both halves arrive, in order.
        let frame = ReplayFrameDecoderTests.frame(0x2, Array(0..<100))
        try Self.send(Array(frame[0..<37]), on: sender)
        let afterFirstSend = NIODeadline.now().uptimeNanoseconds
        try await Self.poll(receiver, on: loop) { reader.chunks.count == 1 }
        try Self.send(Array(frame[37...]), on: sender)
        let afterSecondSend = NIODeadline.now().uptimeNanoseconds
        try await Self.poll(receiver, on: loop) { reader.chunks.count == 2 }
        let chunks = try await loop.submit { reader.chunks }.get()
        try #require(chunks.count == 2)
        #expect(chunks.flatMap(\.bytes) == frame)
        #expect(chunks[0].arrival <= afterFirstSend)
        #expect(chunks[1].arrival > afterFirstSend && chunks[1].arrival <= afterSecondSend)
        #expect(receiver.stampedReads == 2 && receiver.unstampedReads == 0)

        // The stamp switched off: the next read is timed when read, and counted as such.
        var off: CInt = 0
        #expect(setsockopt(readerSocket, SOL_SOCKET, ReplayReceiveStamp.timestampOption, &off, socklen_t(MemoryLayout<CInt>.size)) == 0)
        try Self.send([1, 2, 3], on: sender)
        let beforeRead = NIODeadline.now().uptimeNanoseconds
        try await Self.poll(receiver, on: loop) { reader.chunks.count == 3 }
        let last = try await loop.submit { reader.chunks.last }.get()
        #expect(last?.bytes == [1, 2, 3])
        #expect((last?.arrival ?? 0) >= beforeRead)
        #expect(receiver.unstampedReads == 1)

        // The sender closes: the end is reported once, and the socket leaves the set.
        close(sender)
        try await Self.poll(receiver, on: loop) { !reader.ended.isEmpty }
        try await loop.submit { receiver.poll() }.get()
        #expect(try await loop.submit { reader.ended }.get() == [nil])
        close(readerSocket)
        try await group.shutdownGracefully()
    }

    /// A whole run with `--kernel-receive` against the server: everything is delivered, and
    /// most reads were timed by kernel stamps (not the bytes the kernel queued before the
    /// receiver switched the stamps on, such as `welcome`).
    /// The drain (how long the replay waits for frames still in flight) is generous: the
    /// suite runs many servers at once, and 2 s let 8 % of the frames arrive after it.
    @Test func aRunWithKernelReceiveDeliversAndStampsEveryRead() async throws {
        try await withServer({ $0.limits.maxConnectionsPerIP = 0; $0.limits.roomCreationsPerIP = Rate(1000, perMs: 1000) }) { port in
            let json = FileManager.default.temporaryDirectory.appendingPathComponent("kernel-receive-\(UUID().uuidString).json")
            defer { try? FileManager.default.removeItem(at: json) }
            let (status, output) = try await ServerProcess.run(
                ["replay", "--url", "ws://127.0.0.1:\(port)/ws", "--rooms", "2", "--players", "3", "--connect-first",
                 "--duration", "3", "--warmup", "0.5", "--drain", "6", "--threads", "1", "--kernel-receive", "--quiet", "--json", json.path],
                timeout: 60
            )
            #expect(status == 0, "exit \(status): \(output)")
            let summary = try JSONDecoder().decode(ReplaySummary.self, from: Data(contentsOf: json))
            #expect(summary.delivery.delivered > 0)
            #expect(summary.delivery.delivered == summary.delivery.expected)
            let stamped = summary.client.kernelStampedReads ?? 0
            #expect(stamped > 0)
            // Most reads are stamped. Some are not: what the kernel queued before the stamps were
            // switched on, and, on a loaded machine, more (full runs saw 15 of 53 reads for 6
            // connections, and 35 of 170; the cause is not traced), each counted and timed
            // when read.
            let unstamped = try #require(summary.client.unstampedReads)
            #expect(unstamped * 2 <= stamped, "unstamped \(unstamped), stamped \(stamped)")
        }
    }
}
