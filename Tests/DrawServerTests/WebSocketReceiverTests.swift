internal import CZlib
import DrawProtocol
import NIOCore
import NIOWebSocket
import Testing
import WebSocketFrames
@testable import DrawServer

/// The server's WebSocket protocol, frame by frame, without sockets.
@Suite("WebSocket receiver")
struct WebSocketReceiverTests {
    static func frame(_ opcode: WebSocketOpcode, fin: Bool = true, masked: Bool = true, rsv1: Bool = false, rsv2: Bool = false, _ bytes: [UInt8] = [0x05]) -> WebSocketReceiver.Frame {
        WebSocketReceiver.Frame(fin: fin, rsv1: rsv1, rsv2: rsv2, opcode: opcode, isMasked: masked, payload: ByteBuffer(bytes: bytes))
    }

    static func text(_ string: String, fin: Bool = true) -> WebSocketReceiver.Frame { frame(.text, fin: fin, Array(string.utf8)) }

    /// Raw deflate with a sync flush and the 4-byte tail removed, as a permessage-deflate
    /// client sends a message.
    static func deflated(_ bytes: [UInt8], finish: Bool = false) -> [UInt8] {
        var stream = z_stream()
        #expect(deflateInit2_(&stream, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK)
        defer { deflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: bytes.count + 1024)
        let produced = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                deflate(&stream, finish ? Z_FINISH : Z_SYNC_FLUSH)
                return outBuffer.count - Int(stream.avail_out)
            }
        }
        let result = Array(output[..<produced])
        return finish ? result : Array(result.dropLast(4))
    }

    @Test func wholeMessagesComeOutReassembled() {
        var receiver = WebSocketReceiver(maxMessageBytes: 100, deflate: false)
        #expect(receiver.receive(Self.frame(.binary, [1, 2])) == .message(.binary(ByteBuffer(bytes: [1, 2]))))
        #expect(receiver.receive(Self.text("he", fin: false)) == .none)
        // Control frames may come between the fragments.
        #expect(receiver.receive(Self.frame(.ping, [9])) == .pong(ByteBuffer(bytes: [9])))
        #expect(receiver.receive(Self.frame(.continuation, fin: false, Array("l".utf8))) == .none)
        #expect(receiver.receive(Self.frame(.continuation, Array("lo".utf8))) == .message(.text(ByteBuffer(string: "hello"))))
        #expect(receiver.receive(Self.frame(.pong)) == .none)
    }

    @Test func protocolViolationsCloseWithTheirCodes() {
        func first(_ frames: [WebSocketReceiver.Frame], maxMessageBytes: Int = 100, deflate: Bool = false) -> WebSocketReceiver.Action {
            var receiver = WebSocketReceiver(maxMessageBytes: maxMessageBytes, deflate: deflate)
            for frame in frames.dropLast() { _ = receiver.receive(frame) }
            return receiver.receive(frames[frames.count - 1])
        }
        func code(_ action: WebSocketReceiver.Action) -> UInt16? {
            if case .fail(let code, _) = action { return code.rawValue }
            return nil
        }
        #expect(code(first([Self.frame(.binary, masked: false)])) == 1002)
        #expect(code(first([Self.frame(.binary, rsv2: true)])) == 1002)
        #expect(code(first([Self.frame(.binary, rsv1: true)])) == 1002)  // no deflate agreed
        #expect(code(first([Self.frame(.ping, rsv1: true)], deflate: true)) == 1002)
        #expect(code(first([Self.frame(.continuation)])) == 1002)
        #expect(code(first([Self.text("a", fin: false), Self.text("b")])) == 1002)
        #expect(code(first([Self.text("a", fin: false), Self.frame(.continuation, rsv1: true)], deflate: true)) == 1002)
        #expect(code(first([Self.frame(WebSocketOpcode(encodedWebSocketOpcode: 3)!)])) == 1002)
        #expect(code(first([Self.frame(.text, [0xC3, 0x28])])) == 1007)
        #expect(code(first([Self.frame(.binary, Array(repeating: 0, count: 101))])) == 1009)
        #expect(code(first([Self.frame(.binary, fin: false, Array(repeating: 0, count: 60)), Self.frame(.continuation, fin: false, Array(repeating: 0, count: 60))])) == 1009)
        #expect(code(first([Self.frame(.connectionClose, [0x03])])) == 1002)
        #expect(code(first([Self.frame(.connectionClose, [0x03, 0xED])])) == 1002)  // 1005 is never sent
        #expect(code(first([Self.frame(.connectionClose, [0x03, 0xE8, 0xC3, 0x28])])) == 1007)
        // A message exactly at the limit is fine.
        #expect(first([Self.frame(.binary, Array(repeating: 0, count: 100))]) == .message(.binary(ByteBuffer(bytes: Array(repeating: 0, count: 100)))))
    }

    @Test func closeHandshakeFromEitherSide() {
        var peerCloses = WebSocketReceiver(maxMessageBytes: 100, deflate: false)
        #expect(peerCloses.receive(Self.frame(.connectionClose, [0x0F, 0xA0])) == .answerClose(code: CloseCode(rawValue: 4000)))
        #expect(peerCloses.receive(Self.frame(.binary)) == .none)
        var empty = WebSocketReceiver(maxMessageBytes: 100, deflate: false)
        #expect(empty.receive(Self.frame(.connectionClose, [])) == .answerClose(code: .normalClosure))

        var serverCloses = WebSocketReceiver(maxMessageBytes: 100, deflate: false)
        serverCloses.serverCloses()
        // Waiting for the answer, messages and pings are not handled.
        #expect(serverCloses.receive(Self.frame(.binary)) == .none)
        #expect(serverCloses.receive(Self.frame(.ping)) == .none)
        // Nor are violations: a second close frame must not be sent.
        #expect(serverCloses.receive(Self.frame(.binary, masked: false)) == .none)
        #expect(serverCloses.receive(Self.frame(.text, [0xFF])) == .none)
        #expect(serverCloses.receive(Self.frame(.connectionClose, [0x03, 0xE8])) == .closeConnection)
        #expect(serverCloses.state == .closed)

        // A restart's close: the peer's messages up to its answer are still handed on, a
        // ping is not answered, and a violation closes without a second close frame.
        var restarting = WebSocketReceiver(maxMessageBytes: 100, deflate: false)
        restarting.serverCloses(deliveringMessages: true)
        #expect(restarting.receive(Self.frame(.binary, [1, 2])) == .message(.binary(ByteBuffer(bytes: [1, 2]))))
        #expect(restarting.receive(Self.frame(.text, Array("hi".utf8))) == .message(.text(ByteBuffer(string: "hi"))))
        #expect(restarting.receive(Self.frame(.ping)) == .none)
        #expect(restarting.receive(Self.frame(.connectionClose, [0x03, 0xF4])) == .closeConnection)
        var violating = WebSocketReceiver(maxMessageBytes: 100, deflate: false)
        violating.serverCloses(deliveringMessages: true)
        #expect(violating.receive(Self.frame(.binary, masked: false)) == .closeConnection)
        #expect(violating.state == .closed)
    }

    /// Every action the bytes call for, fed `step` bytes at a time.
    static func actions(_ bytes: ByteBuffer, step: Int, maxMessageBytes: Int = 100) -> [WebSocketReceiver.Action] {
        var receiver = WebSocketReceiver(maxMessageBytes: maxMessageBytes, deflate: false)
        var actions: [WebSocketReceiver.Action] = []
        var rest = bytes
        while let piece = rest.readSlice(length: min(step, rest.readableBytes)), piece.readableBytes > 0 {
            receiver.append(piece)
            while let action = receiver.nextAction() { actions.append(action) }
        }
        return actions
    }

    @Test func framesAreParsedFromTheBytesHoweverTheyAreSplit() {
        let long = (0..<300).map { UInt8($0 & 0xFF) }
        var stream = Self.frame(.binary, [1, 2]).wire
        for frame in [Self.text("he", fin: false), Self.frame(.ping, [9]), Self.frame(.continuation, Array("llo".utf8)), Self.frame(.binary, long), Self.frame(.pong)] {
            var bytes = frame.wire
            stream.writeBuffer(&bytes)
        }
        let expected: [WebSocketReceiver.Action] = [
            .message(.binary(ByteBuffer(bytes: [1, 2]))), .pong(ByteBuffer(bytes: [9])),
            .message(.text(ByteBuffer(string: "hello"))), .message(.binary(ByteBuffer(bytes: long))),
        ]
        for step in [1, 2, 5, 6, 7, 100, stream.readableBytes] {
            #expect(Self.actions(stream, step: step, maxMessageBytes: 1_000) == expected, "split every \(step) bytes")
        }
    }

    @Test func unreadableOrOversizedFramesCloseAndWhatFollowsIsIgnored() {
        func actions(_ bytes: [UInt8]) -> [WebSocketReceiver.Action] {
            var stream = ByteBuffer(bytes: bytes)
            var after = Self.frame(.binary, [1]).wire
            stream.writeBuffer(&after)
            return Self.actions(stream, step: stream.readableBytes)
        }
        // A length over the limit fails before the payload arrives; so does a 64-bit length.
        #expect(actions([0x82, 0xFE, 0x00, 0x65]) == [.fail(code: .messageTooBig, reason: "frame too big")])
        #expect(actions([0x82, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0]) == [.fail(code: .messageTooBig, reason: "frame too big")])
        #expect(actions([0x09, 0x80, 1, 2, 3, 4]) == [.fail(code: .protocolError, reason: "fragmented control frame")])
        #expect(actions([0x89, 0xFE, 0x00, 0x7E]) == [.fail(code: .protocolError, reason: "control frame over 125 bytes")])
        // A frame exactly at the limit is fine, and the next one is read.
        var atLimit = Self.frame(.binary, Array(repeating: 7, count: 100)).wire
        var next = Self.frame(.binary, [1]).wire
        atLimit.writeBuffer(&next)
        #expect(Self.actions(atLimit, step: 3) == [.message(.binary(ByteBuffer(bytes: Array(repeating: 7, count: 100)))), .message(.binary(ByteBuffer(bytes: [1])))])
    }

    @Test func compressedMessagesAreInflatedWithinTheLimit() {
        var receiver = WebSocketReceiver(maxMessageBytes: 1000, deflate: true)
        let text = String(repeating: "draw and guess ", count: 20)
        let compressed = Self.deflated(Array(text.utf8))
        #expect(compressed.count < text.utf8.count)
        #expect(receiver.receive(Self.frame(.text, rsv1: true, compressed)) == .message(.text(ByteBuffer(string: text))))
        // Split across fragments, with RSV1 on the first only.
        let half = compressed.count / 2
        #expect(receiver.receive(Self.frame(.binary, fin: false, rsv1: true, Array(compressed[..<half]))) == .none)
        #expect(receiver.receive(Self.frame(.continuation, Array(compressed[half...]))) == .message(.binary(ByteBuffer(string: text))))
        // A stream the client ended (BFINAL) is followed by a fresh one.
        #expect(receiver.receive(Self.frame(.binary, rsv1: true, Self.deflated([1, 2, 3], finish: true))) == .message(.binary(ByteBuffer(bytes: [1, 2, 3]))))
        #expect(receiver.receive(Self.frame(.binary, rsv1: true, Self.deflated([4, 5])))  == .message(.binary(ByteBuffer(bytes: [4, 5]))))
        // Uncompressed messages still pass.
        #expect(receiver.receive(Self.frame(.binary, [7])) == .message(.binary(ByteBuffer(bytes: [7]))))
    }

    @Test func deflateBombsAndGarbageAreRefused() {
        var bomb = WebSocketReceiver(maxMessageBytes: 1000, deflate: true)
        let compressed = Self.deflated(Array(repeating: 0, count: 1001))
        #expect(bomb.receive(Self.frame(.binary, rsv1: true, compressed)) == .fail(code: .messageTooBig, reason: "message too big"))
        var exact = WebSocketReceiver(maxMessageBytes: 1000, deflate: true)
        #expect(exact.receive(Self.frame(.binary, rsv1: true, Self.deflated(Array(repeating: 0, count: 1000)))) == .message(.binary(ByteBuffer(bytes: Array(repeating: 0, count: 1000)))))
        var garbage = WebSocketReceiver(maxMessageBytes: 1000, deflate: true)
        #expect(garbage.receive(Self.frame(.binary, rsv1: true, [0xFF, 0xFF, 0xFF, 0xFF])) == .fail(code: .invalidData, reason: "invalid deflate data"))
    }

    @Test func permessageDeflateOffersAreAcceptedOrDeclined() {
        #expect(PerMessageDeflateOffer.response(to: ["permessage-deflate; client_max_window_bits"]) == "permessage-deflate")
        #expect(PerMessageDeflateOffer.response(to: ["permessage-deflate; server_no_context_takeover; client_no_context_takeover"]) == "permessage-deflate; server_no_context_takeover")
        #expect(PerMessageDeflateOffer.response(to: ["permessage-deflate; server_max_window_bits=10"]) == "permessage-deflate; server_max_window_bits=10")
        #expect(PerMessageDeflateOffer.response(to: ["permessage-deflate; server_max_window_bits=\"9\""]) == "permessage-deflate; server_max_window_bits=9")
        // A malformed offer is declined; the next acceptable one wins.
        #expect(PerMessageDeflateOffer.response(to: ["permessage-deflate; server_max_window_bits=16, permessage-deflate"]) == "permessage-deflate")
        #expect(PerMessageDeflateOffer.response(to: ["permessage-deflate; foo"]) == nil)
        #expect(PerMessageDeflateOffer.response(to: ["permessage-deflate; server_no_context_takeover; server_no_context_takeover"]) == nil)
        #expect(PerMessageDeflateOffer.response(to: ["permessage-deflate; client_max_window_bits=7"]) == nil)
        #expect(PerMessageDeflateOffer.response(to: ["x-webkit-deflate-frame"]) == nil)
        #expect(PerMessageDeflateOffer.response(to: []) == nil)
    }
}

