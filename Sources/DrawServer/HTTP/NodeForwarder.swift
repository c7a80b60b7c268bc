import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Forwards one moderator request to the node that runs the room (its `--advertise` URL,
/// http or https) and returns that node's answer, through AsyncHTTPClient on the server's
/// own event loops.
///
/// One client per request, shut down when it is answered: moderator traffic is rare, so a
/// kept pool would save nothing worth a lifecycle of its own (a client must be shut down
/// before it goes, and the runtime has many ways to end in tests).
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
    /// For connecting, for each read, and for the whole request.
    var timeout: TimeAmount = .seconds(5)

    /// `base` is `http://HOST:PORT` or `https://HOST:PORT` (the advertised URL); `target`
    /// the path and query.
    func forward(method: HTTPMethod, base: String, target: String, authorization: String?, from nodeID: String) async throws -> Answer {
        guard Self.isNodeURL(base) else { throw Failure(description: "advertised URL \(base) is not http(s)://HOST[:PORT]") }
        let configuration = HTTPClient.Configuration(
            // A node answers for itself: a redirect would be a misconfiguration, not a hop.
            redirectConfiguration: .disallow,
            timeout: .init(connect: timeout, read: timeout),
            // Decompression off: answers are passed back as they are.
            decompression: .disabled
        )
        let client = HTTPClient(eventLoopGroupProvider: .shared(eventLoopGroup), configuration: configuration)
        do {
            let answer = try await exchange(client, method: method, url: base + target, authorization: authorization, from: nodeID)
            try await client.shutdown()
            return answer
        } catch {
            try? await client.shutdown()
            throw Failure(description: "\(base): \(error)")
        }
    }

    private func exchange(_ client: HTTPClient, method: HTTPMethod, url: String, authorization: String?, from nodeID: String) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: Self.forwardedHeader, value: nodeID)
        if let authorization { request.headers.add(name: "Authorization", value: authorization) }
        let response = try await client.execute(request, timeout: timeout)
        let body = try await response.body.collect(upTo: Self.maxBodyBytes)
        return Answer(status: Int(response.status.code), contentType: response.headers.first(name: "content-type"), body: Array(body.readableBytesView))
    }

    static func isNodeURL(_ base: String) -> Bool {
        guard let url = URL(string: base), url.scheme == "http" || url.scheme == "https", let host = url.host, !host.isEmpty else { return false }
        return url.path.isEmpty || url.path == "/"
    }
}
