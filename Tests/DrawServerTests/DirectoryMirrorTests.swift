import DrawProtocol
import Rooms
import Testing
@testable import DrawServer

/// The directory as changes (issue 35): what a node keeps of the cluster's rooms between
/// reads, and what it lists from it.
@Suite("Directory mirror")
struct DirectoryMirrorTests {
    static func summary(_ code: String, isPublic: Bool = true) -> RoomSummary {
        RoomSummary(
            code: RoomCode(parsing: code)!, name: code, isPublic: isPublic, players: 2, maxPlayers: 8, phase: .lobby,
            bots: 0, connected: 2, language: "en", round: 0, rounds: 3
        )
    }

    static func code(_ text: String) -> RoomCode { RoomCode(parsing: text)! }

    @Test func changesAreAppliedInTransactionOrderAndDeletionsOnlyRemoveOlderRows() {
        var mirror = DirectoryMirror()
        mirror.replaceAll(
            leases: [Self.code("AAAAAA"): .init(node: "n2", released: false, xid: 5), Self.code("BBBBBB"): .init(node: "n2", released: false, xid: 5)],
            rooms: [Self.code("AAAAAA"): .init(node: "n2", summary: Self.summary("AAAAAA"), xid: 5), Self.code("BBBBBB"): .init(node: "n2", summary: Self.summary("BBBBBB"), xid: 5)]
        )
        var renamed = Self.summary("AAAAAA")
        renamed.players = 5
        mirror.apply(
            leases: [:],
            rooms: [
                Self.code("AAAAAA"): .init(node: "n2", summary: renamed, xid: 9),
                // Read again by an overlapping window, older than what is here: ignored.
                Self.code("BBBBBB"): .init(node: "n2", summary: Self.summary("BBBBBB", isPublic: false), xid: 4),
            ],
            gone: []
        )
        #expect(mirror.rooms[Self.code("AAAAAA")]?.summary.players == 5)
        #expect(mirror.rooms[Self.code("BBBBBB")]?.summary.isPublic == true)

        // B closed (xid 12); A closed (xid 7) but written again since (xid 9): it stays.
        mirror.apply(leases: [:], rooms: [:], gone: [(Self.code("BBBBBB"), 12), (Self.code("AAAAAA"), 7)])
        #expect(mirror.rooms[Self.code("BBBBBB")] == nil)
        #expect(mirror.rooms[Self.code("AAAAAA")] != nil)
    }

    @Test func theDirectoryListsOtherNodesRoomsWhoseLeasesAreHeldByTheWriter() {
        var mirror = DirectoryMirror()
        mirror.replaceAll(
            leases: [
                Self.code("AAAAAA"): .init(node: "n2", released: false, xid: 1),
                Self.code("BBBBBB"): .init(node: "n1", released: false, xid: 1),  // this node's
                Self.code("CCCCCC"): .init(node: "n3", released: false, xid: 1),
                Self.code("DDDDDD"): .init(node: "n3", released: false, xid: 1),  // taken over from n2
                Self.code("EEEEEE"): .init(node: "n2", released: true, xid: 1),
            ],
            rooms: [
                Self.code("AAAAAA"): .init(node: "n2", summary: Self.summary("AAAAAA"), xid: 1),
                Self.code("BBBBBB"): .init(node: "n1", summary: Self.summary("BBBBBB"), xid: 1),
                Self.code("CCCCCC"): .init(node: "n3", summary: Self.summary("CCCCCC", isPublic: false), xid: 1),
                Self.code("DDDDDD"): .init(node: "n2", summary: Self.summary("DDDDDD"), xid: 1),
            ]
        )
        let early = mirror.directory(for: "n1", alive: ["n1", "n2", "n3"])
        #expect(early.owners == [Self.code("AAAAAA"): "n2", Self.code("CCCCCC"): "n3", Self.code("DDDDDD"): "n3"], "not a released lease")
        #expect(early.publicRooms.map(\.code) == [Self.code("AAAAAA")])
        #expect(early.allRooms.map(\.summary.code) == [Self.code("AAAAAA"), Self.code("CCCCCC")])
        #expect(!mirror.mayHaveOrphans(alive: ["n1", "n2", "n3"]), "EEEEEE is released, but has no room with players")
        let later = mirror.directory(for: "n1", alive: ["n1", "n2"])
        #expect(mirror.mayHaveOrphans(alive: ["n1", "n2"]), "n3's rooms, once it stops stamping its heartbeat")
        #expect(later.owners[Self.code("CCCCCC")] == nil, "the leases of a node that stopped stamping its heartbeat are not held")
        #expect(later.allRooms.map(\.summary.code) == [Self.code("AAAAAA")])
    }
}
