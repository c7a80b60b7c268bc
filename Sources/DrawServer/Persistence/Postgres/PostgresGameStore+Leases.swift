import DrawProtocol
import Logging
import Rooms
import Synchronization

extension PostgresGameStore {
    /// Renews the leases that are due and reports the ones that ran out. Called on its own
    /// clock (`keepLeases`), never behind a database call: a renewal or a commit that waits
    /// (the database unreachable) must not hold up the check that stops a room when its
    /// lease runs out, which is what keeps two nodes from running it.
    func tickLeases() {
        let actions = keeper.withLock { $0.tick(now: now) }
        guard !actions.isEmpty else { return }
        // A renewal in flight blocks further ones for its room (`renewSentAt`), so at most
        // one such task per room waits while the database is away.
        Task { await self.perform(actions) }
    }

    /// Ticks the leases every `leaseTick` of the store's clock until cancelled.
    func keepLeases() async {
        while !Task.isCancelled {
            tickLeases()
            await clock.sleep(configuration.leaseTick)
        }
    }

    /// Releases every lease this node holds (its rooms were stopped and flushed) but those
    /// of rooms the writer still holds changes for; returns the rooms released: none when
    /// the database could not be told (their leases then run out by themselves, and there
    /// is nothing to tell the other nodes about now).
    func releaseAll() async -> [RoomCode] {
        let unwritten = self.unwritten.withLock { $0.heldRooms }
        let actions = keeper.withLock { k in k.leases.keys.filter { !unwritten.contains($0) }.sorted().flatMap { k.release($0) } }
        let held = actions.compactMap { if case .release(let code, let epoch) = $0 { (code, epoch) } else { nil } }
        let others = actions.filter { if case .release = $0 { false } else { true } }
        await perform(others)
        return await leases.release(held) ? held.map(\.0) : []
    }

    /// Carries out the keeper's actions: store round trips, then the lost rooms told.
    func perform(_ actions: [LeaseAction]) async {
        var renewals: [(RoomCode, Int64)] = []
        var releases: [(RoomCode, Int64)] = []
        var lost: [RoomCode] = []
        for action in actions {
            switch action {
            case .acquire(let code):
                let result = await leases.acquire(code)
                let more = keeper.withLock { k -> [LeaseAction] in
                    switch result {
                    case .acquired(let epoch): return k.acquired(code, epoch: epoch)
                    case .heldElsewhere: return k.refused(code)
                    case .failed:
                        k.acquireFailed(code)
                        return []
                    }
                }
                await perform(more)
            case .renew(let code, let epoch):
                renewals.append((code, epoch))
            case .release(let code, let epoch):
                releases.append((code, epoch))
            case .lost(let code, let epoch):
                logger.warning("room lease lost: this node stops running the room", metadata: [
                    "room": "\(code)", "epoch": "\(epoch.map(String.init) ?? "none")", "node": "\(nodeID)",
                ])
                lost.append(code)
            }
        }
        await leases.release(releases)
        if !renewals.isEmpty {
            let outcome = await leases.renew(renewals)
            let more = keeper.withLock { k -> [LeaseAction] in
                var more: [LeaseAction] = []
                for (code, epoch) in renewals {
                    switch outcome {
                    case .some(let renewed) where renewed.contains(code): k.renewed(code, epoch: epoch)
                    case .some: more += k.renewRefused(code, epoch: epoch)
                    case .none: k.renewFailed(code, epoch: epoch)
                    }
                }
                return more
            }
            await perform(more)
        }
        for code in lost { tell(.roomLost(code)) }
    }
}
