import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import ServerTestSupport
import Testing
@testable import DrawServer

/// Moderator requests forwarded to another node (AsyncHTTPClient): the answer comes back as
/// it is, a redirect is not followed, and a node that does not answer is given up on.
@Suite("Node-to-node forwarding", .timeLimit(.minutes(1)))
struct NodeForwarderTests {
    @Test func theAnswerComesBackAsItIsWithTheForwardedMark() async throws {
        let node = try await StubNode.start { head in
            (.ok, ["Content-Type": "image/png"], Array("png from \(head.headers.first(name: NodeForwarder.forwardedHeader) ?? "?")".utf8))
        }
        defer { node.stop() }
        let forwarder = NodeForwarder(eventLoopGroup: MultiThreadedEventLoopGroup.singleton)
        let answer = try await forwarder.forward(
            method: .GET, base: "http://127.0.0.1:\(node.port)", target: "/api/rooms/ABCD/canvas.png?scale=2", authorization: "Bearer t", from: "one"
        )
        #expect(answer.status == 200)
        #expect(answer.contentType == "image/png")
        #expect(answer.body == Array("png from one".utf8))
        let seen = try #require(node.requests.first)
        #expect(seen.uri == "/api/rooms/ABCD/canvas.png?scale=2")
        #expect(seen.headers.first(name: "Authorization") == "Bearer t")
    }

    @Test func aRedirectIsReturnedNotFollowed() async throws {
        let node = try await StubNode.start { _ in (.found, ["Location": "http://127.0.0.1:1/elsewhere"], []) }
        defer { node.stop() }
        let answer = try await NodeForwarder(eventLoopGroup: MultiThreadedEventLoopGroup.singleton).forward(
            method: .DELETE, base: "http://127.0.0.1:\(node.port)", target: "/api/rooms/ABCD", authorization: nil, from: "one"
        )
        #expect(answer.status == 302)
        #expect(node.requests.count == 1)
    }

    @Test func aNodeThatDoesNotAnswerIsGivenUpOnAfterTheTimeout() async throws {
        let node = try await StubNode.start(answering: false) { _ in (.ok, [:], []) }
        defer { node.stop() }
        var forwarder = NodeForwarder(eventLoopGroup: MultiThreadedEventLoopGroup.singleton)
        forwarder.timeout = .milliseconds(300)
        let start = ContinuousClock.now
        await #expect(throws: NodeForwarder.Failure.self) {
            try await forwarder.forward(method: .GET, base: "http://127.0.0.1:\(node.port)", target: "/api/rooms/ABCD", authorization: nil, from: "one")
        }
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    @Test func onlyHTTPAndHTTPSNodeURLsAreUsed() {
        #expect(NodeForwarder.isNodeURL("http://10.0.0.5:8080"))
        #expect(NodeForwarder.isNodeURL("https://node1.internal"))
        #expect(!NodeForwarder.isNodeURL("ftp://node1.internal"))
        #expect(!NodeForwarder.isNodeURL("http://node1.internal/some/path"))
        #expect(!NodeForwarder.isNodeURL("node1.internal:8080"))
    }

    @Test func anAdvertisedURLTheOtherNodesCannotUseStopsTheStart() async throws {
        let (status, output) = try await ServerProcess.run(["serve", "--port", "0", "--no-persistence", "--advertise", "node1:8080"])
        #expect(status != 0)
        #expect(output.contains("--advertise must be http://HOST[:PORT] or https://HOST[:PORT], not node1:8080"), "\(output)")
    }
}

/// A one-route HTTP/1.1 server on loopback that records what it was asked.
private final class StubNode: Sendable {
    typealias Reply = @Sendable (HTTPRequestHead) -> (HTTPResponseStatus, [String: String], [UInt8])
    let channel: any Channel
    private let seen = Mutex<[HTTPRequestHead]>([])
    var requests: [HTTPRequestHead] { seen.withLock { $0 } }
    var port: Int { channel.localAddress?.port ?? 0 }

    private init(channel: any Channel) { self.channel = channel }

    static func start(answering: Bool = true, _ reply: @escaping Reply) async throws -> StubNode {
        let box = Mutex<StubNode?>(nil)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { child in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.configureHTTPServerPipeline()
                    try child.pipeline.syncOperations.addHandler(Handler(answering: answering, reply: reply, record: { head in
                        box.withLock { $0 }?.seen.withLock { $0.append(head) }
                    }))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let node = StubNode(channel: channel)
        box.withLock { $0 = node }
        return node
    }

    func stop() { channel.close(promise: nil) }

    private final class Handler: ChannelInboundHandler, Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let answering: Bool
        let reply: Reply
        let record: @Sendable (HTTPRequestHead) -> Void
        init(answering: Bool, reply: @escaping Reply, record: @escaping @Sendable (HTTPRequestHead) -> Void) {
            (self.answering, self.reply, self.record) = (answering, reply, record)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .head(let head) = unwrapInboundIn(data) else { return }
            record(head)
            guard answering else { return }
            let (status, fields, body) = reply(head)
            var headers = HTTPHeaders(fields.map { ($0.key, $0.value) })
            headers.add(name: "Content-Length", value: "\(body.count)")
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
