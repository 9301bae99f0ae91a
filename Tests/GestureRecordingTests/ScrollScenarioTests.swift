import GestureCore
import Testing

/// Two-finger scrolls as hands make them, beside libinput's (docs/recognizers.md, "Touchpads"): a
/// scroll that pauses and moves again is one scroll (libinput ends a scroll only when the fingers
/// lift, and so does a pan); a scroll whose fingers land and start moving at different times is a
/// scroll, not a pinch or a rotation.
@Suite struct ScrollScenarios {
    private func scroll(_ s: HandScript) -> [GestureEvent] { s.gestures.filter { $0.gesture == "two-finger-pan" } }

    /// One scroll, began once while the fingers were down and ended at their lift, and nothing else
    /// of two fingers.
    /// `pointerFirst`: the first finger may be the pointer before the second lands, a one-finger pan
    /// cancelled when the count rises (docs/recognizers.md, "Touchpads").
    private func expectOneScroll(_ s: HandScript, _ context: Comment, pointerFirst: Bool = false) {
        let lines = scroll(s)
        #expect(lines.first?.state == .began, "\(context): \(s.summary.filter { !$0.contains("changed") })")
        #expect(lines.last?.state == .ended, "\(context): \(s.summary.filter { !$0.contains("changed") })")
        #expect(lines.filter { $0.state == .began }.count == 1, "\(context): \(s.summary.filter { !$0.contains("changed") })")
        #expect(lines.allSatisfy { $0.fingers == 2 }, context)
        #expect(!s.gestures.contains { $0.kind == .pinch || $0.kind == .rotation || $0.kind == .swipe },
                "\(context): \(s.summary.filter { !$0.contains("changed") }) \(s.explanations.filter { $0.hasPrefix("pinch") || $0.hasPrefix("rotate") })")
        let pointer = s.gestures.filter { $0.gesture == "pan" }
        #expect(pointer.isEmpty || (pointerFirst && pointer.last?.state == .cancelled && pointer.allSatisfy { $0.fingers == 1 }),
                "\(context): \(s.summary.filter { !$0.contains("changed") })")
    }

    /// Two fingers scroll 12 mm down, rest `pause` ms (still, or trembling 0.2 mm), then scroll 12 mm
    /// more: one scroll whose translation is the whole 24 mm.
    @Test(arguments: [DeviceKind.touchpad, .touchscreen], [300.0, 1000, 2500])
    func aScrollThatPausesIsOneScroll(kind: DeviceKind, pause: Double) {
        for trembling in [false, true] {
            var s = HandScript(kind)
            s.frame(0, .down(1, 40, 20), .down(2, 60, 20))
            s.strokes([1, 2], from: 0, to: 200) { f, k in Point(x: f == 1 ? 40 : 60, y: 20 + 12 * k) }
            if trembling {
                s.strokes([1, 2], from: 200, to: 200 + pause) { f, k in
                    Point(x: (f == 1 ? 40 : 60) + 0.2 * (k * 10).truncatingRemainder(dividingBy: 2), y: 32)
                }
            }
            s.strokes([1, 2], from: 200 + pause, to: 400 + pause) { f, k in Point(x: f == 1 ? 40 : 60, y: 32 + 12 * k) }
            s.frame(410 + pause, .up(1), .up(2))
            s.finish()
            let context: Comment = "\(kind), \(pause) ms pause\(trembling ? ", trembling" : "")"
            expectOneScroll(s, context)
            #expect(abs((scroll(s).last?.translation?.y ?? 0) - 24) < 0.5, "\(context): \(String(describing: scroll(s).last?.translation))")
        }
    }

    /// The same on a real touchpad: the Synaptics `two-finger-vert-scroll` recording scrolls 2 mm,
    /// rests about 400 ms (its translation changes less than 1 mm), then scrolls 8 mm more. One scroll.
    @Test func aRealScrollThatPausesIsOneScroll() throws {
        let lines = gestures(try replayWithDefaultConfig(Corpus.path("SynPS2 Synaptics TouchPad.two-finger-vert-scroll.events")))
        let scroll = lines.filter { $0.gesture == "two-finger-pan" }
        #expect(scroll.filter { $0.state == .began }.count == 1 && scroll.last?.state == .ended,
                "\(scroll.filter { $0.state != .changed }.map { "\($0.state)@\($0.time.microseconds / 1000)" })")
        #expect(!lines.contains { $0.kind == .pinch || $0.kind == .rotation || $0.kind == .swipe })
        // The pause, inside the scroll: 300 ms or more in which the translation moved under 1 mm,
        // with scrolling before and after it.
        func ms(_ g: GestureEvent) -> Double { Double(g.time.microseconds) / 1000 }
        func apart(_ a: GestureEvent, _ b: GestureEvent) -> Double {
            (a.translation ?? Point(x: 0, y: 0)).distance(to: b.translation ?? Point(x: 0, y: 0))
        }
        var longest = 0.0
        for a in scroll.indices {
            for b in scroll.indices where b > a {
                guard apart(scroll[b], scroll[a]) < 1 else { break }
                if apart(scroll[a], scroll[0]) >= 2 && apart(scroll.last!, scroll[b]) >= 2 {
                    longest = max(longest, ms(scroll[b]) - ms(scroll[a]))
                }
            }
        }
        #expect(longest >= 300, "the longest pause inside the scroll: \(longest) ms")
    }

    /// Two fingers 20 mm apart on a touchpad: the second lands `lag` ms after the first, the first
    /// starts moving at once (the pointer, until the second lands), the second `onset` ms after it landed, then both scroll 20 mm down (or
    /// sideways) in 400 ms: the first finger leads by up to 7 mm meanwhile. A scroll.
    @Test(arguments: [20.0, 60, 120], [0.0, 40, 80])
    func aStaggeredTwoFingerScrollIsAScroll(lag: Double, onset: Double) {
        for sideways in [false, true] {
            var s = HandScript(.touchpad)
            let speed = 20.0 / 400  // mm per ms
            let start2 = lag + onset
            func position(_ f: Int, _ t: Double) -> Point {
                let travelled = max(0, min(20, (t - (f == 1 ? 0 : start2)) * speed))
                let base = f == 1 ? Point(x: 40, y: 20) : (sideways ? Point(x: 40, y: 40) : Point(x: 60, y: 20))
                return sideways ? Point(x: base.x + travelled, y: base.y) : Point(x: base.x, y: base.y + travelled)
            }
            s.frame(0, .down(1, 40, 20))
            var t = 10.0
            var second = false
            while t <= start2 + 400 {
                var changes: [HandScript.Change] = [.move(1, position(1, t).x, position(1, t).y)]
                if t >= lag {
                    changes.append(second ? .move(2, position(2, t).x, position(2, t).y) : .down(2, position(2, t).x, position(2, t).y))
                    second = true
                }
                s.frame(t, changes)
                t += 10
            }
            s.frame(t, .up(1), .up(2))
            s.finish()
            let context: Comment = "second finger \(lag) ms late, moving \(onset) ms after landing\(sideways ? ", sideways" : "")"
            expectOneScroll(s, context, pointerFirst: true)
            let last = scroll(s).last?.translation ?? Point(x: 0, y: 0)
            #expect((sideways ? last.x : last.y) > 12, "\(context): \(last)")
        }
    }

    /// Faster scrolls (100 and 150 mm/s, 40 mm, down and up): the second finger lands `lag` ms late
    /// and starts `onset` ms after landing. The first may be the pointer before the second lands (a
    /// one-finger pan, cancelled when the count rises); then one scroll, no twist. With an onset of
    /// 80 or 120 ms the first finger leads by 8-18 mm before the second moves, turning the pair 20-40°
    /// about the resting one: the second finger joined a motion under way, so a pinch or rotation
    /// measures only once it moves too (docs/recognizers.md, "staggered scroll").
    @Test(arguments: [100.0, 150], [20.0, 60, 120])
    func aFastStaggeredScrollIsAScroll(speed mmPerSecond: Double, lag: Double) {
        for onset in [0.0, 40, 80, 120] {
            for up in [false, true] {
                var s = HandScript(.touchpad)
                let speed = mmPerSecond / 1000
                let start2 = lag + onset
                let top = up ? 55.0 : 10.0
                func position(_ f: Int, _ t: Double) -> Point {
                    let travelled = max(0, min(40, (t - (f == 1 ? 0 : start2)) * speed))
                    return Point(x: f == 1 ? 40 : 60, y: up ? top - travelled : top + travelled)
                }
                s.frame(0, .down(1, 40, top))
                var t = 10.0
                while t <= start2 + 40 / speed {
                    var changes: [HandScript.Change] = [.move(1, 40, position(1, t).y)]
                    if t >= lag { changes.append(t - lag < 10 ? .down(2, 60, position(2, t).y) : .move(2, 60, position(2, t).y)) }
                    s.frame(t, changes)
                    t += 10
                }
                s.frame(t, .up(1), .up(2))
                s.finish()
                let context: Comment = "\(mmPerSecond) mm/s \(up ? "up" : "down"), second finger \(lag) ms late, moving \(onset) ms after landing"
                expectOneScroll(s, context, pointerFirst: true)
                if onset >= 80 && lag <= 60 {
                    // The first finger is still moving when the second lands (within 50 ms, 2 mm along).
                    #expect(s.explanations.contains("rotate: a finger landed beside one already moving: measures once every finger has moved 1 mm"),
                            "\(context): \(s.explanations.filter { $0.hasPrefix("rotate") }.prefix(6))")
                }
            }
        }
    }

    /// The same, the second finger leading: it lands later but starts first (the first rests until
    /// `onset` ms after the second landed).
    @Test(arguments: [20.0, 60, 120], [40.0, 80])
    func aStaggeredScrollWhoseLateFingerLeadsIsAScroll(lag: Double, onset: Double) {
        var s = HandScript(.touchpad)
        let speed = 20.0 / 400
        func position(_ f: Int, _ t: Double) -> Point {
            let travelled = max(0, min(20, (t - (f == 2 ? lag : lag + onset)) * speed))
            return Point(x: f == 1 ? 40 : 60, y: 20 + travelled)
        }
        s.frame(0, .down(1, 40, 20))
        var t = 10.0
        var second = false
        while t <= lag + onset + 400 {
            var changes: [HandScript.Change] = []
            if t >= lag {
                changes.append(second ? .move(2, 60, position(2, t).y) : .down(2, 60, position(2, t).y))
                second = true
                changes.append(.move(1, 40, position(1, t).y))
            }
            if !changes.isEmpty { s.frame(t, changes) }
            t += 10
        }
        s.frame(t, .up(1), .up(2))
        s.finish()
        expectOneScroll(s, "second finger \(lag) ms late and leading by \(onset) ms")
    }
}
