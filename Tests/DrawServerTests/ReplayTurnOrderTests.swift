import Canvas
import NIOCore
import NIOEmbedded
import Testing
@testable import DrawServer
@testable import LoadTester

/// `drawserver replay`'s clients each read their own socket, so messages sent to a room in
/// one order may be read in another.
@Suite("Replay: turn hand-over")
struct ReplayTurnOrderTests {
    /// A room of three replay clients (never connected: what they send is dropped).
    static func room(on eventLoop: EmbeddedEventLoop) throws -> ReplayRoom {
        let url = try #require(ReplayURL("ws://127.0.0.1:9/ws"))
        let log = ReplayLog(name: "seed3", log: SampleDrawing.make(seed: 3), speed: 1)
        let plan = ReplayPlan(url: url, players: 3, logs: [log], drawTimeSec: 80, rounds: 3)
        let context = LoopContext(eventLoop: eventLoop, url: url, concurrency: 1)
        let room = ReplayRoom(index: 0, plan: plan, context: context, clients: 3)
        for client in room.clients {
            tell(client, #"{"t":"welcome","playerId":"p\#(client.seat)","token":"t","resumed":false,"name":"n"}"#)
        }
        return room
    }

    static func tell(_ client: ReplayClient, _ json: String) {
        client.received(text: ByteBuffer(string: json), on: client.connection)
    }

    static func turn(drawer: Int, for client: ReplayClient) -> String {
        let word = client.seat == drawer ? #","word":"cat""# : ""
        return #"{"t":"turn","drawer":"p\#(drawer)","round":1,"mask":"_ _ _","remainingMs":240000\#(word)}"#
    }

    static let turnEnd = #"{"t":"turnEnd","word":"cat","reason":"allGuessed","scores":{}}"#

    /// The next drawer reads its `turn` before the last drawer reads its `turnEnd` (a
    /// server that starts the next turn at once, as the relays in benchmarks/ do). The last
    /// drawer's `turnEnd` used to stop the new pass, and the room never drew again.
    @Test func theLastDrawersTurnEndDoesNotStopTheNextDrawersPass() throws {
        let eventLoop = EmbeddedEventLoop()
        let room = try Self.room(on: eventLoop)
        let (first, second, third) = (room.clients[0], room.clients[1], room.clients[2])
        for client in room.clients { Self.tell(client, Self.turn(drawer: 0, for: client)) }
        #expect(room.currentDrawer === first)

        for client in [second, third] {
            Self.tell(client, Self.turnEnd)
            Self.tell(client, Self.turn(drawer: 1, for: client))
        }
        #expect(room.currentDrawer === second)
        Self.tell(first, Self.turnEnd)
        Self.tell(first, Self.turn(drawer: 1, for: first))
        #expect(room.currentDrawer === second)
        #expect(room.context.counters.turnsEnded["allGuessed"] == 1)
    }

    /// In order, the drawer's own `turnEnd` still ends its pass.
    @Test func aDrawersTurnEndStopsItsOwnPass() throws {
        let eventLoop = EmbeddedEventLoop()
        let room = try Self.room(on: eventLoop)
        for client in room.clients { Self.tell(client, Self.turn(drawer: 2, for: client)) }
        #expect(room.currentDrawer === room.clients[2])
        for client in room.clients { Self.tell(client, Self.turnEnd) }
        #expect(room.currentDrawer == nil)
    }
}
