// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "gestured",
    products: [
        .executable(name: "gestured", targets: ["gestured"]),
        .executable(name: "gesturectl", targets: ["gesturectl"]),
        .executable(name: "gestured-bench", targets: ["gestured-bench"]),
        .library(name: "GestureCore", targets: ["GestureCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.1.0"),
    ],
    targets: [
        // C libraries, seen only by GestureDevices.
        .systemLibrary(name: "CLibevdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CLibudev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        // Linux headers Glibc's module lacks (epoll, signalfd, timerfd), for the daemon's event loop.
        .systemLibrary(name: "CGestureSys"),

        // Pure core: kernel codes, touch model, slot tracking, regions, recognizers, engine. No C, no clock.
        .target(name: "GestureCore"),
        // Recording parsers (evemu, libinput record YAML) producing RawEvent streams.
        .target(name: "GestureRecording", dependencies: ["GestureCore", "Yams"]),
        // YAML configuration -> EngineConfiguration, with file:line:column errors.
        .target(name: "GestureConfig", dependencies: ["GestureCore", "Yams"]),
        // The only layer that imports C: libevdev devices and the libudev monitor.
        .target(name: "GestureDevices", dependencies: ["GestureCore", "CLibevdev", "CLibudev"]),
        // For people: the text format, golden-file comparison and the SVG picture of a replay.
        .target(name: "GestureReport", dependencies: ["GestureCore", "GestureConfig"]),
        // Daemon runtime: event loop, socket protocol, bindings, replay driver, systemd notify.
        .target(name: "GestureDaemon", dependencies: [
            "GestureCore", "GestureRecording", "GestureConfig", "GestureDevices", "GestureReport", "CGestureSys",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "gestured", dependencies: [
            "GestureDaemon", "GestureReport", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "gesturectl", dependencies: [
            "GestureDaemon", "GestureReport", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // Benchmarks (issue 6): throughput, per-frame latency, allocations. Not a test.
        .target(name: "CAllocationCounter"),
        .executableTarget(name: "gestured-bench", dependencies: [
            "GestureCore", "GestureRecording", "GestureConfig", "CAllocationCounter",
            .product(name: "Histogram", package: "hdrhistogram-swift"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),

        .testTarget(name: "GestureCoreTests", dependencies: ["GestureCore"]),
        .testTarget(name: "GestureRecordingTests", dependencies: ["GestureRecording", "GestureCore", "GestureConfig"]),
        .testTarget(name: "GestureConfigTests", dependencies: ["GestureConfig", "GestureCore"]),
        .testTarget(name: "GestureReportTests", dependencies: ["GestureReport", "GestureCore", "GestureConfig"]),
        .testTarget(name: "GestureDaemonTests", dependencies: ["GestureDaemon", "GestureCore", "GestureRecording", "GestureConfig",
                                                            .product(name: "Logging", package: "swift-log")],
                    exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
