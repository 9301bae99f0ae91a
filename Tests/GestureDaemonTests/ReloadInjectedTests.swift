import Foundation
import Testing
import GestureDaemon
import GesturePosix
import GestureProtocol

/// A reload restarts every device under the new config; a recording fed with `--inject` is a
/// device too, so its open gestures end as cancelled, as a real device's do.
@Suite(.serialized) struct ReloadInjectedTests {
    @Test func aReloadCancelsTheOpenGestureOfAnInjectedRecording() throws {
        let drag = Paths.fixture("EP0430M09.1-finger-drag-up-down.events")
        let daemon = try DaemonProcess(extraArguments: ["--inject", drag, "--inject-when-subscribed"])
        let client = try daemon.connect()
        #expect(json(try daemon.roundTrip(client, #"{"request":"subscribe","kinds":["pan"]}"#))["ok"] as? Bool == true)
        // Wait (bounded) for the drag's pan to begin: the recording starts with the subscription.
        var began = false
        while !began, let line = try client.readLine(timeout: 15_000) {
            began = json(line)["state"] as? String == "began"
        }
        try #require(began, "the injected drag never began a pan; log:\n\(daemon.log)")
        try client.send(#"{"request":"reload"}"#)
        // Everything up to the reload's reply: the pan must be closed by then, and cancelled.
        var states: [String] = []
        var replied = false
        while !replied, let line = try client.readLine(timeout: 15_000) {
            let object = json(line)
            if object["type"] as? String == "response" {
                #expect(object["request"] as? String == "reload")
                replied = true
            } else if let state = object["state"] as? String, state != "changed" {
                states.append(state)
            }
        }
        #expect(replied)
        #expect(states == ["cancelled"], "pan states between the reload request and its reply; log:\n\(daemon.log)")
    }
}
