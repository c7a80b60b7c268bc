import Foundation
import ServerTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A WebSocket peer over a plain socket, for misbehaving clients: one that stops reading,
/// never answers pings, or sends what a well-behaved library would not. Whatever waits for
/// the server runs `offThePool`, so a test's waiting never holds up the in-process servers.
final class RawWebSocket {
    let socket: Int32
    /// The HTTP status of the upgrade answer (101 when it became a WebSocket).
    private(set) var status = 0
    /// The answer's head, status line and header lines.
    private(set) var responseHead = ""

    private var isClosed = false

    deinit { close() }

    /// Closes the socket (once).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(socket)
    }

    /// - Parameter handshake: the `Sec-WebSocket-*` header lines to send instead of a valid key
    ///   and version 13.
    init(port: Int, origin: String? = nil, receiveBuffer: Int32? = nil, handshake: String? = nil) async throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(socket, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        try connectToLoopback(socket, port: port)
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var request = "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        request += handshake ?? "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        if let origin { request += "Origin: \(origin)\r\n" }
        request += "\r\n"
        write(Array(request.utf8))
        let head = await offThePool { [socket] in
            // Byte by byte, so no WebSocket data is consumed with the answer's head.
            var head: [UInt8] = []
            var byte: UInt8 = 0
            while !head.suffix(4).elementsEqual([13, 10, 13, 10]) {
                guard recv(socket, &byte, 1, 0) == 1 else { break }
                head.append(byte)
            }
            return head
        }
        responseHead = String(decoding: head, as: UTF8.self)
        let line = String(decoding: head.prefix { $0 != 13 }, as: UTF8.self)
        status = Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return }
            offset += sent
        }
    }

    /// A masked client frame.
    func sendFrame(opcode: UInt8, _ payload: [UInt8]) {
        write(Self.frame(opcode: opcode, payload))
    }

    /// The bytes of a masked client frame.
    static func frame(opcode: UInt8, _ payload: [UInt8]) -> [UInt8] {
        var frame: [UInt8] = [0x80 | opcode]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count < 65_536 {
            frame.append(0x80 | 126)
            frame += [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        return frame
    }

    func sendText(_ text: String) { sendFrame(opcode: 1, Array(text.utf8)) }

    /// Reads whatever arrives within `seconds`; nil once the server closed the connection.
    func drain(seconds: Double) async -> Int? {
        await offThePool { [socket] in Self.drain(socket, seconds: seconds) }
    }

    private static func drain(_ socket: Int32, seconds: Double) -> Int? {
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = Date().addingTimeInterval(seconds)
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        while Date() < deadline {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count == 0 { return nil }
            if count < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK { continue }
                return nil
            }
            total += count
        }
        return total
    }
}

extension RawWebSocket {
    /// Writes `frame` over and over without reading, as fast as the socket takes it, until
    /// the connection fails, the socket stops taking bytes for `stall` seconds, or
    /// `maxBytes` are written. Returns the bytes written and the error that ended it (0 when
    /// the socket stalled or the bound was reached).
    func flood(_ frame: [UInt8], maxBytes: Int, stall: Double = 0.3) async -> (written: Int, error: Int32) {
        await offThePool { [socket] in Self.flood(socket, frame, maxBytes: maxBytes, stall: stall) }
    }

    private static func flood(_ socket: Int32, _ frame: [UInt8], maxBytes: Int, stall: Double) -> (written: Int, error: Int32) {
        var burst: [UInt8] = []
        while burst.count < 64 * 1024 { burst += frame }
        var written = 0
        var offset = 0
        var stalledSince: Date?
        while written < maxBytes {
            let sent = burst[offset...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if sent > 0 {
                written += sent
                offset = (offset + sent) % burst.count
                stalledSince = nil
                continue
            }
            guard sent < 0, errno == EAGAIN || errno == EWOULDBLOCK else { return (written, sent < 0 ? errno : 0) }
            // Waits for the socket to take bytes again; `stall` without that means the
            // server stopped reading (the flood's end, not a measurement).
            let since = stalledSince ?? Date()
            stalledSince = since
            let left = stall - Date().timeIntervalSince(since)
            var writable = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
            if left <= 0 || poll(&writable, 1, Int32(left * 1000) + 1) == 0 { break }
        }
        return (written, 0)
    }

    /// Reads until the server's FIN, a reset or `seconds`; returns what arrived and whether
    /// the connection was reset.
    func readToEnd(within seconds: Double) async -> (bytes: [UInt8], reset: Bool) {
        await offThePool { [socket] in Self.readToEnd(socket, within: seconds) }
    }

    private static func readToEnd(_ socket: Int32, within seconds: Double) -> (bytes: [UInt8], reset: Bool) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count == 0 { return (received, false) }
            if count < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
                return (received, errno == ECONNRESET)
            }
            received += buffer[0..<count]
        }
        return (received, false)
    }

    /// The server's (unmasked) frames in `bytes`, as opcode and payload; stops at the first
    /// incomplete frame.
    static func frames(in bytes: [UInt8]) -> [(opcode: UInt8, payload: [UInt8])] {
        var frames: [(UInt8, [UInt8])] = []
        var index = 0
        while index + 2 <= bytes.count {
            var length = Int(bytes[index + 1] & 0x7F)
            var start = index + 2
            if length == 126 {
                guard start + 2 <= bytes.count else { break }
                length = Int(bytes[start]) << 8 | Int(bytes[start + 1])
                start += 2
            } else if length == 127 {
                guard start + 8 <= bytes.count else { break }
                length = bytes[start..<start + 8].reduce(0) { $0 << 8 | Int($1) }
                start += 8
            }
            guard start + length <= bytes.count else { break }
            frames.append((bytes[index] & 0x0F, Array(bytes[start..<start + length])))
            index = start + length
        }
        return frames
    }
}

/// Connects `socket` to 127.0.0.1:`port`.
func connectToLoopback(_ socket: Int32, port: Int) throws {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
}
