import Foundation
@testable import GestureCore
import GestureConfig
import Testing

/// Each family of generated two-finger hands (HandFamilyGenerator.swift) gives its gesture and no
/// other under the default config, on a real touchscreen's and a real touchpad's description, at
/// every speed and span: turns are the rotation (a turn while zooming may also be the pinch: the
/// default config runs them simultaneously), a zoom the pinch, a drag and a scroll whose first finger
/// leads the two-finger pan. With an app's full-screen rotation and pinch attached, the app gets the
/// turns and zooms while the fingers are down, and the screen's pan the drags.
///
/// A turn while dragging whose fingers move together at least twice as far as around (the narrow
/// span on the touchscreen: `HandFamily.isPanLike`) is a pan by the pan's own rule, and the pan's
/// 3 mm come before the wide turn: under the default config it is the two-finger pan (the first to
/// begin wins). With the app's rotation kept, the screen's pan waits for it at most `holdLimit` past
/// settling: the app gets the turn if it is wide by then, else the pan goes on (docs/recognizers.md,
/// "A wide turn is a rotation").
@Suite struct HandFamilyTests {
    static let cases = HandFamily.all()

    static func expected(_ hand: HandFamily) -> (gesture: String, allowed: Set<String>) {
        switch hand.motion {
        case .turnAndDrag where hand.isPanLike: ("two-finger-pan", ["two-finger-pan"])
        case .pivot, .bothTurning, .turnAndDrag: ("rotate", ["rotate"])
        case .turnAndZoom: ("rotate", ["rotate", "pinch"])
        case .zoom: ("pinch", ["pinch"])
        case .drag, .leadingFingerScroll, .leadingAlongLine: ("two-finger-pan", ["two-finger-pan"])
        }
    }

    /// With the app's rotation kept: a pan-like turn and drag is the app's if its turn is wide before
    /// the screen's pan stops waiting (settling, then `holdLimit`).
    static func appExpected(_ hand: HandFamily) -> String {
        switch hand.motion {
        case .turnAndDrag where hand.isPanLike:
            let wide = RotationMeasure.wideTurnFactor * RecognizerParameters().rotationThreshold
            let bound = hand.settleEnd + EngineLane.holdLimit(for: hand.device == .touchpad ? .touchpad : .touchscreen)
            return (hand.timeToTurn(wide) ?? .infinity) < bound ? "app-turn" : "two-finger-pan"
        case .pivot, .bothTurning, .turnAndDrag, .turnAndZoom: return "app-turn"
        case .zoom: return "app-zoom"
        case .drag, .leadingFingerScroll, .leadingAlongLine: return "two-finger-pan"
        }
    }

    @Test(arguments: HandFamilyTests.cases)
    func eachFamilyGivesItsGestureAndNoOther(hand: HandFamily) throws {
        let lines = try hand.replay()
        let (want, allowed) = Self.expected(hand)
        let began = lines.filter { $0.state == .began || $0.state == .recognized }.map(\.gesture)
        #expect(began.contains(want), "\(hand.testDescription): \(began)")
        #expect(Set(began).isSubset(of: allowed), "\(hand.testDescription): \(began)")
        let mine = lines.filter { $0.gesture == want }
        #expect(mine.last?.state == .ended, "\(hand.testDescription): \(mine.last?.state.rawValue ?? "none")")
    }

    @Test(arguments: HandFamilyTests.cases)
    func withAnAppsRotationAndPinchTheAppGetsTheTurnsAndZooms(hand: HandFamily) throws {
        let lines = try hand.replay(attach: [
            RecognizerSpec(id: "app-turn", kind: .rotation, region: "app"),
            RecognizerSpec(id: "app-zoom", kind: .pinch, region: "app"),
        ])
        let began = lines.filter { $0.state == .began }.map(\.gesture)
        let want = Self.appExpected(hand)
        #expect(began.first == want, "\(hand.testDescription): \(began)")
        // The app's recognizers and the screen's never both hold these fingers.
        #expect(!(began.contains { $0.hasPrefix("app-") } && began.contains { !$0.hasPrefix("app-") }),
                "\(hand.testDescription): \(began)")
    }
}

