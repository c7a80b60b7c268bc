import DrawProtocol
import NIOCore
import NIOWebSocket
import WebSocketFrames

/// The receiving side of a server WebSocket (RFC 6455, and RFC 7692's permessage-deflate)
/// as a state machine: the bytes read in, whole messages and what to answer out. It does
/// no I/O; `WebSocketProtocolHandler` feeds it on the connection's event loop and
/// carries out what it returns.
///
/// `WebSocketFrameParser` splits the bytes into frames and refuses frames over the message
/// limit, fragmented control frames and control payloads over 125 bytes; the rest of the
/// protocol is judged here, frame by frame.
struct WebSocketReceiver {
    typealias Frame = WebSocketFrameParser.Frame

    enum Message: Equatable {
        /// Valid UTF-8.
        case text(ByteBuffer)
        case binary(ByteBuffer)
    }

    enum Action: Equatable {
        case none
        case message(Message)
        /// Answer a ping.
        case pong(ByteBuffer)
        /// The peer closed: answer with this code, then close the connection.
        case answerClose(code: CloseCode)
        /// The peer answered the server's close: close the connection.
        case closeConnection
        /// The peer broke the protocol: close with this code, then close the connection.
        case fail(code: CloseCode, reason: String)
    }

    enum State: Equatable {
        case open
        /// The server sent its close and waits for the answer. Data meanwhile is handled
        /// when `deliversMessages` (a restart: what the player drew on the way is kept),
        /// else ignored.
        case closing(deliversMessages: Bool)
        case closed

        /// Open, or closing and still taking the peer's messages.
        var deliversMessages: Bool {
            switch self {
            case .open, .closing(deliversMessages: true): true
            case .closing(deliversMessages: false), .closed: false
            }
        }
    }

    let maxMessageBytes: Int
    /// Whether permessage-deflate was negotiated (RSV1 marks a compressed message).
    let deflate: Bool
    private(set) var state = State.open

    /// A fragmented message being put together.
    private var partial: (opcode: WebSocketOpcode, compressed: Bool, payload: ByteBuffer)?
    /// The UTF-8 check of an uncompressed text message, fragment by fragment.
    private var utf8 = UTF8Validator()
    private var inflater: MessageInflater?
    private var parser: WebSocketFrameParser

    /// A frame can be no bigger than a message: a compressed one is refused over the limit too.
    init(maxMessageBytes: Int, deflate: Bool) {
        self.maxMessageBytes = maxMessageBytes
        self.deflate = deflate
        parser = WebSocketFrameParser(maxFrameSize: maxMessageBytes)
    }

    /// Whether bytes were read beyond the message just returned: more input is behind it.
    var hasBufferedInput: Bool { parser.hasPendingBytes }

    /// Adds bytes read from the connection.
    mutating func append(_ bytes: ByteBuffer) {
        guard state != .closed else { return }
        parser.append(bytes)
    }

    /// What the next frames in hand call for, or nil once they are all handled (or the
    /// connection is done with, when the rest is never looked at).
    mutating func nextAction() -> Action? {
        while state != .closed {
            let frame: Frame?
            do {
                frame = try parser.next()
            } catch {
                return fail(error.kind == .tooBig ? .messageTooBig : .protocolError, error.reason)
            }
            guard let frame else { return nil }
            let action = receive(frame)
            if case .none = action { continue }
            return action
        }
        parser.discard()
        return nil
    }

    /// The server starts the close handshake; with `deliveringMessages`, the peer's data
    /// frames up to its answering close are still returned.
    mutating func serverCloses(deliveringMessages: Bool = false) {
        if state == .open { state = .closing(deliversMessages: deliveringMessages) }
    }

