import GestureCore
import Testing

/// The libinput rules of issue 50 are a touchpad's (docs/recognizers.md, "Real hands" and "libinput's
/// tests"): each scenario runs on a touchpad and on a touchscreen, where a contact at the edge or at
/// the bottom is meant, a fast flick waits out no more than its motion, and a leading finger is no
/// twist on either.
@Suite struct TouchpadPalmsAndThumbs {
    /// A contact landing 2 mm from the right edge and moving 20 mm down along it.
    static func alongTheEdge(_ kind: DeviceKind) -> HandScript {
        var s = HandScript(kind)
        s.frame(0, .down(1, 98, 20))
        s.strokes([1], from: 0, to: 300) { _, k in Point(x: 98, y: 20 + 20 * k) }
        s.frame(310, .up(1))
        s.finish()
        return s
    }

    @Test func aContactAlongATouchpadsSideEdgeIsAPalm() {
        let s = Self.alongTheEdge(.touchpad)
        #expect(s.gestures.isEmpty, "\(s.summary)")
        #expect(s.explanations.contains { $0.hasSuffix("is a palm: landed in the right palm edge zone with no finger down") },
                "\(s.explanations.prefix(6))")
    }

    @Test func aContactAlongATouchscreensEdgeIsAFinger() {
        let s = Self.alongTheEdge(.touchscreen)
        #expect(s.gestures.contains { $0.kind == .pan && $0.fingers == 1 && $0.state == .ended }, "\(s.summary)")
    }

    /// Two fingers scroll up from the pad's middle; a third contact lands 3 mm from the bottom edge,
    /// 40 mm below them, while they move.
    static func scrollWithALateLowContact(_ kind: DeviceKind) -> HandScript {
        var s = HandScript(kind)
        let bottom = s.size.y - 3
        s.frame(0, .down(1, 40, 30), .down(2, 55, 30))
        s.frame(20, .down(3, 50, bottom))
        s.strokes([1, 2], from: 20, to: 320) { f, k in Point(x: f == 1 ? 40 : 55, y: 30 - 20 * k) }
        s.frame(330, .up(1), .up(2), .up(3))
        s.finish()
        return s
    }

    @Test func aThumbLandingLastOnATouchpadIsNoThirdFinger() {
        let s = Self.scrollWithALateLowContact(.touchpad)
        #expect(s.gestures.allSatisfy { $0.gesture == "two-finger-pan" && $0.fingers == 2 }, "\(s.summary)")
        #expect(s.gestures.first?.state == .began, "\(s.summary)")
        #expect(s.explanations.contains { $0.contains("is a thumb: landed 3 mm from the bottom edge") },
                "\(s.explanations.filter { $0.hasPrefix(": ") })")
    }

    @Test func aLowContactLandingLastOnATouchscreenIsAFinger() {
        let s = Self.scrollWithALateLowContact(.touchscreen)
        #expect(!s.explanations.contains { $0.contains("is a thumb") }, "\(s.explanations.filter { $0.hasPrefix(": ") })")
        #expect(!s.gestures.contains { $0.gesture == "two-finger-pan" && $0.fingers == 2 && $0.state == .ended },
                "the third finger is part of the gesture: \(s.summary)")
    }
}
