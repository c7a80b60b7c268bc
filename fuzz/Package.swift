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
    ],
    targets: [
        .executableTarget(
            name: "FuzzFrames",
            dependencies: [.product(name: "Canvas", package: "drawserver")]
        ),
        .executableTarget(
            name: "FuzzMessages",
            dependencies: [.product(name: "Rooms", package: "drawserver")]
        ),
    ]
)
