import Foundation
import Testing
import GestureConfig
import GestureDaemon
import GesturePosix
import GestureProtocol

/// The real `gestured run` binary over its socket (no input devices).
@Suite(.serialized) struct DaemonSocketTests {
    /// Two descriptors per client (socket and stream pipe) do not fit a soft limit of 1024: the
    /// daemon started with a low one raises it itself, as far as the hard limit allows.
    @Test func aLowOpenFileLimitIsRaisedAtStart() throws {
        let daemon = try DaemonProcess(softDescriptorLimit: 256)
        let limits = try String(contentsOfFile: "/proc/\(daemon.pid)/limits", encoding: .utf8)
        let line = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        let fields = line.split(separator: " ").dropFirst(3)
        let soft = try #require(UInt64(fields.first ?? ""))
        let hard = UInt64(fields.dropFirst().first ?? "") ?? .max
        #expect(soft == min(4096, hard), "\(line)")
        #expect(daemon.log.contains("open-file limit raised"))
    }

    @Test func greetsThenAnswersStatus() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        let status = json(try daemon.roundTrip(client, #"{"request":"status"}"#))
        #expect(status["type"] as? String == "response")
        #expect(status["request"] as? String == "status")
        #expect(status["ok"] as? Bool == true)
        #expect(status["protocol"] as? Int == 1)
        #expect(status["devices"] as? Int == 0)
    }

    @Test func malformedLinesGetErrorsAndTheConnectionStaysUsable() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        for bad in ["not json", "{\"request\":", "[]", #"{"request":"fly"}"#, #"{"request":"subscribe","kinds":["zz"]}"#,
                    #"{"request":"hit-test","x":"a","y":1}"#, String(repeating: "x", count: 10_000)] {
            let reply = json(try daemon.roundTrip(client, bad))
            #expect(reply["type"] as? String == "error", "for \(bad.prefix(40))")
            #expect((reply["message"] as? String)?.isEmpty == false)
        }
        let status = json(try daemon.roundTrip(client, #"{"request":"status","id":"s1"}"#))
        #expect(status["ok"] as? Bool == true)
        #expect(status["id"] as? String == "s1")
        let failed = json(try daemon.roundTrip(client, #"{"request":"nope","id":7}"#))
        #expect(failed["type"] as? String == "error")
        #expect(failed["id"] as? Int == 7)
        #expect(daemon.process.isRunning)
    }

    @Test func anEndlessLineIsRefusedOnceAndTheRestOfItIgnored() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        // No newline for a long while: the daemon must not buffer it, and answers it once.
        let bytes = [UInt8](repeating: UInt8(ascii: "y"), count: 300_000)
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { send(client.fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            sent += n
        }
        #expect(sent == bytes.count)
        let reply = json(try client.readLine(timeout: 5000))
        #expect(reply["type"] as? String == "error")
        #expect((reply["message"] as? String)?.contains("longer than") == true)
        // The line ends; the next one is a request like any other, and its reply is the next line.
        try client.send("yyyy")
        let status = json(try daemon.roundTrip(client, #"{"request":"status","id":"next"}"#))
        #expect(status["id"] as? String == "next", "\(status)")
        let other = try daemon.connect()
        #expect(json(try daemon.roundTrip(other, #"{"request":"status"}"#))["ok"] as? Bool == true)
    }

    @Test func aMissingSocketDirectoryIsCreated() throws {
        let dir = TempDir()
        let path = dir.file("sub/gestured.sock")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.binary("gestured"))
        process.arguments = ["run", "--no-devices", "--socket", path]
        process.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try process.run()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        #expect(waitUntil(timeout: 20) { (try? ControlClient(path: path)) != nil })
        kill(process.processIdentifier, SIGTERM)
        #expect(waitUntil(timeout: 10) { !process.isRunning })
    }

    @Test func subscribeAndExplainAreAcknowledged() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        let sub = json(try daemon.roundTrip(client, #"{"request":"subscribe","kinds":["tap","pan"],"touches":["*"]}"#))
        #expect(sub["ok"] as? Bool == true)
        let explain = json(try daemon.roundTrip(client, #"{"request":"explain"}"#))
        #expect(explain["on"] as? Bool == true)
        let status = json(try daemon.roundTrip(client, #"{"request":"status"}"#))
        #expect(status["explain"] as? Bool == true)
        let off = json(try daemon.roundTrip(client, #"{"request":"explain","on":false}"#))
        #expect(off["on"] as? Bool == false)
        let hit = json(try daemon.roundTrip(client, #"{"request":"hit-test","x":10,"y":10}"#))
        #expect(hit["ok"] as? Bool == true)
        #expect(hit["chain"] is [Any])
        let devices = json(try daemon.roundTrip(client, #"{"request":"devices"}"#))
        #expect((devices["devices"] as? [Any])?.isEmpty == true)
    }

    @Test func twoHundredClientsLeaveNoFileDescriptorBehind() throws {
        let daemon = try DaemonProcess()
        // Baseline with exactly one client (this one) known to be connected: the start-up probe's
        // connection may still be open for a moment otherwise.
        let anchor = try daemon.connect()
        #expect(waitUntil(timeout: 10) {
            (json(try? daemon.roundTrip(anchor, #"{"request":"status"}"#))["clients"] as? Int) == 1
        })
        let baseline = daemon.fdCount
        #expect(baseline > 0)
        // In sequence, each saying something...
        for i in 0..<100 {
            let client = try daemon.connect()
            if i % 2 == 0 { _ = try daemon.roundTrip(client, #"{"request":"status"}"#) }
        }
        // ...and all at once, some leaving mid-line.
        var clients: [ControlClient] = []
        for _ in 0..<100 { clients.append(try daemon.connect()) }
        #expect(waitUntil(timeout: 10) { daemon.fdCount >= baseline + 100 })
        for (i, c) in clients.enumerated() where i % 3 == 0 { try c.send("{\"request\":\"sta") }
        clients.removeAll()
        #expect(waitUntil(timeout: 10) { daemon.fdCount == baseline }, "fds: \(daemon.fdCount) vs \(baseline)")
        #expect(json(try daemon.roundTrip(anchor, #"{"request":"status"}"#))["clients"] as? Int == 1)
    }

    @Test func aClientThatDoesNotReadDoesNotDelayAnother() throws {
        let daemon = try DaemonProcess()
        let stuck = try daemon.connect()
        _ = try daemon.roundTrip(stuck, #"{"request":"subscribe"}"#)
        // Fill the stuck client's socket and queue: it sends far more than it will ever read.
        let flood = String(repeating: #"{"request":"status"}"# + "\n", count: 2000)
        var sent = 0
        let fd = stuck.fd
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        let bytes = Array(flood.utf8)
        for _ in 0..<50 {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 { sent += n } else { break }
        }
        #expect(sent > 0)
        let other = try daemon.connect()
        var worst = 0.0
        for _ in 0..<20 {
            let start = Date()
            let reply = json(try daemon.roundTrip(other, #"{"request":"status"}"#))
            worst = max(worst, Date().timeIntervalSince(start))
            #expect(reply["ok"] as? Bool == true)
        }
        #expect(worst < 0.5, "slowest round trip \(worst) s while another client is stuck")
        #expect(daemon.process.isRunning)
    }

    @Test func sigtermStopsCleanlyAndRemovesTheSocket() throws {
        let daemon = try DaemonProcess()
        #expect(FileManager.default.fileExists(atPath: daemon.socketPath))
        #expect(daemon.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
    }

    @Test func sigintStopsCleanlyToo() throws {
        let daemon = try DaemonProcess()
        #expect(daemon.stop(signal: SIGINT) == 0)
        #expect(daemon.log.contains("stopping signal=SIGINT"))
    }

    @Test func sighupReloadsAndKeepsServing() throws {
        let daemon = try DaemonProcess()
        kill(daemon.pid, SIGHUP)
        #expect(waitUntil(timeout: 5) { daemon.log.contains("configuration reloaded") })
        let client = try daemon.connect()
        #expect(json(try daemon.roundTrip(client, #"{"request":"status"}"#))["ok"] as? Bool == true)
        let reload = json(try daemon.roundTrip(client, #"{"request":"reload"}"#))
        #expect(reload["ok"] as? Bool == true)
    }

    @Test func aSecondDaemonOnALiveSocketRefusesToStart() throws {
        let daemon = try DaemonProcess()
        let second = try runBinary("gestured", ["run", "--no-devices", "--socket", daemon.socketPath], timeout: 20)
        #expect(second.status != 0)
        #expect(second.stderr.contains(daemon.socketPath))
        let client = try daemon.connect()
        #expect(json(try daemon.roundTrip(client, #"{"request":"status"}"#))["ok"] as? Bool == true)
    }

    @Test func theConfigFileComesFromTheEnvironmentWhenNotGiven() throws {
        let dir = TempDir()
        let missing = dir.file("nowhere/gestured.yaml")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Paths.binary("gestured"))
        process.arguments = ["run", "--no-devices", "--socket", dir.file("s")]
        process.environment = ProcessInfo.processInfo.environment.merging(["GESTURED_CONFIG": missing]) { $1 }
        _ = FileManager.default.createFile(atPath: dir.file("err"), contents: nil)
        process.standardError = FileHandle(forWritingAtPath: dir.file("err"))
        try process.run()
        #expect(waitUntil(timeout: 20) { !process.isRunning })
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(((try? String(contentsOfFile: dir.file("err"), encoding: .utf8)) ?? "").contains(missing))
    }

    @Test
    func statusNamesTheConfigFileInUse() throws {
        let dir = TempDir()
        let config = dir.file("gestured.yaml")
        try ConfigurationLoader.defaultYAML.write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(environment: ["GESTURED_CONFIG": config])
        let client = try daemon.connect()
        #expect(json(try daemon.roundTrip(client, #"{"request":"status"}"#))["config"] as? String == config)
    }

    /// With the real default config the root region ends every hit-test chain.
    @Test
    func hitTestShowsTheRegionChain() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        let reply = json(try daemon.roundTrip(client, #"{"request":"hit-test","x":50,"y":50}"#))
        let chain = reply["chain"] as? [String] ?? []
        #expect(!chain.isEmpty)
        #expect(chain.last == ConfigurationLoader.loadDefault().engine.root.id)
        let outside = json(try daemon.roundTrip(client, #"{"request":"hit-test","x":-5,"y":-5}"#))
        #expect((outside["chain"] as? [String])?.isEmpty == true)
    }

    /// Needs the real YAML loader (its embedded default text is the known-good config).
    @Test
    func aBrokenConfigOnReloadIsRefusedAndTheOldOneKeepsRunning() throws {
        let dir = TempDir()
        let config = dir.file("gestured.yaml")
        try ConfigurationLoader.defaultYAML.write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(extraArguments: ["--config", config])
        let client = try daemon.connect()
        try "recognizers: [ {kind: nonsense\n  - : :\n".write(toFile: config, atomically: true, encoding: .utf8)
        let reply = json(try daemon.roundTrip(client, #"{"request":"reload"}"#))
        #expect(reply["type"] as? String == "error")
        #expect((reply["message"] as? String)?.contains(config) == true)
        kill(daemon.pid, SIGHUP)
        #expect(waitUntil(timeout: 5) { daemon.log.components(separatedBy: "reload refused").count >= 3 })
        #expect(daemon.process.isRunning)
        #expect(json(try daemon.roundTrip(client, #"{"request":"status"}"#))["ok"] as? Bool == true)
        // Fixed again: accepted.
        try ConfigurationLoader.defaultYAML.write(toFile: config, atomically: true, encoding: .utf8)
        #expect(json(try daemon.roundTrip(client, #"{"request":"reload"}"#))["ok"] as? Bool == true)
    }

    @Test func gesturectlTalksToTheDaemon() throws {
        let daemon = try DaemonProcess()
        let status = try runBinary("gesturectl", ["status", "--socket", daemon.socketPath])
        #expect(status.status == 0)
        #expect(json(status.stdout.trimmingCharacters(in: .newlines))["request"] as? String == "status")
        let hit = try runBinary("gesturectl", ["hit-test", "5", "5", "--socket", daemon.socketPath])
        #expect(hit.status == 0)
        #expect(hit.stdout.contains("\"chain\""))
        let bad = try runBinary("gesturectl", ["hit-test", "5", "5", "--device", "nope", "--socket", daemon.socketPath])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("no device 'nope'"))
        let missing = try runBinary("gesturectl", ["status", "--socket", daemon.dir.file("absent.sock")])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("absent.sock"))
    }
}
