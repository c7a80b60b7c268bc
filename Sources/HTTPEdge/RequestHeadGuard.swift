import NIOHTTP1

/// Answers bad input at the HTTP edge at once instead of holding the connection: the
/// decisions of `RequestHeadGuardHandler`, as a pure state machine that returns actions.
///
/// - a request head over the size limit: 431;
/// - conflicting or invalid framing (`Content-Length` with `Transfer-Encoding`, a duplicate
///   or bad `Content-Length`, a bad chunk size) and any other parse error: 400
///   (RFC 9112 section 6.3);
/// - an HTTP version other than 1.x: 505;
/// - a TLS handshake on the plain port: closed at once, said in the log;
/// - a head not finished within the header timeout: 408 when part of it came, a silent
///   close when nothing did (a browser's preconnected socket).
///
/// The size limit itself is the HTTP decoder's (`maxHeaderListSize`): the guard turns its
/// `headerOverflow` into the answer.
public struct RequestHeadGuard: Sendable {
    public struct Configuration: Sendable {
        /// Request line and headers, in bytes; the decoder refuses more.
        public var maxHeadBytes = 16 * 1024
        /// How long a request head may take, from its first byte (or, for a connection's
        /// first request, from the connection's start) to its end.
        public var headerTimeout: Duration = .seconds(5)
        public init() {}

        /// The HTTP decoder's limits that enforce `maxHeadBytes`: the request line counts
        /// against the list size too, so one limit holds for the whole head.
        public var decoderLimits: NIOHTTPDecoderLimitConfiguration {
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = maxHeadBytes
            limits.maxHeaderListSize = maxHeadBytes
            return limits
        }
    }

    /// The answer a bad request gets before its connection is closed.
    public struct Refusal: Equatable, Sendable {
        public var status: HTTPResponseStatus
        public var detail: String
        public init(status: HTTPResponseStatus, detail: String) {
            self.status = status
            self.detail = detail
        }
    }

    public enum Action: Equatable, Sendable {
        case none
        case armTimer
        case cancelTimer
        /// Write the refusal (if any: nil when the request was answered already), half-close,
        /// drain what the peer still sends, then close.
        case refuse(Refusal?)
        /// Close without a word (nothing HTTP was said, or a refusal was already sent).
        case close(CloseReason)
    }

    public enum CloseReason: Equatable, Sendable {
        case tlsOnPlainPort
        case silentTimeout
        /// The server is shutting down and the connection owes nobody an answer.
        case shuttingDown
    }

    private enum State: Equatable {
        /// Waiting for a request head; `timed` once its deadline runs.
        case awaitingHead(started: Bool, timed: Bool)
        case inRequest
        /// A refusal waits for the responses in flight to end (nil: the bad request's own
        /// answer is one of them, and the connection just closes after it).
        case refusalPending(Refusal?)
        /// Refused or closed: nothing more is read as HTTP.
        case finished
    }

    public init() {}

    private var state: State = .awaitingHead(started: false, timed: true)
    /// Requests whose response has not ended yet: a refusal waits for them, so a good
    /// request pipelined before a bad one still gets its answer.
    private var unanswered = 0
    /// A response's head went out and its end has not.
    private var responding = false
    private var sawAnyByte = false

    /// Whether inbound bytes are still HTTP to decode (false once refused or closed).
    public var isReading: Bool { state != .finished }

    /// The connection is up: its first request's deadline runs from now.
    public mutating func connectionStarted() -> Action { .armTimer }

    /// Bytes came in; `firstByte` is the first of them.
    public mutating func bytesArrived(firstByte: UInt8?) -> Action {
        let isFirst = !sawAnyByte
        sawAnyByte = true
        if isFirst, firstByte == Self.tlsHandshakeRecord {
            state = .finished
            return .close(.tlsOnPlainPort)
        }
        switch state {
        case .awaitingHead(_, let timed):
            state = .awaitingHead(started: true, timed: true)
            return timed ? .none : .armTimer
        case .inRequest, .refusalPending, .finished:
            return .none
        }
    }

