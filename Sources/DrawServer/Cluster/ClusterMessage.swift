import DrawProtocol
import Foundation
import Rooms

/// One low-rate message between nodes, sent with PostgreSQL's `NOTIFY` on one channel
/// (`ClusterBus.channel`) as a JSON payload. Every node hears every message and keeps the
/// ones meant for it (`ClusterRouter`). Payloads stay far below NOTIFY's 8000-byte limit.
enum ClusterMessage: Sendable, Equatable, Codable {
    /// A node says where it can be reached (`--advertise`): moderator requests for its
    /// rooms are forwarded there.
    case node(id: String, url: String)
    /// An invitation for `target`, who is not connected to the sending node. `text` is the
    /// complete `invited` message, already encoded.
    case invite(id: String, origin: String, target: String, text: String)
    /// The node holding `target`'s connection delivered invitation `id`.
    case delivered(id: String, origin: String)
    /// A draining node released `rooms`: the others take them over at once instead of at
    /// their next scan.
    case released(node: String, rooms: [String])
    /// `node` now runs `room` (taken over): its `players` connected elsewhere are sent there.
    case moved(room: String, node: String, players: [String])
    /// `node` let `address` create a room: the other nodes spend it from that address's
    /// budget too, so the budget holds across the cluster, not once per node.
    case roomCreation(node: String, address: String)
    /// `node` is draining (a restart): its rooms are about to move, so a join for one of
    /// them waits for the node that takes it over instead of being sent to `node`.
    case draining(node: String)

    private enum CodingKeys: String, CodingKey { case k, id, url, origin, target, text, node, rooms, room, players, address }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .k) {
        case "node": self = .node(id: try c.decode(String.self, forKey: .id), url: try c.decode(String.self, forKey: .url))
        case "invite":
            self = .invite(id: try c.decode(String.self, forKey: .id), origin: try c.decode(String.self, forKey: .origin),
                           target: try c.decode(String.self, forKey: .target), text: try c.decode(String.self, forKey: .text))
        case "delivered": self = .delivered(id: try c.decode(String.self, forKey: .id), origin: try c.decode(String.self, forKey: .origin))
        case "released": self = .released(node: try c.decode(String.self, forKey: .node), rooms: try c.decode([String].self, forKey: .rooms))
        case "moved":
            self = .moved(room: try c.decode(String.self, forKey: .room), node: try c.decode(String.self, forKey: .node),
                          players: try c.decode([String].self, forKey: .players))
        case "roomCreation":
            self = .roomCreation(node: try c.decode(String.self, forKey: .node), address: try c.decode(String.self, forKey: .address))
        case "draining": self = .draining(node: try c.decode(String.self, forKey: .node))
        case let kind: throw DecodingError.dataCorruptedError(forKey: .k, in: c, debugDescription: "unknown kind \(kind)")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .node(let id, let url):
            try c.encode("node", forKey: .k); try c.encode(id, forKey: .id); try c.encode(url, forKey: .url)
        case .invite(let id, let origin, let target, let text):
            try c.encode("invite", forKey: .k); try c.encode(id, forKey: .id); try c.encode(origin, forKey: .origin)
            try c.encode(target, forKey: .target); try c.encode(text, forKey: .text)
        case .delivered(let id, let origin):
            try c.encode("delivered", forKey: .k); try c.encode(id, forKey: .id); try c.encode(origin, forKey: .origin)
        case .released(let node, let rooms):
            try c.encode("released", forKey: .k); try c.encode(node, forKey: .node); try c.encode(rooms, forKey: .rooms)
        case .moved(let room, let node, let players):
            try c.encode("moved", forKey: .k); try c.encode(room, forKey: .room); try c.encode(node, forKey: .node)
            try c.encode(players, forKey: .players)
        case .roomCreation(let node, let address):
            try c.encode("roomCreation", forKey: .k); try c.encode(node, forKey: .node); try c.encode(address, forKey: .address)
        case .draining(let node):
            try c.encode("draining", forKey: .k); try c.encode(node, forKey: .node)
        }
    }

    var payload: String {
        (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// Nil for a payload that is not a message this version knows (another version's, or
    /// garbage): ignored, never a crash.
    init?(payload: String) {
        guard let message = try? JSONDecoder().decode(ClusterMessage.self, from: Data(payload.utf8)) else { return nil }
        self = message
    }
}
