import DrawProtocol
import Rooms
import Testing
@testable import DrawServer

/// Messages between nodes (`ClusterRouter`) on virtual time: no database, no clock.
@Suite("Cluster router (state machine)")
struct ClusterRouterTests {
    func at(_ ms: Int64) -> Timestamp { Timestamp(milliseconds: ms) }
    let ada = PlayerID("ada"), bob = PlayerID("bob")

    @Test func anInvitationIsDeliveredByTheNodeHoldingTheInvitee() {
        var a = ClusterRouter(nodeID: "a", advertise: "http://a")
        var b = ClusterRouter(nodeID: "b", advertise: "http://b")
        var c = ClusterRouter(nodeID: "c", advertise: "http://c")
        let sent = a.invite(bob, from: ada, text: #"{"t":"invited"}"#, now: at(0))
        guard case .publish(let message) = sent.first, sent.count == 1 else { Issue.record("one NOTIFY: \(sent)"); return }
        #expect(a.heard(message, now: at(1), isConnectedHere: { _ in true }).isEmpty, "the sender ignores its own echo")
        #expect(c.heard(message, now: at(1), isConnectedHere: { _ in false }).isEmpty, "a node without the invitee stays quiet")
        let delivered = b.heard(message, now: at(1), isConnectedHere: { $0 == self.bob })
        guard case .invite(let id, _, _, _) = message else { Issue.record("not an invite"); return }
        #expect(delivered == [.deliver(text: #"{"t":"invited"}"#, to: bob), .publish(.delivered(id: id, origin: "a"))])
        #expect(a.heard(.delivered(id: id, origin: "a"), now: at(5), isConnectedHere: { _ in false }).isEmpty)
        #expect(a.pendingInvites == 0)
        #expect(!a.tick(now: at(5_000)).contains(.notOnline(sender: ada)), "a delivered invitation is not refused later")
    }

    @Test func anUndeliveredInvitationIsRefusedAtItsDeadline() {
        var a = ClusterRouter(nodeID: "a", advertise: "http://a")
        _ = a.tick(now: at(0))
        _ = a.invite(bob, from: ada, text: "{}", now: at(0))
        #expect(!a.tick(now: at(999)).contains(.notOnline(sender: ada)))
        #expect(a.tick(now: at(1_000)).contains(.notOnline(sender: ada)))
        #expect(a.pendingInvites == 0)
        #expect(!a.tick(now: at(1_100)).contains(.notOnline(sender: ada)), "refused once")
    }

    @Test func nodesLearnEachOthersAddressesAndForgetSilentOnes() {
        var a = ClusterRouter(nodeID: "a", advertise: "http://a")
        #expect(a.tick(now: at(0)) == [.publish(.node(id: "a", url: "http://a"))])
        #expect(a.tick(now: at(1_000)).isEmpty)
        #expect(a.tick(now: at(2_000)) == [.publish(.node(id: "a", url: "http://a"))])
        // A new node is answered at once, an old one is not.
        #expect(a.heard(.node(id: "b", url: "http://b"), now: at(2_100), isConnectedHere: { _ in false }) == [.publish(.node(id: "a", url: "http://a"))])
        #expect(a.heard(.node(id: "b", url: "http://b"), now: at(2_200), isConnectedHere: { _ in false }).isEmpty)
        #expect(a.url(of: "b") == "http://b")
        #expect(a.url(of: "a") == nil)
        _ = a.tick(now: at(12_199))
        #expect(a.url(of: "b") == "http://b")
        _ = a.tick(now: at(12_200))
        #expect(a.url(of: "b") == nil, "not heard from for 10 s")
    }

    @Test func aMovedRoomsPlayersAreSentToItsNewNode() throws {
        var a = ClusterRouter(nodeID: "a", advertise: "http://a")
        let room = try #require(RoomCode(parsing: "ABCDEF"))
        let actions = a.heard(.moved(room: "ABCDEF", node: "b", players: ["ada", "bob"]), now: at(0), isConnectedHere: { $0 == self.ada })
        #expect(actions == [.redirect(players: [ada], room: room, node: "b")])
        #expect(a.movedRoom(of: bob, now: at(29_999))?.node == "b", "bob, who reconnects here later, is sent there too")
        #expect(a.movedRoom(of: bob, now: at(30_000)) == nil)
        #expect(a.heard(.moved(room: "ABCDEF", node: "a", players: ["bob"]), now: at(0), isConnectedHere: { _ in true }).isEmpty)
        #expect(a.heard(.released(node: "b", rooms: ["ABCDEF"]), now: at(0), isConnectedHere: { _ in false }) == [.scanForOrphans])
    }

    @Test func aRoomCreationIsSpentOnEveryOtherNode() {
        let a = ClusterRouter(nodeID: "a", advertise: "http://a")
        var b = ClusterRouter(nodeID: "b", advertise: "http://b")
        var echo = a
        let sent = a.roomCreated(by: "203.0.113.7")
        #expect(sent == [.publish(.roomCreation(node: "a", address: "203.0.113.7"))])
        #expect(b.heard(.roomCreation(node: "a", address: "203.0.113.7"), now: at(0), isConnectedHere: { _ in false })
            == [.spendRoomCreation(address: "203.0.113.7")])
        #expect(echo.heard(.roomCreation(node: "a", address: "203.0.113.7"), now: at(0), isConnectedHere: { _ in false }).isEmpty,
                "the node that allowed it spent it already")
    }

    /// A node that drains says so and stops announcing itself; the others hold its rooms
    /// out of the directory until it announces itself again (restarted).
    @Test func aDrainingNodeIsHeldOutUntilItAnnouncesItselfAgain() {
        var a = ClusterRouter(nodeID: "a", advertise: "http://a")
        var b = ClusterRouter(nodeID: "b", advertise: "http://b")
        _ = a.tick(now: at(0))
        #expect(b.heard(.node(id: "a", url: "http://a"), now: at(1), isConnectedHere: { _ in false }) == [.publish(.node(id: "b", url: "http://b"))])
        #expect(a.startDraining() == [.publish(.draining(node: "a"))])
        #expect(a.tick(now: at(10_000)).isEmpty, "a draining node no longer announces itself")
        #expect(b.heard(.draining(node: "a"), now: at(2), isConnectedHere: { _ in false }) == [.nodeDraining("a", true)])
        #expect(b.heard(.draining(node: "a"), now: at(3), isConnectedHere: { _ in false }).isEmpty, "said once")
        #expect(b.drainingPeers == ["a"])
        let room = RoomCode(parsing: "CCCCCC")!
        _ = b.heard(.moved(room: "CCCCCC", node: "a", players: ["p"]), now: at(2), isConnectedHere: { _ in false })
        #expect(b.movedRoom(of: PlayerID("p"), now: at(3))?.room == room)
        var c = b
        _ = c.heard(.node(id: "a", url: "http://a"), now: at(3), isConnectedHere: { _ in false })
        _ = c.heard(.draining(node: "a"), now: at(3), isConnectedHere: { _ in false })
        #expect(c.movedRoom(of: PlayerID("p"), now: at(4)) == nil, "a room moved to a node that drains is moving again")
        // The restarted process announces itself: its rooms may be listed again.
        #expect(b.heard(.node(id: "a", url: "http://a"), now: at(4), isConnectedHere: { _ in false }) == [.nodeDraining("a", false)])
        #expect(b.drainingPeers.isEmpty)
        #expect(a.heard(.draining(node: "a"), now: at(5), isConnectedHere: { _ in false }).isEmpty, "its own echo")
    }

    @Test func theDirectoryLeavesOutTheRoomsOfDrainingNodes() throws {
        let remote = RemoteRooms()
        let (one, two) = (try #require(RoomCode(parsing: "AAAAAA")), try #require(RoomCode(parsing: "BBBBBB")))
        var directory = RemoteRooms.Directory()
        directory.owners = [one: "a", two: "b"]
        remote.replace(directory)
        remote.setDraining("a", true)
        #expect(remote.owner(of: one) == nil && remote.owner(of: two) == "b")
        remote.replace(directory)
        #expect(remote.owner(of: one) == nil, "a refresh keeps a draining node's rooms out")
        remote.setDraining("a", false)
        remote.replace(directory)
        #expect(remote.owner(of: one) == "a")
    }

    @Test func payloadsRoundTripAndGarbageIsIgnored() {
        let messages: [ClusterMessage] = [
            .node(id: "n1", url: "http://127.0.0.1:1"), .invite(id: "n1/1", origin: "n1", target: "p", text: #"{"t":"invited","x":"\""}"#),
            .delivered(id: "n1/1", origin: "n1"), .released(node: "n1", rooms: ["ABCDEF"]), .moved(room: "ABCDEF", node: "n2", players: ["p"]),
            .roomCreation(node: "n1", address: "2001:db8::1"), .draining(node: "n3"),
        ]
        for message in messages { #expect(ClusterMessage(payload: message.payload) == message) }
        #expect(ClusterMessage(payload: "not json") == nil)
        #expect(ClusterMessage(payload: #"{"k":"future"}"#) == nil)
    }
}

/// `X-Forwarded-For` believed only from trusted proxies.
@Suite("Forwarded client addresses")
struct ForwardedForTests {
    let forwarded = ForwardedFor(trustedProxies: ["127.0.0.1", "10.0.0.2"])

    @Test func theHeaderCountsOnlyFromATrustedProxy() {
        #expect(forwarded.clientIP(peer: "127.0.0.1", headerValues: ["203.0.113.7"]) == "203.0.113.7")
        #expect(forwarded.clientIP(peer: "198.51.100.1", headerValues: ["203.0.113.7"]) == "198.51.100.1", "a client cannot pick its own address")
        #expect(forwarded.clientIP(peer: "127.0.0.1", headerValues: []) == "127.0.0.1")
    }

    @Test func theRightmostUntrustedEntryIsTheClient() {
        // The client wrote a fake first entry; the proxies appended what they saw.
        #expect(forwarded.clientIP(peer: "127.0.0.1", headerValues: ["1.2.3.4, 203.0.113.7, 10.0.0.2"]) == "203.0.113.7")
        #expect(forwarded.clientIP(peer: "127.0.0.1", headerValues: ["1.2.3.4", "2001:db8::1"]) == "2001:db8::1")
        #expect(forwarded.clientIP(peer: "127.0.0.1", headerValues: ["10.0.0.2"]) == "127.0.0.1", "only proxies: the peer")
    }

    @Test func garbageLeavesTheProxysAddress() {
        #expect(forwarded.clientIP(peer: "127.0.0.1", headerValues: ["evil.example"]) == "127.0.0.1")
        #expect(forwarded.clientIP(peer: "127.0.0.1", headerValues: ["203.0.113.7, unknown"]) == "127.0.0.1")
        #expect(!ForwardedFor.isIPAddress("") && !ForwardedFor.isIPAddress("1.2.3") && ForwardedFor.isIPAddress("::1"))
    }
}
