import Glibc
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Synchronization
import Testing
@testable import DrawServer
@testable import LoadTester

/// The replay client's frame writer, against NIO's own WebSocket server: what it writes
/// straight to the socket and what it leaves to NIO arrive intact, masked and in order.
@Suite("Replay: frame writer")
struct ReplayFrameWriterTests {
    /// Collects the unmasked data frames a server received.
    final class Received: ChannelInboundHandler, Sendable {
        typealias InboundIn = WebSocketFrame
        let frames = Mutex<[(WebSocketOpcode, [UInt8], Bool)]>([])
        /// The upgraded connection, which reads nothing until `startReading`.
        let channel = Mutex<(any Channel)?>(nil)

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = unwrapInboundIn(data)
            frames.withLock { $0.append((frame.opcode, Array(buffer: frame.unmaskedData), frame.maskKey != nil)) }
        }

        func startReading() {
            guard let channel = channel.withLock({ $0 }) else { return }
            channel.setOption(.autoRead, value: true).whenComplete { _ in }
        }
    }

    /// A WebSocket server that hands every frame to `received`, once told to read.
    static func server(on group: any EventLoopGroup, received: Received) async throws -> any Channel {
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: 8 << 20,
            shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
            upgradePipelineHandler: { channel, _ in
                received.channel.withLock { $0 = channel }
                return channel.setOption(.autoRead, value: false).flatMap { channel.pipeline.addHandler(received) }
            }
        )
        return try await ServerBootstrap(group: group)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline(withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
            }
            .bind(host: "127.0.0.1", port: 0).get()
    }

    /// Sizes around each length encoding (7 bits, 16 bits, 64 bits), and a 4 MB frame that
    /// the socket takes only part of while the server does not read: NIO writes the rest.
    /// The server then empties the socket while NIO still holds that rest (the client's
    /// loop is busy), and the frames sent next must still wait behind it in NIO.
    @Test func framesOfEverySizeArriveMaskedAndInOrder() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let serverGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let received = Received()
        let server = try await Self.server(on: serverGroup, received: received)
        let (peer, connection, eventLoop) = try await ReplayConnectionTests.open(to: server, on: group)
        for _ in 0..<500 where try await eventLoop.submit({ connection.writer == nil }).get() {
            try await Task.sleep(for: .milliseconds(2))
        }
        let sizes = [0, 1, 125, 126, 127, 65535, 65536, 70_000, 4 << 20, 3, 10]
        let payloads = sizes.enumerated().map { index, size in (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) } }
        let (direct, waiting) = try await eventLoop.submit { () -> (Int, Int) in
            var waiting = 0
            for (index, payload) in payloads.enumerated() {
                connection.sendBinary(ByteBuffer(bytes: payload))
                if index == 2 { connection.sendText("between") }
                if payload.count > 1 << 20 {
                    waiting = connection.writer?.writesInNIO ?? 0
                    received.startReading()
                    usleep(300_000)
                }
            }
            return (connection.writer?.directFrames ?? 0, waiting)
        }.get()
        var expected = payloads.map { (WebSocketOpcode.binary, $0) }
        expected.insert((.text, Array("between".utf8)), at: 3)
        for _ in 0..<2500 where received.frames.withLock({ $0.count }) < expected.count {
            try await Task.sleep(for: .milliseconds(2))
        }
        let frames = received.frames.withLock { $0 }
        #expect(frames.count == expected.count)
        for (index, (got, want)) in zip(frames, expected).enumerated() {
            #expect(got.0 == want.0)
            // Compared to a Bool first: a failed expectation would print both 4 MB arrays.
            let samePayload = got.1 == want.1
            #expect(samePayload, "frame \(index): \(got.1.count) bytes, \(want.1.count) expected")
            #expect(got.2, "every client frame is masked")
        }
        #expect(waiting == 1, "the socket took only part of the 4 MB frame")
        #expect(direct == 9, "the frames before the 4 MB one went straight to the socket, none after it")
        #expect(try await eventLoop.submit { connection.writer?.writesInNIO ?? -1 }.get() == 0)
        try await eventLoop.submit { connection.close() }.get()
        try await peer.closedPromise.futureResult.get()
        try await server.close()
        try await group.shutdownGracefully()
        try await serverGroup.shutdownGracefully()
    }

    @Test func maskKeysVary() {
        var keys = MaskKeyGenerator(seed: 42)
        let drawn = (0..<1000).map { _ in keys.next() }
        #expect(Set(drawn).count == 1000)
    }
}
