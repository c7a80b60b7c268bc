// swift-tools-version:6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "drawserver",
    // The server (the `drawserver` executable, target DrawServer) runs on Linux only: it
    // uses epoll (CEpoll) and Linux system calls directly. The libraries Canvas, DrawProtocol, Rooms,
    // Bots and DrawClient are portable, so a native app on Apple platforms can use them;
    // this minimum is for them.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "drawserver", targets: ["DrawServerCLI"]),
        .library(name: "Canvas", targets: ["Canvas"]),
        .library(name: "DrawProtocol", targets: ["DrawProtocol"]),
        .library(name: "Rooms", targets: ["Rooms"]),
        .library(name: "DrawClient", targets: ["DrawClient"]),
        .executable(name: "drawclient-example", targets: ["DrawClientExample"]),
        .library(name: "Bots", targets: ["Bots"]),
        // The HTTP edge's request-head guard; a product so the fuzz package can drive it.
        .library(name: "HTTPEdge", targets: ["HTTPEdge"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.2.0"),
        // Already in the graph (through Hummingbird's WebSocket client); SHA-256 of tokens.
        .package(url: "https://github.com/apple/swift-crypto.git", "3.9.0"..<"5.0.0"),
        // Already in the graph through Hummingbird; named for the WebSocket upgrade and
        // protocol handlers the server runs on its event loops, and the tests' EmbeddedChannel.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        // The PostgreSQL store (`serve --store postgres://...`): many nodes on one database.
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        // Already in the graph through postgres-nio: TLS to PostgreSQL (`sslmode` in --store).
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.36.0"),
        // Requests from one node to another (moderator routes forwarded to the room's node).
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    ],
    targets: [
        // zlib is a system library on Linux (zlib1g-dev) and in every Apple SDK; the module
        // map's `link "z"` is what links it on both, so nothing more is needed on macOS.
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // sys/epoll.h, which Glibc's module map leaves out: the replay client's receiver.
        .systemLibrary(name: "CEpoll", path: "Sources/CEpoll"),
        .target(
            name: "Canvas",
            dependencies: ["CZlib"],
            swiftSettings: swiftSettings
        ),
        // The wire contract's text messages: the model, its JSON codec both ways and the
        // close codes, one copy for the server, the bots, the client library and the load tester.
        .target(
            name: "DrawProtocol",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Rooms",
            dependencies: ["Canvas", "DrawProtocol", .product(name: "Crypto", package: "swift-crypto")],
            resources: [.process("Resources")],
            swiftSettings: swiftSettings
        ),
        // Bot players as pure state machines over the protocol (docs/GAME.md, "Bots").
        .target(
            name: "Bots",
            dependencies: ["Canvas", "DrawProtocol", "Rooms"],
            resources: [.process("Resources")],
            swiftSettings: swiftSettings
        ),
        // RFC 6455 framing both ends share: the server's receiver and the replay client.
        .target(
            name: "WebSocketFrames",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // Bad HTTP request heads answered at once (431, 400, 505, 408; TLS on the plain port
        // closed): a state machine and the channel handlers that run it.
        .target(
            name: "HTTPEdge",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // A process's CPU time and allowed cores, read from the kernel (Linux): the server
        // sizes its event loops by them, the benchmarks report CPU per operation.
        .target(
            name: "ProcessStats",
            swiftSettings: swiftSettings
        ),
        // `drawserver replay` and the core benchmarks, on the cores' public API and plain
        // SwiftNIO: nothing of the server's insides (README, "Load testing").
        .target(
            name: "LoadTester",
            dependencies: [
                "CEpoll",
                "ProcessStats",
                "Canvas",
                "DrawProtocol",
                "Rooms",
                "WebSocketFrames",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            swiftSettings: swiftSettings
        ),
        // The server: the I/O shell around the cores and its commands (serve, render, export,
        // backup, bots). It does not depend on the load tester.
        .target(
            name: "DrawServer",
            dependencies: [
                "Canvas",
                "DrawProtocol",
                "Rooms",
                "Bots",
                "DrawClient",
                "ProcessStats",
                "WebSocketFrames",
                "HTTPEdge",
                "CEpoll",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: swiftSettings
        ),
        // The `drawserver` executable: the server's commands, and beside them the load
        // tester's (`replay`, `bench-*`) and `bench-relay`, whose harness reaches into the
        // shell through its `package` API.
        .executableTarget(
            name: "DrawServerCLI",
            dependencies: [
                "DrawServer",
                "DrawProtocol",
                "LoadTester",
                "ProcessStats",
                "Rooms",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // A client library for native apps and bots: typed protocol, WebSocket and
        // in-memory transports, resume and reconnection. Canvas only, no server code.
        .target(
            name: "DrawClient",
            dependencies: [
                "Canvas",
                "DrawProtocol",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "DrawClientExample",
            dependencies: [
                "DrawClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // Test helpers both server and client tests use (a real server child process).
        .target(
            name: "ServerTestSupport",
            path: "Tests/ServerTestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DrawClientTests",
            dependencies: ["DrawClient", "DrawProtocol", "Canvas", "ServerTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DrawProtocolTests",
            dependencies: ["DrawProtocol"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CanvasTests",
            dependencies: ["Canvas", "CZlib"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RoomsTests",
            dependencies: ["Rooms", "DrawProtocol", "Canvas"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "BotsTests",
            dependencies: ["Bots", "DrawProtocol", "Rooms", "Canvas"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DrawServerTests",
            dependencies: [
                "DrawServer",
                "DrawServerCLI",
                "ProcessStats",
                "HTTPEdge",
                "LoadTester",
                "WebSocketFrames",
                "Canvas",
                "DrawProtocol",
                "Rooms",
                "Bots",
                "CZlib",
                "ServerTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSCompression", package: "hummingbird-websocket"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
