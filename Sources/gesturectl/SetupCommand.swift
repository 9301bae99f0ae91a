#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import GestureDesktop
import GesturePosix



extension GestureCtl {
    /// `gesturectl setup` (docs/setup.md): writes a config whose bindings work on this desktop.
    struct Setup: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a config whose gestures work on this desktop: workspaces, overview, zoom, edge swipes.",
            discussion: """
            Finds the desktop as `gesturectl desktop` does (GNOME and KDE Plasma by \
            $XDG_CURRENT_DESKTOP, else $SWAYSOCK, $I3SOCK, $HYPRLAND_INSTANCE_SIGNATURE, $NIRI_SOCKET, \
            $DISPLAY) and the touchpads and touchscreens in /proc/bus/input/devices, and writes a commented \
            config with that desktop's own commands and shortcuts to the file `gestured run` loads first \
            ($GESTURED_CONFIG, else ~/.config/gestured/gestured.yaml; as root /etc/gestured/gestured.yaml). \
            An existing file is kept as FILE.bak (FILE.bak.1, ... when that exists). \
            Then: gesturectl reload.
            """)

        @Option(name: .long, help: ArgumentHelp("The desktop to write for (default: this session's).", valueName: "name"))
        var desktop: DesktopBackend?

        @Option(name: .long, parsing: .upToNextOption, help: ArgumentHelp(
            "The kinds of device to write for: touchpad, touchscreen (default: those in /proc/bus/input/devices).",
            valueName: "kind"))
        var devices: [String] = []

        @Flag(name: .long, help: "Print the config to stdout; write nothing.")
        var print = false

        @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp(
            "The file to write (default: the one `gestured run` loads first).", valueName: "file"))
        var output: String?

        func validate() throws {
            for kind in devices.flatMap({ $0.split(separator: ",") }) where kind != "touchpad" && kind != "touchscreen" {
                throw ValidationError("--devices takes touchpad and touchscreen, got '\(kind)'")
            }
        }

        func run() throws {
            let environment = Desktop.environment()
            let chosen: (DesktopBackend, String)
            if let desktop {
                chosen = (desktop, "--desktop \(desktop.rawValue)")
            } else {
                switch DesktopSetup.detect(environment: environment) {
                case .success(let found): chosen = found
                case .failure(let failure): fail(failure.message)
                }
            }
            let kinds: InputDeviceKinds
            let devicesOrigin: String
            if devices.isEmpty {
                let list = "/proc/bus/input/devices"
                let text = (try? readWholeFile(list).get()).map { String(decoding: $0, as: UTF8.self) } ?? ""
                kinds = InputDeviceKinds.parse(procDevices: text)
                devicesOrigin = list
            } else {
                let named = Set(devices.flatMap { $0.split(separator: ",").map(String.init) })
                kinds = InputDeviceKinds(touchpad: named.contains("touchpad"), touchscreen: named.contains("touchscreen"))
                devicesOrigin = "--devices " + ["touchpad", "touchscreen"].filter(named.contains).joined(separator: ",")
            }
            let text = DesktopSetup.configuration(for: chosen.0, devices: kinds,
                                                  origin: DesktopSetup.Origin(desktop: chosen.1, devices: devicesOrigin))
            if print {
                Swift.print(text, terminator: "")
                return
            }
            guard let path = output ?? DesktopSetup.defaultPath(environment: environment, isRoot: getuid() == 0) else {
                fail("no file to write: $HOME is not set; give --output FILE")
            }
            Swift.print("gesturectl setup: \(chosen.0.rawValue) (from \(chosen.1)), \(kinds.phrase) (from \(devicesOrigin))")
            do {
                switch try SetupFile.write(text, to: path) {
                case .unchanged: Swift.print("\(path) already holds this config: nothing written")
                case .created: Swift.print("wrote \(path)")
                case .replaced(let backup): Swift.print("wrote \(path); the file that was there is now \(backup)")
                }
            } catch {
                fail("\(error)")
            }
            Swift.print("next: gesturectl reload (a running daemon picks the file up), or systemctl --user enable --now gestured")
        }
    }
}

/// Writing the config: never over a file without keeping it.
enum SetupFile {
    enum Outcome { case created, unchanged, replaced(backup: String) }

    struct Failure: Error, CustomStringConvertible { var description: String }

    static func write(_ text: String, to path: String) throws -> Outcome {
        try makeParent(of: path)
        var backup: String?
        if fileExists(path) {
            let old: [UInt8]
            switch readWholeFile(path) {
            case .success(let bytes): old = bytes
            case .failure(let error): throw Failure(description: "cannot read \(path) to keep it: \(error)")
            }
            if old == Array(text.utf8) { return .unchanged }
            // The first free FILE.bak, FILE.bak.1, ...: an earlier backup is never overwritten.
            var candidate = path + ".bak"
            var n = 0
            while fileExists(candidate) {
                n += 1
                candidate = path + ".bak.\(n)"
            }
            try writeNew(old, to: candidate)
            backup = candidate
        }
        let temporary = path + ".setup-tmp"
        unlink(temporary)
        try writeNew(Array(text.utf8), to: temporary)
        guard rename(temporary, path) == 0 else {
            let message = String(cString: strerror(errno))
            unlink(temporary)
            throw Failure(description: "cannot write \(path): \(message)")
        }
        return backup.map { .replaced(backup: $0) } ?? .created
    }

    /// Writes `bytes` to a file that must not exist yet.
    static func writeNew(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let message = String(cString: strerror(errno))
                unlink(path)
                throw Failure(description: "cannot write \(path): \(message)")
            }
            offset += n
        }
        guard fsync(fd) == 0 else { throw Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
    }

    /// Creates the folders above `path` that do not exist (`~/.config/gestured`).
    static func makeParent(of path: String) throws {
        var folder = ""
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        for (i, part) in parts.enumerated() {
            folder += (i == 0 ? "" : "/") + part
            guard !folder.isEmpty, !fileExists(folder) else { continue }
            if mkdir(folder, 0o755) != 0 && errno != EEXIST {
                throw Failure(description: "cannot create \(folder): \(String(cString: strerror(errno)))")
            }
        }
    }
}
