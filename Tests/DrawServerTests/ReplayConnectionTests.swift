import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import ServerTestSupport
import Synchronization
import Testing
@testable import DrawServer
@testable import LoadTester

/// `drawserver replay`'s connection against a server that is slow to answer.
@Suite("Replay: connections")
struct ReplayConnectionTests {
    /// Records what the connection reports.
    final class Peer: ReplayPeer {
        let events = Mutex<[String]>([])
        let binaries = Mutex<[[UInt8]]>([])
        /// Whether each binary message's arrival was its own kernel stamp.
        let exactStamps = Mutex<[Bool]>([])
        let closedPromise: EventLoopPromise<Void>

        init(eventLoop: any EventLoop) { closedPromise = eventLoop.makePromise() }

        func connected(_ connection: ReplayConnection) { events.withLock { $0.append("connected") } }
        func received(text: ByteBuffer, on connection: ReplayConnection) {}
        func received(binary: ByteBuffer, at nanoseconds: UInt64, exact: Bool, on connection: ReplayConnection) {
            binaries.withLock { $0.append(Array(buffer: binary)) }
            exactStamps.withLock { $0.append(exact) }
        }
        func closed(_ connection: ReplayConnection, code: Int?, error: (any Error)?) {
            events.withLock { $0.append("closed") }
            closedPromise.succeed()
        }
    }

    /// Opens a replay connection to `server` on one of `group`'s loops.
    /// With `kernelReceive`, a `ReplayReceiver` on the connection's loop reads it.
    static func open(to server: any Channel, on group: any EventLoopGroup, kernelReceive: Bool = false) async throws -> (Peer, ReplayConnection, any EventLoop) {
        let port = try #require(server.localAddress?.port)
        let eventLoop = group.next()
        let peer = Peer(eventLoop: eventLoop)
        let connection = ReplayConnection(eventLoop: eventLoop, peer: peer)
        var url = try #require(ReplayURL("ws://127.0.0.1:\(port)/ws"))
        try url.resolve()
        let receiver = kernelReceive ? try await eventLoop.submit { ReplayReceiver(eventLoop: eventLoop) }.get() : nil
        if kernelReceive { try #require(receiver != nil) }
        try await eventLoop.submit { connection.open(url, receiver: receiver) }.get()
        return (peer, connection, eventLoop)
    }

    /// A run that ends while a connection's upgrade is still unanswered (an overloaded
    /// server) closes that connection; writing a close frame into its HTTP pipeline
    /// used to trap the whole load generator.
    @Test func closingDuringTheUpgradeJustClosesTheSocket() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        // Accepts connections and never answers: every upgrade stays pending.
        let accepted = Atomic<Int>(0)
        let silent = try await ServerBootstrap(group: group)
            .childChannelInitializer { _ in
                accepted.add(1, ordering: .relaxed)
                return group.next().makeSucceededVoidFuture()
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let (peer, connection, eventLoop) = try await Self.open(to: silent, on: group)
        // Sending before the upgrade is dropped, not written into the HTTP pipeline.
        try await waitUntil { accepted.load(ordering: .relaxed) == 1 }
        try await eventLoop.submit {
            connection.sendText("{\"t\":\"hello\",\"name\":\"early\"}")
            connection.sendBinary(ByteBuffer(bytes: [1, 2, 3]))
            connection.close()
        }.get()
        try await peer.closedPromise.futureResult.get()
        #expect(peer.events.withLock { $0 } == ["closed"])
        try await silent.close()
        try await group.shutdownGracefully()
    }

    /// Whole frames go straight to the peer; a fragmented message arrives as one, after
    /// its last fragment.
    @Test func fragmentedMessagesAreReassembled() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let upgrader = NIOWebSocketServerUpgrader(
            shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
            upgradePipelineHandler: { channel, _ in
                let frames = [
                    WebSocketFrame(fin: true, opcode: .binary, data: ByteBuffer(bytes: [1, 2])),
                    WebSocketFrame(fin: false, opcode: .binary, data: ByteBuffer(bytes: [3])),
                    WebSocketFrame(fin: false, opcode: .continuation, data: ByteBuffer(bytes: [4, 5])),
                    WebSocketFrame(fin: true, opcode: .continuation, data: ByteBuffer(bytes: [6])),
                ]
                for frame in frames { channel.write(frame, promise: nil) }
                channel.flush()
                return channel.eventLoop.makeSucceededVoidFuture()
            }
        )
        let server = try await ServerBootstrap(group: group)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline(withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let (peer, connection, eventLoop) = try await Self.open(to: server, on: group)
        for _ in 0..<500 where peer.binaries.withLock({ $0.count }) < 2 {
            try await Task.sleep(for: .milliseconds(2))
        }
        #expect(peer.binaries.withLock { $0 } == [[1, 2], [3, 4, 5, 6]])
        try await eventLoop.submit { connection.close() }.get()
        try await peer.closedPromise.futureResult.get()
        try await server.close()
        try await group.shutdownGracefully()
    }

    /// With the kernel receiver, a read's stamp is its newest segment's: a message that ended
    /// its read is timed exactly, one read with a newer message behind it is not.
    @Test func onlyTheMessageThatEndsAReadHasItsOwnStamp() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let upgraded = Mutex<(any Channel)?>(nil)
        let upgrader = NIOWebSocketServerUpgrader(
            shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
            upgradePipelineHandler: { channel, _ in
                upgraded.withLock { $0 = channel }
                return channel.eventLoop.makeSucceededVoidFuture()
            }
        )
        let server = try await ServerBootstrap(group: group)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline(withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let (peer, connection, eventLoop) = try await Self.open(to: server, on: group, kernelReceive: true)
        // `connected` comes after the receiver took the socket over.
        try await waitUntil { upgraded.withLock { $0 } != nil && peer.events.withLock { $0.contains("connected") } }
        let channel = try #require(upgraded.withLock { $0 })
        // Two messages in one write (one segment, so one read), then one on its own.
        try await channel.eventLoop.submit {
            channel.write(WebSocketFrame(fin: true, opcode: .binary, data: ByteBuffer(bytes: [1])), promise: nil)
            channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .binary, data: ByteBuffer(bytes: [2])), promise: nil)
        }.get()
        try await waitUntil { peer.binaries.withLock { $0.count } == 2 }
        try await channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .binary, data: ByteBuffer(bytes: [3])))
        try await waitUntil { peer.binaries.withLock { $0.count } == 3 }
        #expect(peer.binaries.withLock { $0 } == [[1], [2], [3]])
        #expect(peer.exactStamps.withLock { $0 } == [false, true, true])
        try await eventLoop.submit { connection.close() }.get()
        try await peer.closedPromise.futureResult.get()
        try await server.close()
        try await group.shutdownGracefully()
    }

    /// `drawserver replay` against a server that refuses most of its connections (HTTP 429)
    /// fails with the status for failed connections instead of reporting success.
    @Test func aRunWhoseConnectionsAreRefusedExitsWithItsStatus() async throws {
        try await withServer({ $0.limits.maxConnectionsPerIP = 2 }) { port in
            let (status, output) = try await ServerProcess.run(
                ["replay", "--url", "ws://127.0.0.1:\(port)/ws", "--rooms", "2", "--players", "3", "--duration", "3", "--warmup", "0", "--drain", "0", "--quiet"],
                timeout: 30
            )
            #expect(status == ReplayVerdict.Failure.connectionsFailed.rawValue, "exit \(status): \(output)")
            #expect(output.contains("replay FAILED"))
        }
    }
}
