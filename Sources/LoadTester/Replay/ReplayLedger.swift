import Canvas
import NIOCore

/// Splits a binary frame (protocol section 5.2) into its operations' byte ranges and
/// fingerprints each operation (FNV-1a over its bytes).
///
/// The server may merge frames but relays the same operations in the same order, so the
/// replay tool matches what a guesser receives against what the drawer sent operation by
/// operation. POINTS carry relative deltas, so an operation's bytes (and its fingerprint)
/// do not depend on what came before it, and a lost operation does not change the
/// fingerprints of the ones after it. Validation is `FrameCodec`'s job; this only walks
/// lengths and stops at the first malformed byte.
enum OpFingerprints {
    /// The fingerprints of the frame's operations, in order; `complete` is false when the
    /// frame ended inside an operation or held an unknown opcode (the rest is ignored).
    static func of(_ bytes: UnsafeRawBufferPointer) -> (fingerprints: [UInt64], complete: Bool) {
        var out: [UInt64] = []
        let complete = forEach(bytes) { out.append($0) }
        return (out, complete)
    }

    static func of(_ bytes: [UInt8]) -> (fingerprints: [UInt64], complete: Bool) {
        bytes.withUnsafeBytes { of($0) }
    }

    /// Calls `body` with each operation's fingerprint; false if the frame was malformed.
    @discardableResult
    static func forEach(_ bytes: UnsafeRawBufferPointer, _ body: (UInt64) -> Void) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let start = index
            let code = bytes[index]
            index += 1
            switch code {
            case 0x01:  // BEGIN: tool, r, g, b, width, x svarint, y svarint
                index += 5
                guard skipVarint(bytes, &index), skipVarint(bytes, &index) else { return false }
            case 0x02:  // POINTS: n, then n (dx, dy) pairs
                guard let n = readVarint(bytes, &index) else { return false }
                var remaining = Int(n) * 2
                while remaining > 0 {
                    guard skipVarint(bytes, &index) else { return false }
                    remaining -= 1
                }
            case 0x07:  // PRESSURE_BEGIN: tool, r, g, b, width, pressure, x svarint, y svarint
                index += 6
                guard skipVarint(bytes, &index), skipVarint(bytes, &index) else { return false }
            case 0x08:  // PRESSURE_POINTS: n, then n (dx, dy, pressure) triples
                guard let n = readVarint(bytes, &index) else { return false }
                var remaining = Int(n)
                while remaining > 0 {
                    guard skipVarint(bytes, &index), skipVarint(bytes, &index) else { return false }
                    index += 1
                    remaining -= 1
                }
            case 0x03, 0x05, 0x06:  // END, UNDO, CLEAR
                break
            case 0x04:  // FILL: r, g, b, x uvarint, y uvarint
                index += 3
                guard skipVarint(bytes, &index), skipVarint(bytes, &index) else { return false }
            default:
                return false
            }
            guard index <= count else { return false }
            body(fnv1a(bytes, start..<index))
        }
        return true
    }

    static func fnv1a(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for i in range {
            hash ^= UInt64(bytes[i])
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    private static func skipVarint(_ bytes: UnsafeRawBufferPointer, _ index: inout Int) -> Bool {
        readVarint(bytes, &index) != nil
    }

    private static func readVarint(_ bytes: UnsafeRawBufferPointer, _ index: inout Int) -> UInt32? {
        var value: UInt32 = 0
        var shift: UInt32 = 0
        while index < bytes.count, shift < 35 {
            let byte = bytes[index]
            index += 1
            value |= UInt32(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }
}

/// What the drawer of one turn sent: one entry per operation, with its send time.
///
/// Shared by the drawer and the guessers of a room, which all live on the room's event
/// loop, so it needs no lock.
final class TurnLedger: @unchecked Sendable {
    /// The turn number (how many `turn` messages the room's clients have seen).
    let turn: Int
    private(set) var fingerprints: [UInt64] = []
    /// Monotonic nanoseconds when the operation's frame was written to the socket.
    private(set) var sentAt: [UInt64] = []
    /// True once the drawer has sent the whole pass (no more operations will come).
    var complete = false

    init(turn: Int) {
        self.turn = turn
        fingerprints.reserveCapacity(1024)
        sentAt.reserveCapacity(1024)
    }

    var count: Int { fingerprints.count }

    func append(_ frame: [UInt64], sentAt time: UInt64) {
        fingerprints.append(contentsOf: frame)
        for _ in frame { sentAt.append(time) }
    }

    func fingerprint(at index: Int) -> UInt64 { fingerprints[index] }
    func sendTime(at index: Int) -> UInt64 { sentAt[index] }
}

/// Matches the operations one guesser receives in a turn against the turn's ledger, in
/// order: the expected next operation is a delivery; one found a little further on means
/// the ones in between were lost; one found a little behind is late (out of order, if it
/// had been counted lost) or a duplicate; anything else is unexpected.
struct OpMatcher: Sendable, Equatable {
    /// How far ahead and behind a mismatching operation is looked for.
    static let window = 512

    /// Index in the ledger of the next expected operation.
    private(set) var next = 0
    /// Operations delivered (in order, or late).
    private(set) var delivered = 0
    /// Operations skipped over and not (yet) seen late.
    private(set) var lost = 0
    /// Operations that arrived after a later one had.
    private(set) var outOfOrder = 0
    /// Operations seen twice.
    private(set) var duplicates = 0
    /// Operations that match nothing the drawer sent nearby.
    private(set) var unexpected = 0
    private var skipped: Set<Int> = []

    init() {}

    /// The ledger index the operation matched (for its latency), or nil.
    mutating func match(_ fingerprint: UInt64, in ledger: TurnLedger) -> Int? {
        let count = ledger.count
        if next < count, ledger.fingerprint(at: next) == fingerprint {
            next += 1
            delivered += 1
            return next - 1
        }
        var index = next + 1
        let ahead = min(count, next + Self.window)
        while index < ahead {
            if ledger.fingerprint(at: index) == fingerprint {
                for gap in next..<index { skipped.insert(gap) }
                lost += index - next
                next = index + 1
                delivered += 1
                return index
            }
            index += 1
        }
        index = min(next, count) - 1
        let behind = max(0, next - Self.window)
        while index >= behind {
            if ledger.fingerprint(at: index) == fingerprint {
                if skipped.remove(index) != nil {
                    lost -= 1
                    outOfOrder += 1
                    delivered += 1
                    return index
                }
                duplicates += 1
                return nil
            }
            index -= 1
        }
        unexpected += 1
        return nil
    }

    /// The turn is over: whatever the ledger holds beyond `next` never arrived.
    mutating func finish(ledgerCount: Int) {
        if ledgerCount > next {
            lost += ledgerCount - next
            next = ledgerCount
        }
    }

    /// True when the matcher has reached the end of what was sent so far.
    func hasReachedEnd(of ledger: TurnLedger) -> Bool { next >= ledger.count }
}