    /// One frame's part in the protocol.
    mutating func receive(_ frame: Frame) -> Action {
        switch state {
        case .open: break
        // Waiting for the answer to the server's close: that answer, and data if it is still
        // taken. No second close frame may be sent, nor a pong after the close.
        case .closing(let delivers):
            switch frame.opcode {
            case .connectionClose: return receiveClose(frame.payload)
            case .text, .binary, .continuation: guard delivers else { return .none }
            default: return .none
            }
        case .closed: return .none
        }
        guard frame.isMasked else { return fail(.protocolError, "client frames must be masked") }
        guard !frame.rsv2, !frame.rsv3 else { return fail(.protocolError, "reserved bits set") }
        switch frame.opcode {
        case .ping:
            guard !frame.rsv1 else { return fail(.protocolError, "reserved bits set") }
            return .pong(frame.payload)
        case .pong:
            guard !frame.rsv1 else { return fail(.protocolError, "reserved bits set") }
            return .none
        case .connectionClose:
            guard !frame.rsv1 else { return fail(.protocolError, "reserved bits set") }
            return receiveClose(frame.payload)
        case .text, .binary:
            guard partial == nil else { return fail(.protocolError, "a new message began inside a fragmented one") }
            guard !frame.rsv1 || deflate else { return fail(.protocolError, "reserved bits set") }
            let data = frame.payload
            if frame.opcode == .text && !frame.rsv1 {
                utf8 = UTF8Validator()
                guard utf8.feed(data) else { return fail(.invalidData, "text is not valid UTF-8") }
            }
            if frame.fin {
                return complete(opcode: frame.opcode, compressed: frame.rsv1, payload: data)
            }
            partial = (frame.opcode, frame.rsv1, data)
            return checkPartialSize()
        case .continuation:
            guard var message = partial else { return fail(.protocolError, "continuation frame outside a message") }
            guard !frame.rsv1 else { return fail(.protocolError, "reserved bits set") }
            partial = nil
            var data = frame.payload
            if message.opcode == .text && !message.compressed {
                guard utf8.feed(data) else { return fail(.invalidData, "text is not valid UTF-8") }
            }
            message.payload.writeBuffer(&data)
            if frame.fin {
                return complete(opcode: message.opcode, compressed: message.compressed, payload: message.payload)
            }
            partial = message
            return checkPartialSize()
        default:
            return fail(.protocolError, "unknown opcode")
        }
    }

    private mutating func checkPartialSize() -> Action {
        guard let partial, partial.payload.readableBytes > maxMessageBytes else { return .none }
        return fail(.messageTooBig, "message too big")
    }

    private mutating func complete(opcode: WebSocketOpcode, compressed: Bool, payload: ByteBuffer) -> Action {
        guard payload.readableBytes <= maxMessageBytes else { return fail(.messageTooBig, "message too big") }
        var payload = payload
        if compressed {
            if inflater == nil { inflater = MessageInflater() }
            guard let inflater else { return fail(.internalError, "no memory to inflate") }
            do {
                payload = try inflater.inflate(payload, limit: maxMessageBytes)
            } catch .tooLarge {
                return fail(.messageTooBig, "message too big")
            } catch {
                return fail(.invalidData, "invalid deflate data")
            }
        }
        if opcode == .binary { return .message(.binary(payload)) }
        // Uncompressed text was checked as it came; inflated text is checked whole.
        guard compressed ? payload.isValidUTF8 : utf8.isComplete else { return fail(.invalidData, "text is not valid UTF-8") }
        return .message(.text(payload))
    }

    private mutating func receiveClose(_ payload: ByteBuffer) -> Action {
        if case .closing = state {
            state = .closed
            return .closeConnection
        }
        var payload = payload
        guard payload.readableBytes > 0 else {
            state = .closed
            return .answerClose(code: .normalClosure)
        }
        guard let code = payload.readInteger(as: UInt16.self) else { return fail(.protocolError, "close payload of one byte") }
        guard Self.isValidReceivedCloseCode(code) else { return fail(.protocolError, "invalid close code") }
        guard payload.isValidUTF8 else { return fail(.invalidData, "close reason is not valid UTF-8") }
        state = .closed
        return .answerClose(code: CloseCode(rawValue: code))
    }

    private mutating func fail(_ code: CloseCode, _ reason: String) -> Action {
        let closing = if case .closing = state { true } else { false }
        state = .closed
        partial = nil
        // The server's close frame is out already, and there may be only one.
        return closing ? .closeConnection : .fail(code: code, reason: reason)
    }

    /// Codes a peer may send (RFC 6455 section 7.4): the defined ones that are not reserved
    /// for local use, and the registered and private ranges.
    static func isValidReceivedCloseCode(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1011, 1012...1014: true
        case 3000...4999: true
        default: false
        }
    }
}

extension ByteBuffer {
    var isValidUTF8: Bool {
        var validator = UTF8Validator()
        return validator.feed(self) && validator.isComplete
    }
}
