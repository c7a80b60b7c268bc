import DrawProtocol
import Rooms

/// The outboxes of a room's connected members, in one small array.
///
/// A room holds a few dozen members at most, so a linear search finds one as fast as a
/// hash would, and the fan-out of every drawing frame walks a contiguous array instead of a
/// dictionary's buckets.
struct MemberOutboxes: Sendable {
    private(set) var entries: [(id: PlayerID, outbox: Outbox)] = []

    subscript(id: PlayerID) -> Outbox? {
        get { entries.first { $0.id == id }?.outbox }
        set {
            let index = entries.firstIndex { $0.id == id }
            switch (index, newValue) {
            case (let index?, let outbox?): entries[index].outbox = outbox
            case (let index?, nil): entries.remove(at: index)
            case (nil, let outbox?): entries.append((id, outbox))
            case (nil, nil): break
            }
        }
    }
}
