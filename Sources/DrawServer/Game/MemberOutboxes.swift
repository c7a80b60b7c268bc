import DrawProtocol
import Rooms

/// The outboxes of a room's connected members, in one small array, and grouped by their
/// event loops.
///
/// A room holds a few dozen members at most, so a linear search finds one as fast as a
/// hash would. The groups are rebuilt when membership changes (rarely) so that a fan-out
/// hands each loop one shared array (`WakeUps.deliver(_:toMembers:except:)`) instead of an
/// entry, and a reference count, per recipient.
struct MemberOutboxes: Sendable {
    private(set) var entries: [(id: PlayerID, outbox: Outbox)] = []
    /// The members' outboxes by event loop.
    private(set) var byLoop: [WakeUps.LoopMembers] = []

    subscript(id: PlayerID) -> Outbox? {
        get { entries.first { $0.id == id }?.outbox }
        set {
            let index = entries.firstIndex { $0.id == id }
            switch (index, newValue) {
            case (let index?, let outbox?): entries[index].outbox = outbox
            case (let index?, nil): entries.remove(at: index)
            case (nil, let outbox?): entries.append((id, outbox))
            case (nil, nil): return
            }
            regroup()
        }
    }

    private mutating func regroup() {
        var groups: [WakeUps.LoopMembers] = []
        for entry in entries {
            if let index = groups.firstIndex(where: { $0.loop === entry.outbox.delivery }) {
                groups[index].outboxes.append(entry.outbox)
            } else {
                groups.append(WakeUps.LoopMembers(loop: entry.outbox.delivery, outboxes: [entry.outbox]))
            }
        }
        byLoop = groups
    }
}
