import HTTPEdge
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1

/// libFuzzer target for the HTTP edge (issue 38): the input is what a client sends on a new
/// connection, run through the server's own pieces (`RequestHeadGuardHandler`, NIO's
/// request decoder with the guard's limits, the guard's tap) in an `EmbeddedChannel`, with
/// an application that answers every whole request with 200. Then every timer the guard
/// armed is fired (the header timeout, the drain), as if the client went quiet.
///
/// Invariants checked (any violation traps, which libFuzzer reports as a crash):
/// 1. Nothing crashes, whatever the bytes.
/// 2. The guard's own answer is one whole response (status 400, 408, 431 or 505, with
///    `Connection: close` and a `Content-Length` that matches its body) and it is the last
///    thing on the wire: nothing follows it.
/// 3. No connection is held: once the timers have fired, a connection on which no whole
///    request head arrived is closed.
/// 4. A TLS handshake as the first byte gets no bytes back and a closed connection.
/// 5. A head over the limit never reaches the application: a request whose head is larger
///    than the limit (plus its line ends and separators) is refused, not served.
@c(LLVMFuzzerTestOneInput)
public func fuzzHTTPHead(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let outcome = run(input)

    let text = String(decoding: outcome.written, as: UTF8.self)
    if let refusal = outcome.refusal {
        check([400, 408, 431, 505].contains(refusal.status), "refusal with status \(refusal.status)")
        check(refusal.closesConnection, "a refusal without Connection: close: \(text)")
        // Its body runs to the end of what was written: anything after it breaks this.
        check(refusal.bodyMatchesLength, "a refusal whose Content-Length is not what follows its head: \(text)")
    }
    if outcome.heads == 0 { check(!outcome.active, "a connection with no whole request head is still open after the timeouts") }
    if input.first == RequestHeadGuard.tlsHandshakeRecord {
        check(outcome.written.isEmpty && !outcome.active, "a TLS handshake was answered or kept")
    }
    check(outcome.largestHead <= limit, "a head of \(outcome.largestHead) bytes reached the application (limit \(limit))")
    return 0
}

/// Small, so the fuzzer reaches it often.
private let limit = 512

private struct Outcome {
    var written: [UInt8]
    var refusal: Refusal?
    var heads: Int
    var largestHead: Int
    var active: Bool
}

private struct Refusal {
    var status: Int
    var closesConnection: Bool
    var bodyMatchesLength: Bool
}

private func run(_ input: [UInt8]) -> Outcome {
    var configuration = RequestHeadGuard.Configuration()
    configuration.maxHeadBytes = limit
    let timers = Timers()
    let channel = EmbeddedChannel()
    let handler = RequestHeadGuardHandler(
        configuration: configuration,
        // Cancels are ignored: a cancelled deadline that fires anyway must do nothing.
        schedule: { _, _, body in
            timers.add(body)
            return {}
        },
        onMisdirectedTLS: { _ in },
        logger: Logger(label: "fuzz", factory: { _ in SwiftLogNoOpLogHandler() })
    )
    let application = Application()
    do {
        let pipeline = channel.pipeline.syncOperations
        try pipeline.addHandler(handler)
        try pipeline.addHandler(HTTPResponseEncoder())
        try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes, informationalResponseStrategy: .drop, limitConfiguration: configuration.decoderLimits)))
        try pipeline.addHandler(handler.makeTap())
        try pipeline.addHandler(application)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
    } catch {
        check(false, "pipeline set-up failed: \(error)")
    }
    // In pieces, as TCP may cut it: the first byte alone, then the rest.
    _ = try? channel.writeInbound(ByteBuffer(bytes: input.prefix(1)))
    if input.count > 1 { _ = try? channel.writeInbound(ByteBuffer(bytes: input.dropFirst())) }
    // The client goes quiet: every deadline passes (firing one may arm the drain).
    for _ in 0..<8 where timers.fireAll() > 0 {
        // What NIO hands to the loop (a closed channel's teardown) runs only when asked.
        channel.embeddedEventLoop.run()
    }
    var written: [UInt8] = []
    while let buffer = try? channel.readOutbound(as: ByteBuffer.self) { written += buffer.readableBytesView }
    let active = channel.isActive
    _ = try? channel.finish()
    channel.embeddedEventLoop.run()
    return Outcome(
        written: written, refusal: refusal(in: written, answered: application.answered),
        heads: application.heads, largestHead: application.largestHead, active: active
    )
}

/// The guard's answer: what follows the application's answers (each exactly
/// `Application.answer`).
private func refusal(in written: [UInt8], answered: Int) -> Refusal? {
    var rest = written[...]
    for _ in 0..<answered {
        guard rest.starts(with: Application.answer) else { check(false, "an application answer was cut: \(String(decoding: written, as: UTF8.self))"); return nil }
        rest = rest.dropFirst(Application.answer.count)
    }
    guard !rest.isEmpty else { return nil }
    let bytes = Array(rest)
    guard let split = (0..<max(0, bytes.count - 3)).first(where: { bytes[$0..<$0 + 4].elementsEqual([13, 10, 13, 10]) }) else {
        check(false, "a response without a blank line: \(String(decoding: bytes, as: UTF8.self))")
        return nil
    }
    let head = String(decoding: bytes[..<split], as: UTF8.self).lowercased()
    let bodyCount = bytes.count - split - 4
    let lines = head.split(separator: "\r\n").map(String.init)
    let statusWord = lines.first?.split(separator: " ").dropFirst().first.map(String.init) ?? ""
    let prefix = "content-length:"
    let lengthLine = lines.first { $0.hasPrefix(prefix) }
    let length = lengthLine.flatMap { Int(String($0.dropFirst(prefix.count).filter { $0 != " " })) }
    return Refusal(
        status: Int(statusWord) ?? 0,
        closesConnection: lines.contains("connection: close"),
        bodyMatchesLength: length == bodyCount
    )
}

/// Answers every whole request with the same small response, as the router would.
private final class Application: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    static let answer = Array("HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n".utf8)

    var heads = 0
    var answered = 0
    var largestHead = 0

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            heads += 1
            let size = wireSize(head.uri) + head.headers.reduce(0) { $0 + wireSize($1.name) + wireSize($1.value) }
            largestHead = max(largestHead, size)
        case .body:
            break
        case .end:
            answered += 1
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: ["content-length": "0"]))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}

/// The fewest bytes `text` can have come from: NIO decodes invalid UTF-8 as U+FFFD (three
/// bytes when counted as UTF-8) for as little as one byte on the wire.
private func wireSize(_ text: String) -> Int {
    text.unicodeScalars.reduce(0) { $0 + ($1 == "\u{FFFD}" ? 1 : String($1).utf8.count) }
}

/// The guard's timers, fired by hand.
private final class Timers: @unchecked Sendable {
    private var pending: [@Sendable () -> Void] = []

    func add(_ body: @escaping @Sendable () -> Void) { pending.append(body) }

    func fireAll() -> Int {
        let due = pending
        pending = []
        due.forEach { $0() }
        return due.count
    }
}

private func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        fatalError("invariant violated: \(message())")
    }
}
