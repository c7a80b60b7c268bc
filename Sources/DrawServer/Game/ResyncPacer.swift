import DrawProtocol
import Rooms

/// When a drawer whose frame was refused gets the room's canvas back (`canvas` and the
/// compacted drawing, so it stops showing strokes nobody else sees): at once, then at most
/// once per `intervalMs`, with one owed resync sent when the interval is over. A drawer
/// whose frames keep being refused (a full canvas, a broken client) thus costs the room
/// one canvas replay per interval, not one per frame.
struct ResyncPacer: Sendable, Equatable {
    static let intervalMs = 1_000

    enum Decision: Equatable {
        /// Send the canvas now.
        case now
        /// Schedule one resync after this many milliseconds.
        case after(Int)
        /// One is already scheduled: it will carry this refusal's correction too.
        case alreadyOwed
    }

    private var lastSent: Timestamp?
    private var owed = false

    mutating func refused(now: Timestamp) -> Decision {
        if owed { return .alreadyOwed }
        guard let lastSent, now - lastSent < Self.intervalMs else {
            self.lastSent = now
            return .now
        }
        owed = true
        return .after(Self.intervalMs - (now - lastSent))
    }

    /// The scheduled resync is due: true if it is still owed (it is sent now).
    mutating func due(now: Timestamp) -> Bool {
        guard owed else { return false }
        owed = false
        lastSent = now
        return true
    }
}