@Suite("UTF-8 validation")
struct UTF8ValidatorTests {
    @Test func agreesWithTheStandardLibraryOnEveryShortSequence() {
        // Every 1- and 2-byte sequence, and 3-byte ones around the tricky leading bytes.
        var samples: [[UInt8]] = (0...255).map { [UInt8($0)] }
        for a in 0...255 { for b in 0...255 { samples.append([UInt8(a), UInt8(b)]) } }
        for a: UInt8 in [0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5] {
            for b: UInt8 in [0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0] {
                for c: UInt8 in [0x7F, 0x80, 0xBF, 0xC0] {
                    samples.append([a, b, c])
                    samples.append([a, b, c, 0x80])
                }
            }
        }
        for bytes in samples {
            let expected = String(validating: bytes, as: UTF8.self) != nil
            #expect(ByteBuffer(bytes: bytes).isValidUTF8 == expected, "\(bytes)")
        }
    }

    @Test func failsAtTheFirstBadFragmentAndAcceptsCodePointsSplitAcrossFragments() {
        var receiver = WebSocketReceiver(maxMessageBytes: 100, deflate: false)
        // "κόσμε" split inside a code point.
        let bytes = Array("κόσμε".utf8)
        #expect(receiver.receive(WebSocketReceiverTests.frame(.text, fin: false, Array(bytes[..<3]))) == .none)
        #expect(receiver.receive(WebSocketReceiverTests.frame(.continuation, Array(bytes[3...]))) == .message(.text(ByteBuffer(bytes: bytes))))
        // Invalid in the first fragment: failed there, before the message ends.
        #expect(receiver.receive(WebSocketReceiverTests.frame(.text, fin: false, [0xCE, 0xBA, 0xED, 0xA0, 0x80])) == .fail(code: .invalidData, reason: "text is not valid UTF-8"))
        // A message that ends inside a code point is invalid.
        var truncated = WebSocketReceiver(maxMessageBytes: 100, deflate: false)
        #expect(truncated.receive(WebSocketReceiverTests.frame(.text, [0x61, 0xCE])) == .fail(code: .invalidData, reason: "text is not valid UTF-8"))
    }
}

extension WebSocketReceiver.Frame {
    /// The frame as a client sends it, masked with [1, 2, 3, 4] when it is masked.
    var wire: ByteBuffer {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | (rsv1 ? 0x40 : 0) | (rsv2 ? 0x20 : 0) | (rsv3 ? 0x10 : 0) | UInt8(webSocketOpcode: opcode)]
        let mask: UInt8 = isMasked ? 0x80 : 0
        let count = payload.readableBytes
        switch count {
        case ..<126: bytes.append(mask | UInt8(count))
        case ..<65_536: bytes += [mask | 126, UInt8(count >> 8), UInt8(count & 0xFF)]
        default: bytes += [mask | 127] + (0..<8).reversed().map { UInt8((count >> ($0 * 8)) & 0xFF) }
        }
        let key: [UInt8] = [1, 2, 3, 4]
        if isMasked { bytes += key }
        bytes += Array(payload.readableBytesView).enumerated().map { isMasked ? $0.element ^ key[$0.offset % 4] : $0.element }
        return ByteBuffer(bytes: bytes)
    }
}
