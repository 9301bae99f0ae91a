import Foundation
import GestureCore
import Testing

/// No recognizer waits for one that waits for it (issue 49 item 5). An app attaches a full-screen
/// region with its own pinch under the default config; the screen's rotation waits for the app's
/// pinch to fail (a keeping region's recognizers go first), so it is no rival of that pinch: a zoom
/// whose fingers also turn (turn ≥ log-scale from the start) is the app's pinch at once, as UIKit gives
/// the subview its pinch. Before, the pinch held its begin for the rotation while the rotation waited
/// for the pinch, and the app got nothing until the fingers lifted.
@Suite struct KeptPinchScenarioTests {
    static func zoomWithATurn(_ kind: DeviceKind) throws -> HandScript {
        var s = HandScript(kind)
        try s.attach(RegionSpec(id: "map"), under: "screen",
                     recognizers: [RecognizerSpec(id: "zoom", kind: .pinch, region: "map")])
        let centre = Point(x: 50, y: 35)
        func at(_ f: Int, _ fraction: Double) -> Point {
            // 30 mm apart, spreading to ×1.5 (ln 1.5 = 23°) while turning 30°: the turn stays ahead.
            let span = 30 * (1 + 0.5 * fraction)
            let a = (30 * fraction) * Double.pi / 180
            let half = Point(x: cos(a) * span / 2, y: sin(a) * span / 2)
            return f == 1 ? centre - half : centre + half
        }
        let p1 = at(1, 0), p2 = at(2, 0)
        s.frame(0, .down(1, p1.x, p1.y), .down(2, p2.x, p2.y))
        s.strokes([1, 2], from: 0, to: 1000) { f, fraction in at(f, fraction) }
        s.frame(1010, .up(1), .up(2))
        s.finish()
        return s
    }

    @Test(arguments: [DeviceKind.touchscreen, .touchpad])
    func aTurningZoomIsTheAppsPinchAtOnceNotAfterTheLift(kind: DeviceKind) throws {
        let s = try Self.zoomWithATurn(kind)
        let zoom = s.gestures.filter { $0.gesture == "zoom" }
        let began = try #require(zoom.first { $0.state == .began }, "\(kind): \(s.summary)")
        // Within the settle time (300 ms on a touchscreen, 150 ms on a touchpad) and some frames.
        #expect(began.time.microseconds <= 400_000, "\(kind): began at \(began.time.microseconds / 1000) ms")
        #expect(zoom.contains { $0.state == .changed })
        #expect(zoom.last?.state == .ended, "\(kind): \(s.summary)")
        // The screen's rotation, which waits for the app's pinch, never begins on the app's touches.
        #expect(!s.gestures.contains { $0.kind == .rotation }, "\(kind): \(s.summary)")
        #expect(!s.explanations.contains { $0.contains("waited until the fingers lifted") }, "\(kind): \(s.explanations.suffix(6))")
    }
}
