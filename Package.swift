// swift-tools-version: 6.1
import PackageDescription

/// Release builds of the installed binaries link the Swift runtime in (only what they use is loaded,
/// and nothing needs resolving against shared libraries at start-up) with lld, which packs the
/// remaining relative relocations (RELR, glibc ≥ 2.36): the idle daemon stays under 12 MB resident
/// (scripts/profiling/measure-rss, docs/performance.md "Memory: the idle daemon"). The last three are
/// FoundationEssentials' own static dependencies (its JSONDecoder reads protocol requests), which
/// only `--static-swift-stdlib` would otherwise name.
let leanRelease: [LinkerSetting] = [
    .unsafeFlags(["-static-stdlib", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                  "-Xlinker", "-l_FoundationCollections", "-Xlinker", "-l_FoundationCShims",
                  "-Xlinker", "-lswiftSynchronization"],
                 .when(configuration: .release)),
]

/// gesturectl-view links FlyingFox, whose proxy handler imports FoundationNetworking: its URLSession
/// shim is static, libcurl (Debian's libcurl3-gnutls, found by dpkg-shlibdeps) stays shared.
let viewRelease: [LinkerSetting] = leanRelease + [
    .unsafeFlags(["-Xlinker", "-lFoundationNetworking", "-Xlinker", "-l_CFURLSessionInterface", "-Xlinker", "-lFoundation", "-Xlinker", "-lFoundationInternationalization", "-Xlinker", "-l_FoundationICU", "-Xlinker", "-lFoundationEssentials", "-Xlinker", "-lCoreFoundation", "-Xlinker", "-lBlocksRuntime", "-Xlinker", "-lswiftDispatch", "-Xlinker", "-ldispatch", "-Xlinker", "-l:libcurl-gnutls.so.4", "-Xlinker", "-lstdc++"],
                 .when(configuration: .release)),
]

/// The daemon's own modules hold their state in one loop thread's classes (the daemon, the client
/// hub, the devices it reads): release builds leave out the run-time exclusivity checks on those properties, which cost a
/// thread-local lookup on every access of the per-frame path (docs/performance.md, "CPU per event
/// against libinput").
/// Debug builds, which the tests run, keep them; the compile-time checks stay in both.
let loopThreadRelease: [SwiftSetting] = [
    .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)),
]

