import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Forwards one moderator request to the node that runs the room (its `--advertise` URL)
/// and returns that node's answer: a minimal HTTP/1.1 client on the server's own event
/// loops, one connection per request (moderator traffic is rare).
struct NodeForwarder: Sendable {
    struct Answer: Sendable {
        var status: Int
        var contentType: String?
        var body: [UInt8]
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Marks a forwarded request: the node it reaches answers for itself and never
    /// forwards it again.
    static let forwardedHeader = "X-Drawserver-Forwarded"
    /// Answers bigger than this (a canvas at scale 4 is a few MB) are refused.
    static let maxBodyBytes = 64 << 20

    let eventLoopGroup: any EventLoopGroup
    var timeout: TimeAmount = .seconds(5)

    /// `base` is `http://HOST:PORT` (the advertised URL); `target` the path and query.
    func forward(method: HTTPMethod, base: String, target: String, authorization: String?, from nodeID: String) async throws -> Answer {
        guard let (host, port) = Self.hostAndPort(base) else { throw Failure(description: "advertised URL \(base) is not http://HOST:PORT") }
        let promise = eventLoopGroup.next().makePromise(of: Answer.self)
        let bootstrap = ClientBootstrap(group: eventLoopGroup)
            .connectTimeout(timeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(Collector(promise: promise))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: host, port: port).get()
        } catch {
            promise.fail(error)
            throw Failure(description: "cannot reach \(base): \(error)")
        }
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: target)
        head.headers.add(name: "Host", value: "\(host):\(port)")
        head.headers.add(name: "Connection", value: "close")
        head.headers.add(name: "Content-Length", value: "0")
        head.headers.add(name: Self.forwardedHeader, value: nodeID)
        if let authorization { head.headers.add(name: "Authorization", value: authorization) }
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        let deadline = channel.eventLoop.scheduleTask(in: timeout) {
            promise.fail(Failure(description: "\(base) did not answer within \(timeout.nanoseconds / 1_000_000) ms"))
            channel.close(promise: nil)
        }
        defer {
            deadline.cancel()
            channel.close(promise: nil)
        }
        return try await promise.futureResult.get()
    }

    static func hostAndPort(_ base: String) -> (String, Int)? {
        guard let url = URL(string: base), url.scheme == "http", let host = url.host, !host.isEmpty else { return nil }
        return (host, url.port ?? 80)
    }

    /// Gathers one response; fails the promise when the connection ends first.
    private final class Collector: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPClientResponsePart
        let promise: EventLoopPromise<Answer>
        private var answer = Answer(status: 502, contentType: nil, body: [])

        init(promise: EventLoopPromise<Answer>) { self.promise = promise }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                answer.status = Int(head.status.code)
                answer.contentType = head.headers.first(name: "content-type")
            case .body(let buffer):
                guard answer.body.count + buffer.readableBytes <= NodeForwarder.maxBodyBytes else {
                    promise.fail(Failure(description: "answer too large"))
                    context.close(promise: nil)
                    return
                }
                answer.body += buffer.readableBytesView
            case .end:
                promise.succeed(answer)
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            promise.fail(Failure(description: "the node closed the connection"))
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            promise.fail(error)
            context.close(promise: nil)
        }
    }
}
