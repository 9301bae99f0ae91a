import Testing
import GestureCore
@testable import GestureTuning

@Suite struct SampleLabelTests {
    @Test func theLabelIsTheLastDottedPartBeforeTheExtension() {
        #expect(SampleLabel.label(ofFile: "/x/anything.swipe-3.evemu") == "swipe-3")
        #expect(SampleLabel.label(ofFile: "AlpsPS2 ALPS GlidePoint.single-tap.tap.events") == "tap")
        #expect(SampleLabel.label(ofFile: "a.b.none.yaml") == "none")
        #expect(SampleLabel.label(ofFile: "try.evemu") == nil)
        #expect(SampleLabel.label(ofFile: "a.tap.desc") == nil)
        #expect(SampleLabel.label(ofFile: "a..evemu") == nil)
    }
}

@Suite struct MeasurementTests {
    @Test func aStillTapHasItsJitterAsMovementAndOnePress() {
        let m = SampleMeasurements(trace([finger(100, 100, to: 100, 100, from: 0, until: 80, jitter: 0.2)]))
        #expect(m.fingers == 1)
        #expect(m.presses.count == 1)
        #expect(m.duration == 80)
        #expect(abs(m.movement - 0.4) < 1e-9)
        #expect(m.travel < 0.5)
        #expect(abs(m.jitter - 0.2) < 0.05)
        #expect(m.largestInterval == nil)
    }

    @Test func aStrokeHasItsTravelDirectionAndTime() {
        let m = SampleMeasurements(trace([finger(100, 100, to: 130, 110, from: 0, until: 300)]))
        #expect(abs(m.travel - (900.0 + 100).squareRoot()) < 1e-6)
        #expect(abs(m.offAxis - 18.43) < 0.01)
        let t = m.time(toTravel: 10)
        #expect(t != nil && t! >= 90 && t! <= 100, "\(String(describing: t))")
        #expect(m.time(toTravel: 40) == nil)
        #expect(m.edgeDistances["left"] == 100 && m.edgeDistances["right"] == 200 && m.edgeDistances["bottom"] == 100)
    }

    @Test func twoPressesGiveTheIntervalAndDistanceBetweenThem() {
        let m = SampleMeasurements(trace([finger(100, 100, to: 100, 100, from: 0, until: 60),
                                          finger(103, 104, to: 103, 104, from: 260, until: 320)]))
        #expect(m.presses.count == 2)
        #expect(m.largestInterval == 200)
        #expect(m.largestPressDistance == 5)
        #expect(m.longestPress == 60)
    }

    @Test func twoFingersSpreadingAndTurningGiveSpanChangeAndTurn() {
        let spread = SampleMeasurements(trace([finger(90, 100, to: 80, 100, from: 0, until: 200),
                                               finger(110, 100, to: 120, 100, from: 0, until: 200)]))
        #expect(spread.fingers == 2)
        #expect(abs(spread.initialSpan - 20) < 1e-9)
        #expect(abs(spread.spanChange - 20) < 1e-6)
        #expect(spread.turn < 1e-6)
        #expect(spread.travel < 1e-6)
        // A quarter turn: each finger goes a quarter round the centre (in straight steps).
        let turn = SampleMeasurements(trace([finger(90, 100, to: 100, 90, from: 0, until: 100),
                                             finger(110, 100, to: 100, 110, from: 0, until: 100)]))
        #expect(abs(turn.turn - 90) < 1e-6, "\(turn.turn)")
    }

    @Test func theLandingSpreadIsTheTimeBetweenTheFirstAndLastFingerOfAPress() {
        let m = SampleMeasurements(trace([finger(90, 100, to: 90, 100, from: 0, until: 200),
                                          finger(110, 100, to: 110, 100, from: 70, until: 200)]))
        #expect(m.presses.count == 1)
        #expect(m.presses[0].landingSpread == 70)
        #expect(m.presses[0].fingers == 2)
    }
}
