import Testing
@testable import GestureCore

@Suite("Tap sequence")
struct TapSequenceTests {
    let device = DeviceRef(id: 1, name: "d", kind: .touchscreen)

    func ms(_ v: Int64) -> Timestamp { Timestamp(microseconds: v * 1000) }

    /// A touch at (x, y) mm (surface units = mm × 10).
    func touch(_ id: UInt64, _ phase: TouchPhase, _ x: Double, _ y: Double, at t: Int64) -> Touch {
        Touch(id: TouchID(id), phase: phase, location: Point(x: x * 10, y: y * 10),
              physicalLocation: Point(x: x, y: y), time: ms(t), device: device)
    }

    @Test("two taps: counted, centre kept, deadlines tapDuration then tapInterval")
    func twoTaps() {
        let p = RecognizerParameters()
        var s = TapSequence()
        s.startFrame()
        #expect(s.track(touch(1, .began, 10, 10, at: 0), at: ms(0), p, timed: true, allowed: p.tapMovement) == nil)
        #expect(s.inTap && s.down == 1 && s.deadline == ms(500))
        s.startFrame()
        #expect(s.track(touch(1, .ended, 11, 10, at: 80), at: ms(80), p, timed: true, allowed: p.tapMovement) == nil)
        #expect(s.lifted && s.down == 0)
        #expect(s.finishTap(at: ms(80), p) == nil)
        #expect(s.count == 1 && !s.inTap && s.deadline == ms(380))
        #expect(s.lastTapCenter == Point(x: 10, y: 10) && s.lastTapLocation == Point(x: 100, y: 100))
        s.startFrame()
        #expect(s.track(touch(2, .began, 25, 10, at: 200), at: ms(200), p, timed: true, allowed: p.tapMovement)
                == .fail(.nextTapTooFar(15, p.tapDistance)))
    }

    @Test("failures: too many fingers, movement, wrong fingers, held too long, too late, cancelled")
    func failures() {
        var p = RecognizerParameters()
        var s = TapSequence()
        #expect(s.track(touch(1, .began, 0, 0, at: 0), at: ms(0), p, timed: false, allowed: 3) == nil)
        #expect(s.deadline == nil)
        #expect(s.track(touch(2, .began, 1, 0, at: 0), at: ms(0), p, timed: false, allowed: 3)
                == .fail(.tooManyFingers(2, 1)))
        #expect(s.maxFingers == 2)
        #expect(s.track(touch(1, .moved, 4, 0, at: 10), at: ms(10), p, timed: false, allowed: 3)
                == .fail(.movedTooFar(4, 3)))
        #expect(s.finishTap(at: ms(20), p) == .fail(.wrongFingers(2, 1)))
        #expect(s.count == 0)
        #expect(s.track(touch(3, .cancelled, 0, 0, at: 30), at: ms(30), p, timed: true, allowed: 3)
                == .fail(.touchCancelled))

        p.fingers = 2
        s.reset()
        #expect(s.count == 0 && s.down == 0 && s.deadline == nil)
        _ = s.track(touch(4, .began, 0, 0, at: 100), at: ms(100), p, timed: true, allowed: 5)
        #expect(s.expire(at: ms(600), p) == .fail(.heldTooLong(500, p.tapDuration)))
        #expect(s.deadline == nil)
        s.reset()
        #expect(s.expire(at: ms(1000), p) == .fail(.nextTapTooLate(p.tapInterval)))
    }
}
