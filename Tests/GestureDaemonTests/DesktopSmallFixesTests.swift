import Foundation
import GestureRecording
import Testing

/// Issue 49 item 7, each through the real binaries: desktop region filters, options the docs name,
/// a forwarded replay with every touch taken, and what `check-config` counts.
@Suite(.serialized) struct DesktopSmallFixesTests {
    /// `gesturectl listen --region window:5` / `--region output:NAME`: the daemon takes a filter on
    /// the desktop's regions (they come and go with the bridge), so gesturectl does too.
    @Test func listenTakesDesktopRegionFilters() throws {
        for region in ["window:5", "output:HEADLESS-1"] {
            // The injection starts when a client subscribes: the sign that gesturectl's filter was taken.
            let daemon = try DaemonProcess(extraArguments: ["--inject", AppFixtures.tap, "--inject-when-subscribed"])
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Paths.binary("gesturectl"))
            process.arguments = ["listen", "--region", region, "--socket", daemon.socketPath, "--format", "json"]
            let err = Pipe()
            process.standardError = err
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
            try process.run()
            let subscribed = waitUntil(timeout: 10) { daemon.log.contains("injected recording finished") || !process.isRunning }
            let running = process.isRunning
            if running { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(subscribed && running, "\(region): \(message)")
        }
    }

    /// Every `gestured SUB --option` and `gesturectl SUB --option` written in the docs is an option of
    /// that subcommand (docs/desktop.md named a `gestured run --explain` that never existed).
    @Test func everyOptionTheDocsNameExists() throws {
        let docs = try FileManager.default.contentsOfDirectory(atPath: Paths.packageRoot + "/docs").filter { $0.hasSuffix(".md") }
        var helps: [String: String] = [:]
        var missing: [String] = []
        var checked = 0
        for doc in docs.sorted() {
            let text = try String(contentsOfFile: Paths.packageRoot + "/docs/" + doc, encoding: .utf8)
            // Inline code spans only: `gestured run --config FILE`.
            for span in text.split(separator: "`", omittingEmptySubsequences: false).enumerated() where span.offset % 2 == 1 {
                let words = span.element.split(whereSeparator: \.isWhitespace).map(String.init)
                guard words.count >= 3, ["gestured", "gesturectl"].contains(words[0]),
                      words[1].allSatisfy({ $0.isLetter || $0 == "-" }) else { continue }
                let command = words[0] + " " + words[1]
                if helps[command] == nil {
                    let help = try runBinary(words[0], [words[1], "--help"])
                    helps[command] = help.status == 0 ? help.stdout : ""
                }
                guard let help = helps[command], !help.isEmpty else { continue }
                for word in words.dropFirst(2) where word.hasPrefix("--") && word.count > 2 {
                    let option = String(word.prefix { $0 != "=" && $0 != "," && $0 != ")" && $0 != "]" })
                    checked += 1
                    if !help.contains(option) { missing.append("docs/\(doc): `\(span.element)`: \(command) has no \(option)") }
                }
            }
        }
        #expect(missing.isEmpty, "\(missing)")
        #expect(checked > 20, "only \(checked) options found in the docs")
    }

    /// A forwarded replay whose touches were all taken writes a description with no events: a valid
    /// recording, which `gestured replay` reads back as 0 events.
    @Test func aForwardedReplayWithEveryTouchTakenReadsBack() throws {
        let dir = TempDir()
        let config = dir.file("take.yaml")
        try """
            version: 1
            devices: { forward: true }
            gestures:
              - { id: drag, kind: pan, delays-touches-began: true }
            bindings:
              - { gesture: drag, states: [began], command: "true" }
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let corpus = Paths.packageRoot + "/Tests/Fixtures/evemu-devices/touchscreens/"
        let out = dir.file("desktop.evemu")
        let run = try runBinary("gestured", ["replay", "--config", config, "--desc", corpus + "EP0430M09.desc",
                                             "--forward", out, "--format", "json",
                                             corpus + "EP0430M09.1-finger-drag-up-down.events"])
        #expect(run.status == 0, "\(run.stderr)")
        let written = try String(contentsOfFile: out, encoding: .utf8)
        #expect(!written.contains("\nE: "), "the drag reached the desktop: \(written.suffix(300))")
        let back = try runBinary("gestured", ["replay", "--format", "json", out])
        #expect(back.status == 0, "\(back.stderr)")
        #expect(back.stderr.contains("0 events"), "\(back.stderr)")
    }

    /// `check-config` counts the window rules' gestures with the screen's and names the rules.
    @Test func checkConfigCountsTheWindowRulesGestures() throws {
        let dir = TempDir()
        let config = dir.file("rules.yaml")
        try """
            version: 1
            gestures:
              - { id: swipe-3, kind: swipe, fingers: 3 }
            windows:
              - id: browser
                match: { app: "firefox*" }
                gestures:
                  - { id: browser-pinch, kind: pinch }
                  - { id: browser-scroll, kind: pan, min-fingers: 2, max-fingers: 2 }
              - id: terminal
                match: { app: foot }
                gestures:
                  - { id: terminal-tap, kind: tap }
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let result = try runBinary("gestured", ["check-config", config])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("ok (1 region, 4 gestures, 0 bindings, 2 window rules: browser, terminal)"), "\(result.stdout)")
    }
}
