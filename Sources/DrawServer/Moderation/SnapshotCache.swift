import Canvas
import Synchronization

/// Encoded canvas snapshots by room, canvas version and format, so repeated moderator
/// requests for an unchanged canvas cost nothing.
final class SnapshotCache: Sendable {
    struct Key: Hashable, Sendable {
        var room: String
        var generation: Int
        var frames: Int
        var format: String
        var scale: Int
        var maxSide: Int?
    }

    private let entries = Mutex<[Key: [UInt8]]>([:])
    private let capacity: Int

    init(capacity: Int = 64) { self.capacity = capacity }

    /// The cached bytes, or `render()`'s result stored for next time.
    func bytes(for key: Key, render: () -> [UInt8]) -> [UInt8] {
        if let hit = entries.withLock({ $0[key] }) { return hit }
        let bytes = render()
        entries.withLock { cache in
            // Entries of an older version of the same room are useless now.
            cache = cache.filter { $0.key.room != key.room || ($0.key.generation == key.generation && $0.key.frames == key.frames) }
            if cache.count >= capacity, let victim = cache.keys.first { cache[victim] = nil }
            cache[key] = bytes
        }
        return bytes
    }
}
