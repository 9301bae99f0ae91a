import Foundation
import GestureCore
import GestureConfig
import Testing

/// Each family of generated two-finger hands (HandFamilyGenerator.swift) gives its gesture and no
/// other under the default config, on a real touchscreen's and a real touchpad's description, at
/// every speed and span: turns are the rotation (a turn while zooming may also be the pinch: the
/// default config runs them simultaneously), a zoom the pinch, a drag and a scroll whose first finger
/// leads the two-finger pan. With an app's full-screen rotation and pinch attached, the app gets the
/// turns and zooms while the fingers are down, and the screen's pan the drags.
///
/// Not yet covered (issue 56, open): on the touchscreen, a pivot whose finger is dragged along and a
/// turn-and-drag on the narrow span still fail. The rotation's begin is held while the fingers
/// settle (300 ms) and checked again when released, when its turn (< 24°) no longer leads the
/// common motion: it fails for good ("not a rotation: the fingers moved 3.3 mm together, 2.4 mm
/// around") instead of tracking on until the turn is wide; and on the narrow span the pan's 3 mm
/// come before the rotation's 8°. `cases` leaves those two families out on the touchscreen.
@Suite struct HandFamilyTests {
    static let cases = HandFamily.all().filter {
        !($0.device == .touchscreen && ($0.motion == .pivot || $0.motion == .turnAndDrag))
    }

    static func expected(_ motion: HandFamily.Motion) -> (gesture: String, allowed: Set<String>) {
        switch motion {
        case .pivot, .bothTurning, .turnAndDrag: ("rotate", ["rotate"])
        case .turnAndZoom: ("rotate", ["rotate", "pinch"])
        case .zoom: ("pinch", ["pinch"])
        case .drag, .leadingFingerScroll: ("two-finger-pan", ["two-finger-pan"])
        }
    }

    @Test(arguments: HandFamilyTests.cases)
    func eachFamilyGivesItsGestureAndNoOther(hand: HandFamily) throws {
        let lines = try hand.replay()
        let (want, allowed) = Self.expected(hand.motion)
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
        let want: String = switch hand.motion {
        case .pivot, .bothTurning, .turnAndDrag, .turnAndZoom: "app-turn"
        case .zoom: "app-zoom"
        case .drag, .leadingFingerScroll: "two-finger-pan"
        }
        #expect(began.first == want, "\(hand.testDescription): \(began)")
        // The app's recognizers and the screen's never both hold these fingers.
        #expect(!(began.contains { $0.hasPrefix("app-") } && began.contains { !$0.hasPrefix("app-") }),
                "\(hand.testDescription): \(began)")
    }
}

