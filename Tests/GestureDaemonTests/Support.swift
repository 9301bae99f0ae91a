import Foundation
import GestureDaemon
import GesturePosix
import GestureProtocol
import Testing

/// Where the built products and fixtures are.
enum Paths {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    /// `$GESTURED_BIN_DIR`, else `.build/debug` of this package.
    static var binDir: String {
        ProcessInfo.processInfo.environment["GESTURED_BIN_DIR"] ?? packageRoot + "/.build/debug"
    }
    static func binary(_ name: String) -> String { binDir + "/" + name }
    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/Fixtures/" + name
    }
}

/// A temporary directory removed on deinit.
final class TempDir {
    let path: String
    init() {
        var template = Array((NSTemporaryDirectory() + "/gestured-test.XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        path = String(cString: made!)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    func file(_ name: String) -> String { path + "/" + name }
}

/// Polls `condition` until it holds or `timeout` seconds pass (bounded wait, not an assertion).
func waitUntil(timeout: Double, _ condition: () -> Bool) -> Bool {
    let end = Date().addingTimeInterval(timeout)
    while Date() < end {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}

/// Result of running a binary to completion.
struct RunResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs a built binary with arguments, waits (bounded) and captures output.
func runBinary(_ name: String, _ arguments: [String], timeout: Double = 60,
               environment: [String: String?] = [:]) throws -> RunResult {
    try runTool(Paths.binary(name), arguments, timeout: timeout, environment: environment)
}

/// Runs a program by path (not a built product), bounded; `environment` sets (or, with nil, removes)
/// variables of the test's own environment.
func runTool(_ path: String, _ arguments: [String], timeout: Double = 60,
             environment: [String: String?] = [:]) throws -> RunResult {
    let dir = TempDir()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    if !environment.isEmpty {
        var merged = ProcessInfo.processInfo.environment
        for (name, value) in environment { merged[name] = value }
        process.environment = merged
    }
    _ = FileManager.default.createFile(atPath: dir.file("out"), contents: nil)
    _ = FileManager.default.createFile(atPath: dir.file("err"), contents: nil)
    process.standardOutput = FileHandle(forWritingAtPath: dir.file("out"))
    process.standardError = FileHandle(forWritingAtPath: dir.file("err"))
    try process.run()
    let finished = waitUntil(timeout: timeout) { !process.isRunning }
    if !finished { process.terminate() }
    #expect(finished, "\(path) \(arguments) did not finish within \(timeout) s")
    process.waitUntilExit()
    return RunResult(status: process.terminationStatus,
                     stdout: (try? String(contentsOfFile: dir.file("out"), encoding: .utf8)) ?? "",
                     stderr: (try? String(contentsOfFile: dir.file("err"), encoding: .utf8)) ?? "")
}

/// A `gestured run` process on a private socket with no input devices.
final class DaemonProcess {
    let dir = TempDir()
    let process = Process()
    var socketPath: String { dir.file("gestured.sock") }
    var logPath: String { dir.file("log") }

    /// `softDescriptorLimit`: started through `sh -c 'ulimit -Sn N; exec gestured ...'`, so the
    /// daemon (the same process) begins with that soft open-file limit.
    init(extraArguments: [String] = [], environment: [String: String] = [:], softDescriptorLimit: Int? = nil) throws {
        // Hermetic: no user config of whoever runs the tests.
        var base = ProcessInfo.processInfo.environment
        base["XDG_CONFIG_HOME"] = dir.path
        base["GESTURED_CONFIG"] = nil
        process.environment = base.merging(environment) { $1 }
        let arguments = ["run", "--no-devices", "--socket", dir.file("gestured.sock"), "--log-level", "debug"]
            + extraArguments
        if let softDescriptorLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -Sn \(softDescriptorLimit) && exec \"$0\" \"$@\"", Paths.binary("gestured")] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: Paths.binary("gestured"))
            process.arguments = arguments
        }
        _ = FileManager.default.createFile(atPath: dir.file("log"), contents: nil)
        process.standardError = FileHandle(forWritingAtPath: dir.file("log"))
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        let path = dir.file("gestured.sock")
        let up = waitUntil(timeout: 20) { (try? ControlClient(path: path)) != nil || !self.process.isRunning }
        guard up, process.isRunning else {
            throw DaemonTestError("daemon did not come up; log:\n\(log)")
        }
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    var pid: Int32 { process.processIdentifier }
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Connects and checks the greeting.
    func connect() throws -> ControlClient {
        let client = try ControlClient(path: socketPath)
        let hello = try client.readLine(timeout: 5000)
        guard hello == DaemonVersion.helloLine else { throw DaemonTestError("unexpected greeting \(hello ?? "EOF")") }
        return client
    }

    /// Sends a request and returns the next line.
    func roundTrip(_ client: ControlClient, _ line: String) throws -> String {
        try client.send(line)
        guard let reply = try client.readLine(timeout: 5000) else { throw DaemonTestError("EOF after \(line)") }
        return reply
    }

    /// Open file descriptors of the daemon.
    var fdCount: Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1 }

    /// SIGTERM and a bounded wait; returns the exit status (or -1 on timeout).
    func stop(signal: Int32 = SIGTERM) -> Int32 {
        kill(pid, signal)
        guard waitUntil(timeout: 10, { !process.isRunning }) else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

struct DaemonTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Decodes one JSON line into a dictionary.
func json(_ line: String?) -> [String: Any] {
    guard let line, let data = line.data(using: .utf8),
          let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
    return object
}
