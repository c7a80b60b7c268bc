import DrawProtocol
import Rooms

extension DrawServerRuntime {
    /// The moderator's room list on a shared store: this node's rooms, live, and every
    /// other live node's rooms from the store's room directory (refreshed every 0.5 s),
    /// each with `"node"`, the node that runs it. A room moving between nodes may be in
    /// both for a moment: this node's own entry wins.
    func clusterRoomList() -> [UInt8] {
        let nodeID = server.configuration.cluster.nodeID
        var rooms = server.withLobby { $0.allRooms() }.map { RemoteRooms.Listed(summary: $0, node: nodeID) }
        let here = Set(rooms.map(\.summary.code))
        rooms += server.remoteRooms.allRooms.filter { !here.contains($0.summary.code) }
        // The order of one node's list (`Lobby.allRooms`): the fullest first, then by code.
        rooms.sort { a, b in
            a.summary.players != b.summary.players ? a.summary.players > b.summary.players : a.summary.code < b.summary.code
        }
        var body: [UInt8] = [UInt8(ascii: "[")]
        for (i, room) in rooms.enumerated() {
            if i > 0 { body.append(UInt8(ascii: ",")) }
            var object = room.summary.jsonBytes()
            // Node ids are plain ASCII without quotes or escapes (`ServeCommand.isNodeID`).
            if object.last == UInt8(ascii: "}") {
                object.removeLast()
                object += Array(#","node":"\#(room.node)"}"#.utf8)
            }
            body += object
        }
        body.append(UInt8(ascii: "]"))
        return body
    }
}
