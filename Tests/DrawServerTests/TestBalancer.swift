import Foundation
import NIOCore
import NIOPosix

/// A stand-in for HAProxy in tests, with the two rules of scripts/cluster's configuration:
/// a request whose first line names `?node=ID` goes to that node, anything else round
/// robin. It reads the request line, connects to the chosen node and then copies bytes
/// both ways until either side closes.
final class TestBalancer: @unchecked Sendable {
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let nodes: [(id: String, port: Int)]
    private var next = 0
    private var channel: (any Channel)?
    /// How many connections went to each node, by id (read after the run).
    private(set) var routed: [String: Int] = [:]

    var port: Int { channel?.localAddress?.port ?? 0 }

    init(nodes: [(id: String, port: Int)]) async throws {
        self.nodes = nodes
        channel = try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { [self] child in
                child.pipeline.addHandler(RouteHandler(balancer: self))
            }
            .bind(host: "127.0.0.1", port: 0).get()
    }

    func shutdown() async {
        try? await channel?.close()
        try? await group.shutdownGracefully()
    }

    /// The node's port for a request line (all on the one event loop: no lock needed).
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
            if let peer {
                peer.writeAndFlush(bytes, promise: nil)
                return
            }
            if buffered == nil { buffered = bytes } else { buffered!.writeBuffer(&bytes) }
            // Bytes, not a String: "\r\n" is one Character.
            guard !connecting, let all = buffered, let end = all.readableBytesView.firstIndex(of: UInt8(ascii: "\n")),
                  let line = all.getString(at: all.readerIndex, length: end - all.readableBytesView.startIndex) else { return }
            let port = balancer.route(line)
            let client = context.channel
            connecting = true
            ClientBootstrap(group: context.eventLoop)
                .channelInitializer { upstream in upstream.pipeline.addHandler(CopyHandler(to: client)) }
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

        init(to client: any Channel) { self.client = client }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
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
