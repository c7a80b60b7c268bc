import DrawClient
import Testing

@Suite struct InMemoryTransportTests {
    @Test func aPairDeliversBothWaysInOrderAndClosesBothEnds() async throws {
        let (client, server) = InMemoryConnection.pair()
        try client.send(.text("one"))
        try client.send(.binary([1, 2, 3]))
        try server.send(.text("back"))
        server.close(.serviceRestart)
        #expect(throws: TransportError.closed) { try client.send(.text("late")) }
        var received: [TransportEvent] = []
        for await event in server.events { received.append(event) }
        #expect(received == [.frame(.text("one")), .frame(.binary([1, 2, 3])), .closed(.serviceRestart)])
        received = []
        for await event in client.events { received.append(event) }
        #expect(received == [.frame(.text("back")), .closed(.serviceRestart)])
    }

    /// A fake server on the in-memory transport: the client says hello, is welcomed, is cut
    /// off with 1012, waits its backoff on virtual time, and comes back with its token.
    @Test func theClientReconnectsAfterItsBackoffOnVirtualTimeAndResumesWithItsToken() async throws {
        let (accepted, acceptedSink) = AsyncStream.makeStream(of: InMemoryConnection.self)
        let transport = InMemoryTransport { server in acceptedSink.yield(server) }
        let time = VirtualClock()
        var configuration = DrawClient.Configuration()
        configuration.reconnect.initialDelay = .seconds(2)
        configuration.reconnect.jitter = 0
        let client = DrawClient(transport: transport, name: "Ada", configuration: configuration, clock: time.clock)
        let inbox = Inbox(client)
        var servers = accepted.makeAsyncIterator()

        await client.start()
        guard let first = await servers.next() else { throw InboxTimeout() }
        var frames = first.events.makeAsyncIterator()
        #expect(await frames.next() == .frame(.text(#"{"t":"hello","name":"Ada"}"#)))
        try first.send(.text(#"{"t":"welcome","playerId":"p1","token":"secret","resumed":false,"name":"Ada"}"#))
        let token = try await inbox.next { event -> String? in
            if case .message(.welcome(_, let token, _, _, _), _) = event { token } else { nil }
        }
        #expect(token == "secret")
        try await client.send(.chat("hi"))
        #expect(await frames.next() == .frame(.text(#"{"t":"chat","text":"hi"}"#)))

        first.close(.serviceRestart)
        let retry = try await inbox.next { event -> Duration?? in
            if case .disconnected(.serviceRestart, let retryIn) = event { retryIn } else { nil }
        }
        #expect(retry == .seconds(2))
        await #expect(throws: DrawClientError.notConnected) { try await client.send(.chat("lost")) }
        // Not a moment before the backoff is over.
        try await waitUntil { time.sleeping == 1 }
        time.advance(by: .milliseconds(1999))
        #expect(time.sleeping == 1)
        time.advance(by: .milliseconds(1))
        #expect(try await inbox.next { event in if case .connecting(let attempt) = event { attempt } else { nil } } == 2)
        guard let second = await servers.next() else { throw InboxTimeout() }
        var resumed = second.events.makeAsyncIterator()
        #expect(await resumed.next() == .frame(.text(#"{"t":"hello","name":"Ada","token":"secret"}"#)))
        try second.send(.text(#"{"t":"welcome","playerId":"p1","token":"secret","resumed":true,"name":"Ada"}"#))
        _ = try await inbox.message("welcome")
        #expect(await client.isReady)

        await client.stop()
        #expect(await resumed.next() == .closed(.normalClosure))
        _ = try await inbox.next { event in if case .stopped(.requested) = event { true } else { nil } }
    }
}

/// Checks `condition` every 10 ms until it holds, for at most `seconds`.
func waitUntil(seconds: Double = 10, _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(10))
    }
    Issue.record("condition did not hold within \(seconds) s")
    throw InboxTimeout()
}
