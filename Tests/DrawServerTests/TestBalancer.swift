import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A stand-in for HAProxy in tests, with the two rules of scripts/cluster's configuration:
/// a request whose first line names `?node=ID` goes to that node, anything else round
/// robin. It reads the request line, connects to the chosen node and then copies bytes
/// both ways until either side closes. With one node it is a plain TCP relay (any
/// protocol: it connects at the first bytes), and `freeze` makes it a black hole for the
/// open connections, as a network partition (bytes dropped both ways, sockets open), and
/// refuses new ones.
final class TestBalancer: @unchecked Sendable {
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let nodes: [(id: String, port: Int)]
    private var next = 0
    private var channel: (any Channel)?
    /// How many connections went to each node, by id (read after the run).
    private(set) var routed: [String: Int] = [:]
    private let frozen = Atomic<Bool>(false)
    private let accepted = Mutex<[any Channel]>([])

    /// Drops every byte both ways from now on (until `thaw`); connections stay open.
    func freeze() { frozen.store(true, ordering: .sequentiallyConsistent) }
    /// Ends the partition the way TCP ends one that lasted: the connections that lost bytes
    /// are reset (their peers reconnect), new ones are relayed again.
    func thaw() {
        frozen.store(false, ordering: .sequentiallyConsistent)
        for channel in accepted.withLock({ $0 }) { channel.close(promise: nil) }
    }
    fileprivate var isFrozen: Bool { frozen.load(ordering: .sequentiallyConsistent) }

    var port: Int { channel?.localAddress?.port ?? 0 }

    init(nodes: [(id: String, port: Int)]) async throws {
        self.nodes = nodes
        channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { [self] child in
                // While frozen, new connections are refused at once (the open ones hang):
                // a new connection that hung too would leave the peer's pool backing off
                // for longer than a test waits.
                if isFrozen { return child.close() }
                accepted.withLock { $0.append(child) }
                return child.pipeline.addHandler(RouteHandler(balancer: self))
            }
            .bind(host: "127.0.0.1", port: 0).get()
    }

    func shutdown() async {
        try? await channel?.close()
        try? await group.shutdownGracefully()
    }

    /// The node's port for a request line (all on the one event loop: no lock needed).
    fileprivate var relaysOnly: Bool { nodes.count == 1 }

    fileprivate func route(_ requestLine: String) -> Int {
        if let range = requestLine.range(of: "node=") {
            let id = requestLine[range.upperBound...].prefix { $0 != " " && $0 != "&" }
            if let node = nodes.first(where: { $0.id == id }) {
                routed[node.id, default: 0] += 1
                return node.port
            }
        }
        let node = nodes[next % nodes.count]
        next += 1
        routed[node.id, default: 0] += 1
        return node.port
    }

    /// Holds the client's first bytes until the request line is complete, then connects.
    private final class RouteHandler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        let balancer: TestBalancer
        private var buffered: ByteBuffer?
        private var peer: (any Channel)?
        private var connecting = false

        init(balancer: TestBalancer) { self.balancer = balancer }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var bytes = unwrapInboundIn(data)
            if balancer.isFrozen { return }
            if let peer {
                peer.writeAndFlush(bytes, promise: nil)
                return
            }
            if buffered == nil { buffered = bytes } else { buffered!.writeBuffer(&bytes) }
            // Bytes, not a String: "\r\n" is one Character.
            guard !connecting, let all = buffered else { return }
            let port: Int
            if balancer.relaysOnly {
                port = balancer.route("")
            } else {
                guard let end = all.readableBytesView.firstIndex(of: UInt8(ascii: "\n")),
                      let line = all.getString(at: all.readerIndex, length: end - all.readableBytesView.startIndex) else { return }
                port = balancer.route(line)
            }
            let client = context.channel
            connecting = true
            ClientBootstrap(group: context.eventLoop)
                .channelInitializer { [balancer] upstream in upstream.pipeline.addHandler(CopyHandler(to: client, balancer: balancer)) }
                .connect(host: "127.0.0.1", port: port)
                .whenComplete { [self] result in
                    switch result {
                    case .success(let upstream):
                        peer = upstream
                        if let pending = buffered { upstream.writeAndFlush(pending, promise: nil) }
                        buffered = nil
                    case .failure:
                        client.close(promise: nil)
                    }
                }
        }

        func channelInactive(context: ChannelHandlerContext) {
            peer?.close(promise: nil)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }

    /// Copies what the node sends back to the client.
    private final class CopyHandler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        let client: any Channel
        let balancer: TestBalancer

        init(to client: any Channel, balancer: TestBalancer) {
            self.client = client
            self.balancer = balancer
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if balancer.isFrozen { return }
            client.writeAndFlush(unwrapInboundIn(data), promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            client.close(promise: nil)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}
