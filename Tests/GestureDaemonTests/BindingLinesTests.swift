import Foundation
import Testing
import GestureProtocol

/// What a gesture made happen, as the explaining clients see it (docs/protocol.md, "Explain
/// lines"): each binding command that finished is one `binding` line with its command and exit
/// status, through the real daemon and a real tap.
@Suite(.serialized) struct BindingLinesTests {
    @Test func aFinishedCommandIsOneBindingLineWithItsStatus() throws {
        let dir = TempDir()
        let config = try ActionsDaemonTests.config("""
            bindings:
              - gesture: tap
                command: "exit 3"
            """, in: dir)
        let daemon = try ActionsDaemonTests.daemon(config: config, recording: AppFixtures.tap, dir: dir, whenSubscribed: true)
        let explaining = try daemon.connect()
        #expect(isOK(try explaining.request(#"{"request":"explain"}"#)))
        let listener = try daemon.connect()
        #expect(isOK(try listener.request(#"{"request":"subscribe"}"#)))
        let got = try explaining.lines(until: { $0["type"] as? String == "binding" }, timeout: 20)
        let line = try #require(got.last)
        #expect(line["type"] as? String == "binding")
        #expect(line["gesture"] as? String == "tap")
        #expect(line["command"] as? String == "exit 3")
        #expect(line["status"] as? Int == 3)
        #expect(line["steps"] as? Int == 1)
        // Only the clients that asked for explain lines get it.
        var rest: [[String: Any]] = []
        _ = try listener.request(#"{"request":"status"}"#, skipped: &rest)
        #expect(!rest.contains { $0["type"] as? String == "binding" })
    }
}
