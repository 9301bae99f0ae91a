import Foundation
import Testing
import GestureCore
import GestureConfig
@testable import GestureDaemon

/// Stepped bindings' progress: boundaries crossed, direction, turning back, axes, units.
@Suite struct StepTrackerTests {
    static func pan(_ x: Double, _ y: Double, _ state: GestureState = .changed) -> GestureEvent {
        GestureEvent(gesture: "p", kind: .pan, state: state, time: .zero, device: "d", region: "screen", fingers: 2,
                     translation: Point(x: x, y: y))
    }

    /// The steps of a sequence of translations, one entry per event.
    static func steps(_ measure: StepMeasure, _ points: [(Double, Double)], unitsPerMM: Point = Point(x: 1, y: 1)) -> [Int] {
        var tracker = StepTracker(measure: measure, unitsPerMM: unitsPerMM)
        return points.map { tracker.update(pan($0.0, $0.1)) }
    }

    @Test func eachBoundaryCrossedIsOneStepWithTheDirectionsSign() {
        // Down the y axis (negative), 8 mm per step: boundaries at -8, -16, -24.
        #expect(Self.steps(.distance(mm: 8, axis: nil), [(0, -3), (0, -7.9), (0, -8.1), (0, -15), (0, -16.5), (0, -30)])
            == [0, 0, -1, 0, -1, -1])
        #expect(Self.steps(.distance(mm: 8, axis: nil), [(0, 5), (0, 8), (0, 17)]) == [0, 1, 1])
    }

    @Test func aQuickMotionOverThreeStepsFiresThreeTimes() {
        #expect(Self.steps(.distance(mm: 8, axis: nil), [(0, 1), (0, 25)]) == [0, 3])
    }

    @Test func turningBackFiresTheOtherSignAfterAWholeStep() {
        // Up to 17 mm (two steps, the last at 16), then back: 15 mm is within the step (nothing),
        // 7.9 mm crosses 8 (-1), -0.5 crosses 0 (-1), trembling around 0 fires nothing more.
        #expect(Self.steps(.distance(mm: 8, axis: nil), [(0, 17), (0, 15), (0, 7.9), (0, -0.5), (0, 0.5), (0, -0.5)])
            == [2, 0, -1, -1, 0, 0])
    }

    @Test func theDominantAxisIsTheFirstToReachABoundaryAndStays() {
        // x reaches 8 mm first; the later, larger y travel no longer counts.
        #expect(Self.steps(.distance(mm: 8, axis: nil), [(3, 1), (9, 4), (10, 30), (17, 30)]) == [0, 1, 0, 1])
        // Both at once: the farther one wins.
        var tracker = StepTracker(measure: .distance(mm: 8, axis: nil))
        #expect(tracker.update(Self.pan(9, -20)) == -2)
        #expect(tracker.axis == .y)
    }

    @Test func aConfiguredAxisIgnoresTheOther() {
        #expect(Self.steps(.distance(mm: 8, axis: .x), [(0, 30), (-9, 30)]) == [0, -1])
    }

    @Test func lengthsAreMillimetresWhateverTheSurfaceUnits() {
        // A surface of 4 px per mm along y: 8 mm are 32 px.
        #expect(Self.steps(.distance(mm: 8, axis: nil), [(0, 31), (0, 33), (0, 66)], unitsPerMM: Point(x: 4, y: 4))
            == [0, 1, 1])
    }

    @Test func pinchStepsAreRatiosOfTheScale() {
        var tracker = StepTracker(measure: .scale(ratio: 0.1))
        func pinch(_ scale: Double) -> Int {
            tracker.update(GestureEvent(gesture: "z", kind: .pinch, state: .changed, time: .zero, device: "d",
                                        region: "screen", fingers: 2, scale: scale))
        }
        #expect(pinch(1.05) == 0)
        #expect(pinch(1.101) == 1)      // ×1.1
        #expect(pinch(1.34) == 2)       // ×1.21, ×1.331
        #expect(pinch(1.0) == -3)       // back through 1.21, 1.1 and 1.0
        #expect(pinch(0.8) == -2)       // 1/1.1 = 0.909, 1/1.21 = 0.826
    }

    @Test func rotationStepsAreAngles() {
        var tracker = StepTracker(measure: .angle(degrees: 15))
        func turn(_ degrees: Double) -> Int {
            tracker.update(GestureEvent(gesture: "r", kind: .rotation, state: .changed, time: .zero, device: "d",
                                        region: "screen", fingers: 2, rotation: degrees * Double.pi / 180))
        }
        #expect(turn(14) == 0)
        #expect(turn(31) == 2)
        #expect(turn(-16) == -3)
    }

    @Test func aHugeJumpIsCapped() {
        #expect(Self.steps(.distance(mm: 0.01, axis: .y), [(0, 1000)]) == [StepTracker.maximumStepsPerEvent])
    }

    @Test func eventsWithoutTheValueDoNothing() {
        var tracker = StepTracker(measure: .scale(ratio: 0.1))
        #expect(tracker.update(Self.pan(0, 100)) == 0)
    }
}
