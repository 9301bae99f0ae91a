import Testing
@testable import GestureCore

/// The tap's state machine on its own: every failure it can give, straight from frames.
@Suite("Tap recognizer")
struct TapRecognizerTests {
    let device = DeviceRef(id: 1, name: "d", kind: .touchscreen)

    func ms(_ v: Int64) -> Timestamp { Timestamp(microseconds: v * 1000) }

    /// A touch at (x, y) mm (surface units = mm × 10).
    func touch(_ id: UInt64, _ phase: TouchPhase, _ x: Double, _ y: Double, at t: Int64) -> Touch {
        Touch(id: TouchID(id), phase: phase, location: Point(x: x * 10, y: y * 10),
              physicalLocation: Point(x: x, y: y), time: ms(t), device: device)
    }

    func input(_ touches: Touch..., at t: Int64, clicked: Bool = false, rebased: [TouchID] = []) -> RecognizerInput {
        var marked = touches
        for k in marked.indices where rebased.contains(marked[k].id) { marked[k].originRebased = true }
        var i = RecognizerInput(time: ms(t), touches: marked, surfaceSize: Point(x: 1000, y: 1000),
                                unitsPerMM: Point(x: 10, y: 10))
        i.clicked = clicked
        return i
    }

    @Test("two taps: deadlines tapDuration then tapInterval, recognized at the second lift, location kept")
    func twoTaps() {
        var p = RecognizerParameters()
        p.taps = 2
        var tap = TapRecognizer(p)
        #expect(tap.handle(input(touch(1, .began, 10, 10, at: 0), at: 0), state: .possible) == .none)
        #expect(tap.state == .touching && tap.deadline == ms(500))
        #expect(tap.handle(input(touch(1, .ended, 11, 10, at: 80), at: 80), state: .possible) == .none)
        #expect(tap.state == .betweenTaps && tap.deadline == ms(380))
        #expect(tap.handle(input(touch(2, .began, 12, 10, at: 200), at: 200), state: .possible) == .none)
        #expect(tap.handle(input(touch(2, .ended, 12, 10, at: 260), at: 260), state: .possible)
                == .recognize(.tapsCompleted(2)))
        var e = GestureEvent(gesture: "t", kind: .tap, state: .recognized, time: ms(260), device: "d", region: "r", fingers: 0)
        tap.describe(&e, at: ms(260))
        #expect(e.location == Point(x: 120, y: 100) && e.taps == 2 && e.fingers == 1)
    }

    @Test("failures: next tap too far, too many fingers, moved too far, wrong fingers, held, too late, click")
    func failures() {
        var p = RecognizerParameters()
        p.taps = 2
        var tap = TapRecognizer(p)
        _ = tap.handle(input(touch(1, .began, 10, 10, at: 0), at: 0), state: .possible)
        _ = tap.handle(input(touch(1, .ended, 10, 10, at: 50), at: 50), state: .possible)
        #expect(tap.handle(input(touch(2, .began, 25, 10, at: 200), at: 200), state: .possible)
                == .fail(.nextTapTooFar(15, p.tapDistance)))
        #expect(tap.state == .done && tap.deadline == nil)

        p.taps = 1
        tap = TapRecognizer(p)
        #expect(tap.handle(input(touch(1, .began, 0, 0, at: 0), touch(2, .began, 1, 0, at: 0), at: 0), state: .possible)
                == .fail(.tooManyFingers(2, 1)))
        tap = TapRecognizer(p)
        _ = tap.handle(input(touch(1, .began, 0, 0, at: 0), at: 0), state: .possible)
        #expect(tap.handle(input(touch(1, .moved, 6, 0, at: 10), at: 10), state: .possible) == .fail(.movedTooFar(6, 5)))
        p.fingers = 2
        tap = TapRecognizer(p)
        _ = tap.handle(input(touch(1, .began, 0, 0, at: 0), at: 0), state: .possible)
        #expect(tap.handle(input(touch(1, .ended, 0, 0, at: 40), at: 40), state: .possible) == .fail(.wrongFingers(1, 2)))
        tap = TapRecognizer(p)
        _ = tap.handle(input(touch(4, .began, 0, 0, at: 100), at: 100), state: .possible)
        #expect(tap.fire(at: ms(600), state: .possible) == .fail(.heldTooLong(500, p.tapDuration)))
        p.fingers = 1
        p.taps = 2
        tap = TapRecognizer(p)
        _ = tap.handle(input(touch(1, .began, 0, 0, at: 0), at: 0), state: .possible)
        _ = tap.handle(input(touch(1, .ended, 0, 0, at: 30), at: 30), state: .possible)
        #expect(tap.fire(at: ms(330), state: .possible) == .fail(.nextTapTooLate(p.tapInterval)))
        tap = TapRecognizer(p)
        _ = tap.handle(input(touch(1, .began, 0, 0, at: 0), at: 0), state: .possible)
        #expect(tap.handle(input(touch(1, .stationary, 0, 0, at: 20), at: 20, clicked: true), state: .possible)
                == .fail(.physicalClick))
    }

    @Test("a first-contact jump moves the finger's origin instead of failing the tap")
    func landingJump() {
        var tap = TapRecognizer(RecognizerParameters())
        _ = tap.handle(input(touch(1, .began, 0, 0, at: 0), at: 0), state: .possible)
        #expect(tap.handle(input(touch(1, .moved, 0, 6, at: 10), at: 10, rebased: [TouchID(1)]), state: .possible) == .none)
        #expect(tap.handle(input(touch(1, .moved, 0, 7, at: 20), at: 20), state: .possible) == .none)
        #expect(tap.handle(input(touch(1, .ended, 0, 7, at: 60), at: 60), state: .possible) == .recognize(.tapsCompleted(1)))
    }

    @Test("an event with no transition is reported as a bug, not ignored")
    func impossiblePair() {
        var tap = TapRecognizer(RecognizerParameters())
        #expect(tap.fire(at: ms(10), state: .possible) == .bug(.impossible(InternedString("tap in idle"), InternedString("timeout"))))
        #expect(tap.state == .done)
    }
}
