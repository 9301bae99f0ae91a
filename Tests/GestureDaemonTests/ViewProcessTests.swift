import Foundation
import Glibc
import GestureProtocol
import Testing

/// `gesturectl view`'s server as the real `gesturectl-view` process over real TCP sockets, fed by a
/// real daemon (docs/view.md, "Security"): the token, the Origin and the Host are checked before
/// anything is served; it listens on loopback only; the WebSocket carries the kept replies, then the
/// daemon's lines. A process of its own, so its answers never wait for the test run's shared thread
/// pool (an in-process server starved there for minutes while other suites held both threads).
@Suite(.serialized) struct ViewProcessTests {
    /// One set of options (`ViewOptions`): gesturectl-view's help is `gesturectl view`'s, bar the
    /// `--version` gesturectl adds to all its commands; an option one takes and the other refuses is
    /// a failure here.
    @Test func gesturectlViewAndItsProgramTakeTheSameOptions() throws {
        let ctl = try runBinary("gesturectl", ["view", "--help"])
        let program = try runBinary("gesturectl-view", ["--help"])
        #expect(ctl.status == 0 && program.status == 0)
        let ctlLines = ctl.stdout.split(separator: "\n").filter { !$0.contains("--version") }
        #expect(program.stdout.split(separator: "\n") == ctlLines)
        for binary in [["gesturectl", "view"], ["gesturectl-view"]] {
            let refused = try runBinary(binary[0], Array(binary.dropFirst()) + ["--desktop", "d.json"])
            #expect(refused.status != 0 && refused.stderr.contains("--desktop and --config go with --replay"), "\(binary)")
        }
    }