    public mutating func headParsed() -> Action {
        guard case .awaitingHead = state else { return .none }
        state = .inRequest
        unanswered += 1
        return .cancelTimer
    }

    public mutating func requestEnded() -> Action {
        guard state == .inRequest else { return .none }
        state = .awaitingHead(started: false, timed: false)
        return .none
    }

    public mutating func responseStarted() { responding = true }

    public mutating func responseEnded() -> Action {
        responding = false
        unanswered = max(0, unanswered - 1)
        guard unanswered == 0, case .refusalPending(let refusal) = state else { return .none }
        state = .finished
        return .refuse(refusal)
    }

    public mutating func parseFailed(_ error: HTTPParserError) -> Action {
        refuse(Self.refusal(for: error))
    }

    public mutating func timerFired() -> Action {
        guard case .awaitingHead(let started, _) = state else { return .none }
        guard started else {
            state = .finished
            return .close(.silentTimeout)
        }
        return refuse(Refusal(status: .requestTimeout, detail: "the request head did not arrive in time"))
    }

    /// The server is shutting down. A connection with no request to answer (none yet, or
    /// only part of a head) closes now: left open, it would hold the shutdown up until its
    /// header deadline. One with a request in flight is left to the HTTP server, which
    /// closes it after the answer.
    public mutating func quiesce() -> Action {
        guard case .awaitingHead = state, unanswered == 0 else { return .none }
        state = .finished
        return .close(.shuttingDown)
    }

    private mutating func refuse(_ refusal: Refusal) -> Action {
        switch state {
        case .finished, .refusalPending:
            return .none
        case .inRequest where responding:
            // The app is answering (this request or an earlier one): a refusal now would be
            // a second answer. Close once it is done.
            state = .refusalPending(nil)
            return .none
        case .inRequest:
            // The body is broken and nothing answers the request yet (its handler may wait
            // for the rest of the body): the refusal is its answer.
            state = .finished
            return .refuse(refusal)
        case .awaitingHead:
            if unanswered > 0 {
                state = .refusalPending(refusal)
                return .none
            }
            state = .finished
            return .refuse(refusal)
        }
    }

    /// The first byte of a TLS record carrying a handshake (a ClientHello).
    public static let tlsHandshakeRecord: UInt8 = 0x16

    public static func refusal(for error: HTTPParserError) -> Refusal {
        switch error {
        case .headerOverflow:
            Refusal(status: .requestHeaderFieldsTooLarge, detail: "the request line and headers are too large")
        case .invalidVersion:
            Refusal(status: .httpVersionNotSupported, detail: "only HTTP/1.0 and HTTP/1.1 are spoken here")
        case .unexpectedContentLength:
            Refusal(status: .badRequest, detail: "conflicting Content-Length and Transfer-Encoding, or Content-Length twice")
        case .invalidContentLength:
            Refusal(status: .badRequest, detail: "invalid Content-Length")
        case .invalidChunkSize:
            Refusal(status: .badRequest, detail: "invalid chunk size")
        case .invalidMethod:
            Refusal(status: .badRequest, detail: "not an HTTP request")
        case .paused:
            // llhttp stops at an HTTP/2 connection preface.
            Refusal(status: .httpVersionNotSupported, detail: "HTTP/2 is not spoken on this port; use HTTP/1.1")
        case .unknown:
            // llhttp's invalid Transfer-Encoding (with Content-Length, or not chunked last).
            Refusal(status: .badRequest, detail: "invalid Transfer-Encoding or message framing")
        case .invalidURL:
            Refusal(status: .badRequest, detail: "invalid request target")
        case .invalidHeaderToken:
            Refusal(status: .badRequest, detail: "invalid header")
        default:
            Refusal(status: .badRequest, detail: "malformed request line or headers")
        }
    }
}
