import Foundation
import Testing
import GestureProtocol

/// The one socket-path lookup (docs/daemon.md, "The socket path"): `gestured run` and
/// `gesturectl`, the real binaries, started with the same environment and no socket option, find
/// each other, as root and as another user; a daemon with no place of its own says what to give.
@Suite(.serialized) struct SocketLookupTests {
    /// A directory the test user and `nobody` can both use: `run` (the runtime dir, nobody's, 0700)
    /// and `config` (an empty config home, so no user config is read).
    final class Place {
        let dir = TempDir()
        var runtime: String { dir.file("run") }
        init(owner: uid_t) throws {
            chmod(dir.path, 0o755)
            try FileManager.default.createDirectory(atPath: dir.file("run"), withIntermediateDirectories: false)
            try FileManager.default.createDirectory(atPath: dir.file("config"), withIntermediateDirectories: false)
            chown(dir.file("run"), owner, gid_t(owner))
            chmod(dir.file("run"), 0o700)
        }
        /// `env -i` and the one environment both programs get.
        var environment: [String] {
            ["/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "XDG_RUNTIME_DIR=\(runtime)", "XDG_CONFIG_HOME=\(dir.file("config"))"]
        }
    }

    static let nobody: uid_t = 65534

    /// Starts `prefix + environment + gestured run --no-devices`; stderr into `log`.
    static func start(_ prefix: [String], _ place: Place, log: String) throws -> Process {
        let process = Process()
        let argv = prefix + place.environment + [Paths.binary("gestured"), "run", "--no-devices"]
        process.executableURL = URL(fileURLWithPath: argv[0])
        process.arguments = Array(argv.dropFirst())
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: log)
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        return process
    }

    static func stop(_ process: Process) {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        if !waitUntil(timeout: 10, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// `gesturectl status` with no option, through `prefix`, until it answers or the daemon dies.
    static func statusFinds(_ daemon: Process, _ prefix: [String], _ place: Place) throws -> RunResult {
        var result = RunResult(status: -1, stdout: "", stderr: "")
        let argv = prefix + place.environment + [Paths.binary("gesturectl"), "status"]
        _ = waitUntil(timeout: 20) {
            result = (try? runTool(argv[0], Array(argv.dropFirst()), timeout: 10)) ?? result
            return result.status == 0 || !daemon.isRunning
        }
        return result
    }

    @Test func asAUserBothFindTheSocketInTheRuntimeDirectory() throws {
        let place = try Place(owner: Self.nobody)
        let asNobody = ["/usr/bin/setpriv", "--reuid=\(Self.nobody)", "--regid=\(Self.nobody)", "--clear-groups"]
        let log = place.dir.file("log")
        let daemon = try Self.start(asNobody, place, log: log)
        defer { Self.stop(daemon) }
        let result = try Self.statusFinds(daemon, asNobody, place)
        let daemonLog = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(result.status == 0, "gesturectl: \(result.stderr)\ndaemon:\n\(daemonLog)")
        #expect(result.stdout.contains(#""request":"status""#))
        #expect(FileManager.default.fileExists(atPath: place.runtime + "/gestured/gestured.sock"))
    }

    @Test func asRootBothFindTheSystemSocket() throws {
        let place = try Place(owner: 0)
        // A mount namespace of its own with an empty /run: the test touches no real /run/gestured.
        let log = place.dir.file("log")
        let daemon = try Self.start(["/usr/bin/unshare", "-m", "/bin/sh", "-c",
                                     "mount -t tmpfs none /run && exec \"$@\"", "sh"], place, log: log)
        defer { Self.stop(daemon) }
        let inside = ["/usr/bin/nsenter", "-t", String(daemon.processIdentifier), "-m"]
        let result = try Self.statusFinds(daemon, inside, place)
        let daemonLog = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(result.status == 0, "gesturectl: \(result.stderr)\ndaemon:\n\(daemonLog)")
        #expect(result.stdout.contains(#""request":"status""#))
        #expect(daemonLog.contains("socket=/run/gestured/gestured.sock"), "\(daemonLog)")
        #expect(!FileManager.default.fileExists(atPath: place.runtime + "/gestured"), "root used XDG_RUNTIME_DIR")
    }

    @Test func aUserWithNoRuntimeDirectoryIsToldToGiveASocket() throws {
        let dir = TempDir()
        chmod(dir.path, 0o755)
        let result = try runTool("/usr/bin/setpriv", ["--reuid=\(Self.nobody)", "--regid=\(Self.nobody)", "--clear-groups",
                                                      "/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "XDG_CONFIG_HOME=\(dir.path)",
                                                      Paths.binary("gestured"), "run", "--no-devices"], timeout: 20)
        #expect(result.status == 2)
        #expect(result.stderr.contains("XDG_RUNTIME_DIR is not set"), "\(result.stderr)")
        #expect(result.stderr.contains("--socket"))
    }

    @Test func theLookupInOrder() {
        func lookup(_ env: [String: String], root: Bool) -> SocketPath { SocketPath(environment: { env[$0] }, isRoot: root) }
        #expect(lookup(["GESTURED_SOCKET": "/tmp/s", "XDG_RUNTIME_DIR": "/run/user/1"], root: true).candidates == ["/tmp/s"])
        #expect(lookup(["XDG_RUNTIME_DIR": "/run/user/1"], root: true).candidates == [SocketPath.system])
        let user = lookup(["XDG_RUNTIME_DIR": "/run/user/1000/", "GESTURED_SOCKET": ""], root: false)
        #expect(user.candidates == ["/run/user/1000/gestured/gestured.sock", SocketPath.system])
        #expect(user.forDaemon == .success("/run/user/1000/gestured/gestured.sock"))
        #expect(user.forClient(exists: { $0 == SocketPath.system }) == SocketPath.system)
        #expect(user.forClient(exists: { _ in false }) == "/run/user/1000/gestured/gestured.sock")
        #expect(lookup([:], root: false).forDaemon == .failure(SocketPathError()))
    }
}