    @Test func aRequestWithoutTheTokenIsRefused() throws {
        let daemon = try DaemonProcess()
        let view = try ViewProcess(socket: daemon.socketPath)
        let port = view.port
        let bare = try HTTPProbe.get(port: port, path: "/")
        #expect(bare.status == 403, "\(bare)")
        #expect(bare.body.contains("token"))
        let wrong = try HTTPProbe.get(port: port, path: "/" + String(view.token.reversed()) + "/")
        #expect(wrong.status == 403, "\(wrong)")
        let short = try HTTPProbe.get(port: port, path: "/" + view.token.prefix(63) + "/view.js")
        #expect(short.status == 403, "\(short)")
        let page = try HTTPProbe.get(port: port, path: "/\(view.token)/")
        #expect(page.status == 200, "\(page)")
        #expect(page.body.contains("gestured view"))
        #expect(page.headers["content-security-policy"]?.contains("default-src 'self'") == true, "\(page.headers)")
        let script = try HTTPProbe.get(port: port, path: "/\(view.token)/view.js")
        #expect(script.status == 200 && script.headers["content-type"]?.hasPrefix("text/javascript") == true,
                "\(script.status) \(script.headers)")
        // The one path without the token: the icon browsers ask for, answered empty.
        let icon = try HTTPProbe.get(port: port, path: "/favicon.ico")
        #expect(icon.status == 204 && icon.body.isEmpty, "\(icon)")
        let other = try HTTPProbe.get(port: port, path: "/\(view.token)/../../etc/passwd")
        #expect(other.status != 200, "\(other)")
    }

    @Test func aForeignOriginOrHostIsRefused() throws {
        let daemon = try DaemonProcess()
        let view = try ViewProcess(socket: daemon.socketPath)
        let port = view.port
        let path = "/\(view.token)/"
        let foreign = try HTTPProbe.get(port: port, path: path, headers: ["Origin": "http://evil.example"])
        #expect(foreign.status == 403, "\(foreign)")
        #expect(foreign.body.contains("Origin"))
        let otherPort = try HTTPProbe.get(port: port, path: path, headers: ["Origin": "http://127.0.0.1:\(port &+ 1)"])
        #expect(otherPort.status == 403, "\(otherPort)")
        let own = try HTTPProbe.get(port: port, path: path, headers: ["Origin": "http://127.0.0.1:\(port)"])
        #expect(own.status == 200, "\(own.status)")
        // DNS rebinding: a name that resolves to 127.0.0.1 still carries its own Host.
        let rebound = try HTTPProbe.get(port: port, path: path, host: "evil.example:\(port)")
        #expect(rebound.status == 403, "\(rebound)")
        // The stream is refused the same way before any upgrade.
        let socket = try HTTPProbe.get(port: port, path: "/\(view.token)/stream",
                                       headers: HTTPProbe.upgradeHeaders.merging(["Origin": "http://evil.example"]) { $1 })
        #expect(socket.status == 403, "\(socket)")
    }

    @Test func itListensOnLoopbackOnly() throws {
        let daemon = try DaemonProcess()
        let view = try ViewProcess(socket: daemon.socketPath)
        let port = view.port
        #expect(port != 0)
        // Every non-loopback IPv4 address of this machine refuses the port.
        let others = HTTPProbe.nonLoopbackAddresses()
        for address in others {
            #expect(throws: HTTPProbe.Failure.self, "\(address):\(port) accepted") {
                _ = try HTTPProbe.get(port: port, path: "/\(view.token)/", address: address)
            }
        }
        // And the listening socket itself is bound to 127.0.0.1 (the whole answer when the
        // machine has no other address).
        #expect(HTTPProbe.boundAddress(port: port) == "127.0.0.1", "\(others)")
    }

    @Test func theStreamCarriesTheKeptRepliesThenTheDaemonsLines() throws {
        let daemon = try DaemonProcess()
        let view = try ViewProcess(socket: daemon.socketPath)
        // The view has subscribed once the daemon has a client asking for explain lines.
        let probe = try daemon.connect()
        let subscribed = waitUntil(timeout: 20) {
            json(try? daemon.roundTrip(probe, #"{"request":"status"}"#))["explain"] as? Bool == true
        }
        #expect(subscribed, "\(view.log)")
        let socket = try WebSocketProbe(port: view.port, path: "/\(view.token)/stream",
                                        origin: "http://127.0.0.1:\(view.port)")
        // The kept replies first, the daemon's greeting leading.
        #expect(try socket.nextText() == DaemonVersion.helloLine)
        let second = try socket.nextText()
        #expect(json(second)["type"] as? String == "view-daemon" && json(second)["connected"] as? Bool == true, "\(second)")
        // Then what the daemon sends: a recording injected into it shows as touches (a tap's touch
        // ends cancelled: the recognized tap cancels touches in its view, as UIKit's does).
        let run = try runBinary("gesturectl", ["inject", "--socket", daemon.socketPath, InjectRequestTests.tap])
        #expect(run.status == 0, "\(run.stderr)")
        var phases: [String] = []
        var seen: [String] = []
        let deadline = Date().addingTimeInterval(30)
        while !phases.contains(where: { $0 == "ended" || $0 == "cancelled" }), Date() < deadline {
            let line = try socket.nextText()
            let object = json(line)
            seen.append(line)
            if object["type"] as? String == "touch", let phase = object["phase"] as? String { phases.append(phase) }
        }
        #expect(phases.first == "began" && ["ended", "cancelled"].contains(phases.last), "\(phases) \(seen.suffix(20))")
    }
}

/// A `gesturectl-view --no-open` process on a free port, reading `socket`, serving the package's
/// own page (share/view); its URL is read from what it prints.
final class ViewProcess {
    let dir = TempDir()
    let process = Process()
    private(set) var port: UInt16 = 0
    private(set) var token = ""
    var log: String { (try? String(contentsOfFile: dir.file("err"), encoding: .utf8)) ?? "" }

    init(socket: String) throws {
        process.executableURL = URL(fileURLWithPath: Paths.binary("gesturectl-view"))
        process.arguments = ["--no-open", "--socket", socket]
        var environment = ProcessInfo.processInfo.environment
        environment["GESTURED_VIEW_DIR"] = Paths.packageRoot + "/share/view"
        process.environment = environment
        _ = FileManager.default.createFile(atPath: dir.file("out"), contents: nil)
        _ = FileManager.default.createFile(atPath: dir.file("err"), contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: dir.file("out"))
        process.standardError = FileHandle(forWritingAtPath: dir.file("err"))
        try process.run()
        var url: URL?
        let printed = waitUntil(timeout: 20) {
            let out = (try? String(contentsOfFile: dir.file("out"), encoding: .utf8)) ?? ""
            if let line = out.split(separator: "\n").first(where: { $0.hasPrefix("http://127.0.0.1:") }) {
                url = URL(string: String(line))
            }
            return url != nil || !process.isRunning
        }
        guard printed, let url, let port = url.port, url.pathComponents.count == 2 else {
            throw DaemonTestError("gesturectl-view printed no URL; stderr:\n\(log)")
        }
        self.port = UInt16(port)
        token = url.pathComponents[1]
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}
