import NIOCore
import NIOWebSocket

/// Writes a replay connection's frames, masked as a client must: straight to the socket
/// with one `send` while NIO has none of this connection's bytes waiting, else through
/// NIO behind them.
///
/// The drawers' frames are most of what the load generator writes, and NIO's pipeline,
/// its frame encoder and a `getrandom` call for every masking key cost about a third as much
/// as the kernel's own work for the write; the load generator shares its core with
/// nothing, so what it saves goes to reading deliveries. Lives on the connection's event
/// loop; not thread-safe.
final class ReplayFrameWriter: @unchecked Sendable {
    /// The upgraded channel: no handler of its writes frames, so bytes written to it go
    /// to the socket as they are.
    private let channel: any Channel
    private let socket: NIOBSDSocket.Handle?
    /// Writes handed to NIO and not completed yet; while there are any, frames queue behind
    /// them in NIO, so none overtakes another.
    private(set) var writesInNIO = 0
    /// Frames that went to the socket directly, in full (for tests).
    private(set) var directFrames = 0
    private var maskKeys: MaskKeyGenerator
    private var scratch: [UInt8] = []

    init(channel: any Channel, socket: NIOBSDSocket.Handle?) {
        self.channel = channel
        self.socket = socket
        var system = SystemRandomNumberGenerator()
        maskKeys = MaskKeyGenerator(seed: system.next())
    }

    /// Masks and writes one whole frame.
    func send(_ opcode: WebSocketOpcode, _ payload: ByteBuffer, promise: EventLoopPromise<Void>? = nil) {
        encode(opcode, payload)
        var sent = 0
        if writesInNIO == 0, promise == nil, let socket {
            guard let taken = scratch.withUnsafeBytes({ ReplaySocketWrite.send($0, to: socket) }) else {
                // The socket failed (the peer is gone): NIO writes the frame, finds that out
                // and closes the channel, which reports the close as usual.
                return writeThroughNIO(scratch[...], promise: nil)
            }
            if taken == scratch.count {
                directFrames &+= 1
                return
            }
            sent = taken
        }
        writeThroughNIO(scratch[sent...], promise: promise)
    }

    private func writeThroughNIO(_ bytes: ArraySlice<UInt8>, promise: EventLoopPromise<Void>?) {
        let written = promise ?? channel.eventLoop.makePromise(of: Void.self)
        writesInNIO += 1
        written.futureResult.whenComplete { [self] _ in writesInNIO -= 1 }
        channel.writeAndFlush(channel.allocator.buffer(bytes: bytes), promise: written)
    }

    /// Fills `scratch` with the frame: FIN, opcode, masked length, key, masked payload.
    private func encode(_ opcode: WebSocketOpcode, _ payload: ByteBuffer) {
        let length = payload.readableBytes
        scratch.removeAll(keepingCapacity: true)
        scratch.append(0x80 | UInt8(webSocketOpcode: opcode))
        if length < 126 {
            scratch.append(0x80 | UInt8(length))
        } else if length <= Int(UInt16.max) {
            scratch.append(0x80 | 126)
            scratch.append(UInt8(length >> 8))
            scratch.append(UInt8(length & 0xFF))
        } else {
            scratch.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { scratch.append(UInt8((UInt64(length) >> UInt64(shift)) & 0xFF)) }
        }
        withUnsafeBytes(of: maskKeys.next()) { key in
            scratch.append(contentsOf: key)
            let start = scratch.count
            scratch.append(contentsOf: payload.readableBytesView)
            scratch.withUnsafeMutableBufferPointer { bytes in
                for index in start..<bytes.count { bytes[index] ^= key[(index - start) & 3] }
            }
        }
    }
}

/// Masking keys from SplitMix64 seeded by the system generator: unpredictable to anyone
/// outside the process, which is all RFC 6455 asks of a client's keys (they keep a page's
/// script from choosing the bytes on the wire), without a system call per frame.
struct MaskKeyGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// Four bytes of key (in memory order).
    mutating func next() -> UInt32 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return UInt32(truncatingIfNeeded: z)
    }
}
