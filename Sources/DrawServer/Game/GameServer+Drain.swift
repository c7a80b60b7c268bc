import DrawProtocol
import Rooms

/// What a restart's drain needs of the server besides `beginDrain()`: the connections of
/// the players drawing now, and a way to wait for given connections to close.
extension GameServer {
    /// The open connections of every room's current drawer (bots have none).
    ///
    /// Rooms are read one at a time outside the directory's lock: a room calls into the
    /// directory under its own lock, so the directory's lock is never held while a room's
    /// is taken.
    func drawerConnections() -> [ConnectionID: Outbox] {
        let rooms = withDirectory { Array($0.rooms.values) }
        let drawers = rooms.compactMap(\.drawer)
        guard !drawers.isEmpty else { return [:] }
        return withDirectory { d in
            var found: [ConnectionID: Outbox] = [:]
            for drawer in drawers {
                if let connection = d.lobby.players[drawer]?.connection, let outbox = d.outboxes[connection] {
                    found[connection] = outbox
                }
            }
            return found
        }
    }

    /// Runs `body` once none of `connections` is open (at once when none is).
    func whenClosed(_ connections: Set<ConnectionID>, _ body: @escaping @Sendable () -> Void) {
        let openNow = withDirectory { d -> Bool in
            let open = connections.filter { d.outboxes[$0] != nil }
            guard !open.isEmpty else { return false }
            d.closeWaiters.append((open, body))
            return true
        }
        if !openNow { body() }
    }
}

extension GameServer.Directory {
    /// `connection` closed: the waiters that waited for it last, to run once the lock is released.
    mutating func noteClosed(_ connection: ConnectionID) -> [@Sendable () -> Void] {
        guard !closeWaiters.isEmpty else { return [] }
        var done: [@Sendable () -> Void] = []
        closeWaiters = closeWaiters.compactMap { waiter in
            var waiter = waiter
            waiter.open.remove(connection)
            if waiter.open.isEmpty {
                done.append(waiter.then)
                return nil
            }
            return waiter
        }
        return done
    }
}
