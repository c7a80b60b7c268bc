// swift-tools-version:6.2
// libFuzzer targets for drawserver's decoders, kept out of the main package. Build (see
// scripts/fuzz.sh and docs/RELIABILITY-conformance.md):
//   swift build -c release -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library --scratch-path .build-fuzz
// libFuzzer supplies `main`, so these executables only link with -sanitize=fuzzer.
import PackageDescription

let package = Package(
    name: "drawserver-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "drawserver", path: ".."),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "FuzzFrames",
            dependencies: [.product(name: "Canvas", package: "drawserver")]
        ),
        .executableTarget(
            name: "FuzzMessages",
            dependencies: [.product(name: "DrawProtocol", package: "drawserver")]
        ),
        .executableTarget(
            name: "FuzzHTTPHead",
            dependencies: [
                .product(name: "HTTPEdge", package: "drawserver"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ]
)
