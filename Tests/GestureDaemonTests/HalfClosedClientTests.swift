import Foundation
import Testing
import GestureProtocol

/// A client that ends its input (`shutdown(SHUT_WR)`, what a shell pipe does at the end of its
/// here-string) keeps what it asked to receive: a subscriber its gestures, a recorder its events,
/// until it closes its end; a client that asked only questions is closed once answered.
@Suite(.serialized) struct HalfClosedClientTests {
    /// A four-finger drag down: a `swipe` with the default config.
    static let swipe = Paths.packageRoot + "/Tests/Fixtures/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events"

    @Test func aSubscriberThatEndsItsInputStillGetsItsGestures() throws {
        let daemon = try DaemonProcess(extraArguments: ["--inject", Self.swipe, "--inject-when-subscribed"])
        let client = try daemon.connect()
        try client.send(#"{"request":"subscribe","kinds":["swipe"]}"#)
        #expect(shutdown(client.fd, Int32(SHUT_WR)) == 0)
        #expect(json(try client.readLine(timeout: 5000))["request"] as? String == "subscribe")
        let got = try client.lines(until: { $0["type"] as? String == "gesture" })
        #expect(got.last?["kind"] as? String == "swipe", "\(got); log:\n\(daemon.log)")
        // Still connected: the daemon closes it only when the client closes its end.
        #expect(waitUntil(timeout: 10) { daemon.log.contains("injected recording finished") })
        let status = try daemon.connect()
        #expect(json(try daemon.roundTrip(status, #"{"request":"status"}"#))["clients"] as? Int == 2, "\(daemon.log)")
    }

    @Test func aRecorderThatEndsItsInputGetsItsRecordingThenTheEnd() throws {
        let daemon = try DaemonProcess(extraArguments: ["--inject", Self.swipe, "--inject-when-subscribed"])
        let client = try daemon.connect()
        try client.send(#"{"request":"record","seconds":30}"#)
        #expect(shutdown(client.fd, Int32(SHUT_WR)) == 0)
        #expect(json(try client.readLine(timeout: 5000))["request"] as? String == "record")
        let got = try client.lines(until: { $0["type"] as? String == "record-end" })
        #expect(got.contains { $0["type"] as? String == "record" }, "\(got)")
        #expect(got.last?["type"] as? String == "record-end", "\(got); log:\n\(daemon.log)")
        // With its recording over and nothing else coming, the daemon closes it.
        #expect(try client.readLine(timeout: 5000) == nil)
    }

    @Test func aClientThatOnlyAskedIsClosedOnceAnswered() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        try client.send(#"{"request":"status"}"#)
        #expect(shutdown(client.fd, Int32(SHUT_WR)) == 0)
        #expect(json(try client.readLine(timeout: 5000))["request"] as? String == "status")
        #expect(try client.readLine(timeout: 5000) == nil)
    }

    @Test func aKeptSubscriberIsDroppedWhenItClosesItsEnd() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        try client.send(#"{"request":"subscribe"}"#)
        #expect(shutdown(client.fd, Int32(SHUT_WR)) == 0)
        #expect(json(try client.readLine(timeout: 5000))["request"] as? String == "subscribe")
        let status = try daemon.connect()
        #expect(json(try daemon.roundTrip(status, #"{"request":"status"}"#))["clients"] as? Int == 2)
        #expect(shutdown(client.fd, Int32(SHUT_RDWR)) == 0)
        #expect(waitUntil(timeout: 10) {
            (json(try? daemon.roundTrip(status, #"{"request":"status"}"#))["clients"] as? Int) == 1
        })
    }

    /// The README's one-liner, run as written (socat and jq, through a shell), receives gestures.
    @Test func theReadmeSocatOneLinerReceivesGestures() throws {
        let readme = try String(contentsOfFile: Paths.packageRoot + "/README.md", encoding: .utf8)
        let command = try #require(readme.split(separator: "\n").first { $0.hasPrefix("socat ") }.map(String.init))
        try TestTools.require("socat")
        try TestTools.require("jq")
        let daemon = try DaemonProcess(extraArguments: ["--inject", Self.swipe, "--inject-when-subscribed"])
        let runtime = TempDir()
        try FileManager.default.createDirectory(atPath: runtime.file("gestured"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: runtime.file("gestured/gestured.sock"), withDestinationPath: daemon.socketPath)
        let out = runtime.file("out")
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/bash")
        shell.arguments = ["-c", command]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["GESTURED_SOCKET"] = nil
        shell.environment = environment
        shell.standardOutput = FileHandle(forWritingAtPath: out)
        shell.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try shell.run()
        // jq writes to a file only when it ends, and the pipeline ends when the daemon closes the
        // connection: once the recording has played, the daemon stops and the output is complete.
        #expect(waitUntil(timeout: 20) { daemon.log.contains("injected recording finished") }, "\(daemon.log)")
        _ = daemon.stop()
        let ended = waitUntil(timeout: 10) { !shell.isRunning }
        if !ended { shell.terminate() }
        shell.waitUntilExit()
        let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        let types = text.split(separator: "\n").map { json(String($0))["type"] as? String ?? "?" }
        #expect(types == ["hello", "response", "gesture"], "README: \(command)\nprinted:\n\(text)\nlog:\n\(daemon.log)")
        #expect(text.contains(#""kind":"swipe""#))
    }
}
