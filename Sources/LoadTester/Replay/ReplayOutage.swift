import Foundation

/// One client's outage under `--reconnect`: from the unexpected close until the server
/// welcomed it back with `resumed:true` (or never).
struct ReplayOutage: Sendable, Equatable {
    /// Uptime nanoseconds (`NIODeadline`) of the close.
    var startedAt: UInt64
    /// Uptime nanoseconds of the resumed `welcome`; nil while (or if) it never came back.
    var endedAt: UInt64?
    /// The server's close code, nil for a reset or a vanished server.
    var closeCode: Int?
    /// The server welcomed the token back as a new player (`resumed:false`): seat lost.
    var refused = false
    /// Operations of the turn the client was watching that it never received.
    var opsLost = 0
    /// Connection attempts it took.
    var attempts = 0
    /// Uptime nanoseconds of the first `room` after the resumed `welcome`: back in its room
    /// (which, after a kill -9, waits for another node to take the room over).
    var roomAt: UInt64? = nil

    /// Outages of many clients that overlap are one event (a restart, a kill -9): summed up
    /// in the order they began, as seconds since `runStart`.
    static func events(_ outages: [ReplayOutage], runStart: UInt64) -> [ReplaySummary.Outage] {
        var events: [ReplaySummary.Outage] = []
        var group: [ReplayOutage] = []
        var groupEnd: UInt64 = 0
        func flush() {
            guard let first = group.first else { return }
            let times = group.compactMap { outage in outage.endedAt.map { Double($0 - outage.startedAt) / 1e6 } }.sorted()
            events.append(ReplaySummary.Outage(
                atSeconds: Double(first.startedAt &- min(first.startedAt, runStart)) / 1e9,
                clients: group.count,
                recovered: group.count { $0.endedAt != nil && !$0.refused },
                refused: group.count { $0.refused },
                reconnectMsP50: times.isEmpty ? 0 : times[(times.count - 1) / 2],
                reconnectMsMax: times.last ?? 0,
                reconnectMsP99: times.isEmpty ? 0 : times[min(times.count - 1, Int((Double(times.count) * 0.99).rounded(.up)) - 1)],
                opsLost: group.reduce(0) { $0 + $1.opsLost },
                attempts: group.reduce(0) { $0 + $1.attempts },
                closeCodes: Dictionary(group.map { ($0.closeCode.map(String.init) ?? "none", 1) }, uniquingKeysWith: +)
            ))
            // Back in the room, counted from the event's first close (the kill, as the
            // clients saw it): only when the clients said so.
            let start = group.map(\.startedAt).min() ?? 0
            let inRoom = group.compactMap { $0.roomAt.map { Double($0 &- min($0, start)) / 1e6 } }.sorted()
            if !inRoom.isEmpty {
                let last = events.count - 1
                events[last].backInRoom = inRoom.count
                events[last].roomMsP50 = inRoom[(inRoom.count - 1) / 2]
                events[last].roomMsP99 = inRoom[min(inRoom.count - 1, Int((Double(inRoom.count) * 0.99).rounded(.up)) - 1)]
                events[last].roomMsMax = inRoom.last
                events[last].curve = Self.curve(inRoom)
            }
            group = []
        }
        for outage in outages.sorted(by: { $0.startedAt < $1.startedAt }) {
            if !group.isEmpty, outage.startedAt > groupEnd { flush() }
            group.append(outage)
            // Still open: everything after it belongs to the same event.
            groupEnd = max(groupEnd, outage.endedAt ?? .max)
        }
        flush()
        return events
    }

    /// Clients back in their rooms over time: `[seconds, clients]` every 100 ms from the
    /// first close until the last client was back.
    static func curve(_ sortedMs: [Double]) -> [[Double]] {
        guard let last = sortedMs.last else { return [] }
        var points: [[Double]] = []
        var index = 0
        for step in 0...Int((last / 100).rounded(.up)) {
            let ms = Double(step) * 100
            while index < sortedMs.count, sortedMs[index] <= ms { index += 1 }
            points.append([ms / 1000, Double(index)])
        }
        return points
    }
}
