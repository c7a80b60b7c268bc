import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing
@testable import DrawServer

/// `drawserver replay`'s connection against a server that is slow to answer.
@Suite("Replay: connections")
struct ReplayConnectionTests {
    /// Records what the connection reports.
    final class Peer: ReplayPeer {
        let events = Mutex<[String]>([])
        let closedPromise: EventLoopPromise<Void>

        init(eventLoop: any EventLoop) { closedPromise = eventLoop.makePromise() }

        func connected(_ connection: ReplayConnection) { events.withLock { $0.append("connected") } }
        func received(text: ByteBuffer, on connection: ReplayConnection) {}
        func received(binary: ByteBuffer, at nanoseconds: UInt64, on connection: ReplayConnection) {}
        func closed(_ connection: ReplayConnection, code: Int?, error: (any Error)?) {
            events.withLock { $0.append("closed") }
            closedPromise.succeed()
        }
    }

    /// A run that ends while a connection's upgrade is still unanswered (an overloaded
    /// server) closes that connection; writing a close frame into its HTTP pipeline
    /// used to trap the whole load generator.
    @Test func closingDuringTheUpgradeJustClosesTheSocket() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        // Accepts connections and never answers: every upgrade stays pending.
        let silent = try await ServerBootstrap(group: group)
            .childChannelInitializer { _ in group.next().makeSucceededVoidFuture() }
            .bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(silent.localAddress?.port)
        let eventLoop = group.next()
        let peer = Peer(eventLoop: eventLoop)
        let connection = ReplayConnection(eventLoop: eventLoop, peer: peer)
        var url = try #require(ReplayURL("ws://127.0.0.1:\(port)/ws"))
        try url.resolve()
        try await eventLoop.submit { connection.open(url) }.get()
        // Sending before the upgrade is dropped, not written into the HTTP pipeline.
        try await Task.sleep(for: .milliseconds(200))
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
}
