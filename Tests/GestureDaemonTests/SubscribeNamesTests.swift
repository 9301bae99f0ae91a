import Foundation
import Testing
import GestureProtocol

/// A subscription that names a gesture or region the config does not define would wait in
/// silence: the daemon refuses it with the nearest name, and `gesturectl listen` says so.
@Suite struct SubscribeNamesTests {
    @Test func anUnknownGestureOrRegionIsAnErrorWithTheNearestName() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        let gesture = json(try daemon.roundTrip(client, #"{"request":"subscribe","gestures":["swipe3"]}"#))
        #expect(gesture["type"] as? String == "error")
        #expect(gesture["message"] as? String == "unknown gesture 'swipe3' (did you mean 'swipe-3'?) (an app's own "
                + "gestures reach that app without a subscription); subscription unchanged")
        let region = json(try daemon.roundTrip(client, #"{"request":"subscribe","regions":["scren"]}"#))
        #expect(region["message"] as? String == "unknown region 'scren' (did you mean 'screen'?); subscription unchanged")
        let far = json(try daemon.roundTrip(client, #"{"request":"subscribe","regions":["volume-strip"]}"#))
        #expect(far["message"] as? String == "unknown region 'volume-strip'; the config's regions: screen; subscription unchanged")
        // Names the config defines are taken.
        #expect(json(try daemon.roundTrip(client, #"{"request":"subscribe","gestures":["swipe-3"],"regions":["screen"]}"#))["ok"] as? Bool == true)
    }

    @Test func listenWithAnUnknownGestureSaysWhichWasMeant() throws {
        let daemon = try DaemonProcess()
        let run = try runBinary("gesturectl", ["listen", "--socket", daemon.socketPath, "--gesture", "duble-tap"], timeout: 20)
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("gesturectl: no gesture 'duble-tap' is configured in the daemon's config (did you mean 'double-tap'?); gestures: tap, double-tap"),
                "\(run.stderr)")
    }
}