let package = Package(
    name: "gestured",
    products: [
        .executable(name: "gestured", targets: ["gestured"]),
        .executable(name: "gesturectl", targets: ["gesturectl"]),
        .executable(name: "gesturectl-view", targets: ["gesturectl-view"]),
        .executable(name: "gestured-bench", targets: ["gestured-bench"]),
        .library(name: "GestureCore", targets: ["GestureCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.1.0"),
        // HTTP and WebSocket for `gesturectl view` only (GestureView); the daemon never links it.
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    ],
    targets: [
        // C libraries, seen only by GestureDevices.
        .systemLibrary(name: "CLibevdev", pkgConfig: "libevdev", providers: [.apt(["libevdev-dev"])]),
        .systemLibrary(name: "CLibudev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        // libyaml's parser, seen only by GestureYAML.
        .systemLibrary(name: "CLibyaml", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        // libxcb (core X11 requests) and its RandR extension (pkg-config xcb-randr, which requires xcb),
        // seen only by GestureDesktop's X11 reader.
        .systemLibrary(name: "CLibxcb", pkgConfig: "xcb-randr", providers: [.apt(["libxcb1-dev", "libxcb-randr0-dev"])]),
        // libdbus-1 (the session bus: GNOME Shell's extension, Mutter's DisplayConfig, KWin's
        // scripting), seen only by GestureDesktop: the daemon itself stays off D-Bus.
        .systemLibrary(name: "CLibdbus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        // Linux headers the Glibc module lacks (epoll, signalfd, timerfd, accept4), for GesturePosix.
        .systemLibrary(name: "CGestureSys"),

        // The one POSIX layer: errno and descriptor types, the EINTR retry, the syscall seam tests
        // script, epoll / timerfd / signalfd / Unix sockets. Sees only Glibc and CGestureSys.
        .target(name: "GesturePosix", dependencies: ["CGestureSys"], swiftSettings: loopThreadRelease),

        // Pure core: kernel codes, touch model, slot tracking, regions, recognizers, engine. No C, no clock.
        .target(name: "GestureCore"),
        // Recording parsers (evemu, libinput record YAML) producing RawEvent streams.
        // YAML documents as node trees with positions, composed from libyaml's events (no Foundation).
        .target(name: "GestureYAML", dependencies: ["CLibyaml"]),
        .target(name: "GestureRecording", dependencies: ["GestureCore", "GestureYAML", "GesturePosix"]),
        // `gestured tune`: what a labelled sample measures, the threshold fit, the other-hands
        // transform. Pure: whether a sample is right is asked of the caller (a replay).
        .target(name: "GestureTuning", dependencies: ["GestureCore"]),
        // YAML configuration -> EngineConfiguration, with file:line:column errors.
        .target(name: "GestureConfig", dependencies: ["GestureCore", "GestureYAML"]),
        // The socket protocol's types and the blocking clients (requests, `gesturectl record`): all
        // `gesturectl` links besides the core, GesturePosix and GestureReport (no libevdev, no libudev,
        // no libyaml, no ICU).
        .target(name: "GestureProtocol", dependencies: ["GestureCore", "GesturePosix", "CGestureSys"],
                plugins: ["BuildInfo"]),
        // Writes the package version (debian/changelog) and the git commit into GestureProtocol
        // before every build (scripts/build-info; docs/packaging.md, "The version").
        .plugin(name: "BuildInfo", capability: .buildTool()),
        // For people: the text format, golden-file comparison and the SVG picture of a replay.
        .target(name: "GestureReport", dependencies: ["GestureCore", "GesturePosix"]),
        // The only importer of libevdev and libudev: input devices and the hot-plug monitor.
        .target(name: "GestureDevices", dependencies: ["GestureCore", "GesturePosix", "CLibevdev", "CLibudev"],
                swiftSettings: loopThreadRelease),
        // `gesturectl desktop`: the session bridge. Reads the compositor's outputs and windows (sway /
        // i3 IPC, Hyprland and niri sockets in pure Swift; X11 through libxcb and GNOME / KDE through
        // libdbus-1, their only importer) and
        // sends them to the daemon as `desktop` snapshots.
        .target(name: "GestureDesktop", dependencies: ["GestureCore", "GesturePosix", "GestureProtocol", "CLibxcb", "CLibdbus"]),
        // `gesturectl view` (docs/view.md): a loopback web server, token in the URL, that streams what
        // a client of the socket sees to the page in share/view. Linked by gesturectl-view only (FlyingFox
        // brings Foundation and ICU; gesturectl runs gesturectl-view for `gesturectl view`).
        .target(name: "GestureView", dependencies: [
            "GestureProtocol", "GesturePosix", "GestureCore", "GestureReport", "GestureConfig", "GestureYAML",
            .product(name: "FlyingFox", package: "FlyingFox"),
        ]),
        // `gesturectl view`'s options, once: gesturectl parses them and runs gesturectl-view, which
        // parses the same set.
        .target(name: "GestureViewOptions", dependencies: [
            "GestureProtocol", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // Daemon runtime: event loop, socket protocol, bindings, replay driver, systemd notify.
        .target(name: "GestureDaemon", dependencies: [
            "GestureCore", "GestureRecording", "GestureConfig", "GestureDevices", "GesturePosix",
            "GestureProtocol", "GestureReport", "GestureTuning", "GestureYAML", "CGestureSys",
            .product(name: "Logging", package: "swift-log"),
        ], swiftSettings: loopThreadRelease),
        .executableTarget(name: "gestured", dependencies: [
            "GestureDaemon", "GestureProtocol", "GesturePosix", "GestureReport", "GestureTuning",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], linkerSettings: leanRelease),
        .executableTarget(name: "gesturectl", dependencies: [
            "GestureProtocol", "GestureReport", "GesturePosix", "GestureCore", "GestureDesktop", "GestureViewOptions",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], linkerSettings: leanRelease),
        // `gesturectl view`'s program: gesturectl runs it, so that only it links the web server and
        // Foundation (docs/view.md); the package puts it in /usr/libexec/gestured.
        .executableTarget(name: "gesturectl-view", dependencies: [
            "GestureView", "GestureViewOptions", "GestureProtocol", "GesturePosix",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], linkerSettings: viewRelease),
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
        .testTarget(name: "GestureTuningTests", dependencies: ["GestureTuning", "GestureCore", "GestureRecording"]),
        .testTarget(name: "GesturePosixTests", dependencies: ["GesturePosix"]),
        .testTarget(name: "GestureDevicesTests", dependencies: ["GestureDevices", "GesturePosix", "GestureCore"]),
        .testTarget(name: "GestureReportTests", dependencies: ["GestureReport", "GestureCore", "GestureConfig"]),
        .testTarget(name: "GestureDesktopTests", dependencies: ["GestureDesktop", "GesturePosix", "GestureProtocol", "GestureCore", "CLibdbus"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "GestureViewTests", dependencies: ["GestureView", "GestureProtocol", "GesturePosix"]),
        .testTarget(name: "GestureDaemonTests", dependencies: ["GestureDaemon", "GestureProtocol", "GesturePosix", "GestureCore",
                                                            "GestureRecording", "GestureConfig", "GestureReport",
                                                            "GestureTuning",
                                                            .product(name: "Logging", package: "swift-log")],
                    exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
