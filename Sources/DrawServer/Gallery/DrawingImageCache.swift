import DrawProtocol
import Rooms
import Synchronization

/// Rendered drawing images (`/d/ID.png`, `/d/ID.apng`) by id, kind and size, least
/// recently used first out once they pass `maxBytes`. A drawing never changes, so an entry
/// never goes stale.
final class DrawingImageCache: Sendable {
    struct Key: Hashable, Sendable {
        var id: DrawingID
        var kind: DrawingImageKind
        var scale: Int
        var maxSide: Int?
    }

    private struct State {
        var entries: [Key: (bytes: [UInt8], used: UInt64)] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    private let maxBytes: Int
    private let state = Mutex(State())

    init(maxBytes: Int = 32 << 20) { self.maxBytes = maxBytes }

    func bytes(for key: Key) -> [UInt8]? {
        state.withLock { s in
            guard let entry = s.entries[key] else { return nil }
            s.clock += 1
            s.entries[key] = (entry.bytes, s.clock)
            return entry.bytes
        }
    }

    func store(_ bytes: [UInt8], for key: Key) {
        guard bytes.count <= maxBytes else { return }
        state.withLock { s in
            s.clock += 1
            if let old = s.entries.updateValue((bytes, s.clock), forKey: key) { s.bytes -= old.bytes.count }
            s.bytes += bytes.count
            // Evicting scans every entry, but entries are few (tens of KB to 2 MB each).
            while s.bytes > maxBytes, let victim = s.entries.min(by: { $0.value.used < $1.value.used }) {
                s.entries[victim.key] = nil
                s.bytes -= victim.value.bytes.count
            }
        }
    }

    /// Deletes every rendered image of a removed drawing.
    func remove(_ id: DrawingID) {
        state.withLock { s in
            for key in s.entries.keys where key.id == id {
                if let entry = s.entries.removeValue(forKey: key) { s.bytes -= entry.bytes.count }
            }
        }
    }

    var totalBytes: Int { state.withLock { $0.bytes } }
}

/// The two images of a drawing.
enum DrawingImageKind: String, Sendable {
    case png
    case apng

    var contentType: String {
        switch self {
        case .png: "image/png"
        case .apng: "image/apng"
        }
    }
}
