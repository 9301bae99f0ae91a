import Foundation
import Testing
import GestureCore
@testable import GestureTuning

@Suite struct ThresholdFitTests {
    /// Taps moving 1–2 mm, one-finger pans travelling 8 and 12 mm.
    static let tapsAndPans = [
        sample("t1", "tap", [finger(100, 100, to: 101, 100, from: 0, until: 80)]),
        sample("t2", "tap", [finger(100, 100, to: 102, 100, from: 0, until: 90)]),
        sample("p1", "pan", [finger(100, 100, to: 108, 100, from: 0, until: 300)]),
        sample("p2", "pan", [finger(100, 100, to: 112, 100, from: 0, until: 300)]),
    ]

    @Test func aThresholdBetweenRivalsGoesToTheMiddleOfTheGap() {
        let config = configuration([spec("tap", .tap), spec("pan", .pan)])
        let result = ThresholdFit.fit(config, samples: Self.tapsAndPans, judge: modelJudge(Self.tapsAndPans))
        let pan = result.proposals.first { $0.gesture == "pan" && $0.parameter == .panThreshold }!
        #expect(pan.outcome == .changed)
        #expect(pan.proposed == 4, "between the taps' 2 mm and the pans' 8 mm, √(2 × 8): \(pan)")
        #expect(pan.margin == 4)
        let tap = result.proposals.first { $0.gesture == "tap" && $0.parameter == .tapMovement }!
        // Movement leaves out the report where the finger lifts: 1.8 mm and 7.7 mm, middle 3.7 mm.
        #expect(tap.proposed == 3.7 && tap.outcome == .changed, "\(tap)")
        #expect(result.rightAfter == [true, true, true, true])
        #expect(result.configuration.recognizers[1].parameters.panThreshold == 4)
    }

    @Test func overlappingGesturesAreAConflictNotAThreshold() {
        let samples = [
            sample("tap3", "tap-3", (0..<3).map { finger(100 + 10 * Double($0), 100, to: 106 + 10 * Double($0), 100, from: 0, until: 90) }),
            sample("sw", "swipe-3", (0..<3).map { finger(100 + 10 * Double($0), 100, to: 105 + 10 * Double($0), 100, from: 0, until: 200) }),
        ]
        let config = configuration([spec("tap-3", .tap, fingers: 3) { $0.tapMovement = 8 }, spec("swipe-3", .swipe, fingers: 3)])
        let result = ThresholdFit.fit(config, samples: samples, judge: modelJudge(samples))
        let distance = result.proposals.first { $0.parameter == .swipeDistance }!
        #expect(distance.outcome == .conflict && distance.proposed == 10)
        let conflict = result.conflicts.first { $0.parameter == .swipeDistance }
        #expect(conflict?.message.hasPrefix("your tap-3 samples travel as far as your swipe-3 samples (tap-3 up to 6 mm, swipe-3 from 5 mm)") == true,
                "\(String(describing: conflict?.message))")
        #expect(result.configuration == config)
    }

    @Test func aValueOutsideTheSaneRangeIsClampedAndSaid() {
        let samples = [sample("s", "swipe", [finger(100, 100, to: 102, 100, from: 0, until: 100)])]
        let config = configuration([spec("swipe", .swipe)])
        let result = ThresholdFit.fit(config, samples: samples, judge: modelJudge(samples))
        let distance = result.proposals.first { $0.parameter == .swipeDistance }!
        #expect(distance.fitted == 1.6)
        #expect(distance.proposed == 3)
        #expect(distance.notes.contains { $0.hasPrefix("clamped to the sane range 3 mm…100 mm") })
    }

    @Test func lengthsStayAtTwiceTheDeviceNoise() {
        // A device declaring 2 mm of fuzz: the floor is 4 mm, although the gap between taps
        // (0.5 mm) and pans (3 mm) would put the pan threshold at √(0.5 × 3) mm.
        func noisy(_ name: String, _ label: String, _ f: FingerTrack) -> TuningSample {
            let t = SampleTrace(deviceKind: .touchscreen, surfaceWidth: 300, surfaceHeight: 200, declaredFuzz: 2, fingers: [f])
            return TuningSample(name: name, label: label, measurements: SampleMeasurements(t), deviceKind: .touchscreen)
        }
        let samples = [noisy("t", "tap", finger(100, 100, to: 100.5, 100, from: 0, until: 150)),
                       noisy("p", "pan", finger(100, 100, to: 103, 100, from: 0, until: 400))]
        let config = configuration([spec("tap", .tap), spec("pan", .pan)])
        let result = ThresholdFit.fit(config, samples: samples, judge: { _, i in i.map { samples[$0].label == "tap" ? ["tap"] : ["pan"] } })
        #expect(result.noiseFloor == 4)
        let pan = result.proposals.first { $0.parameter == .panThreshold }!
        #expect(abs(pan.fitted! - 1.5.squareRoot()) < 1e-9, "\(pan)")
        #expect(pan.proposed == 4)
        #expect(pan.notes == ["raised to the noise floor 4 mm (twice the device's noise)",
                              "your pan samples reach less than the noise floor"])
        let tap = result.proposals.first { $0.parameter == .tapMovement }!
        #expect(tap.proposed == 4 && tap.notes.first?.hasPrefix("raised to the noise floor") == true, "\(tap)")
    }

    @Test func aChangeThatWouldMakeARightSampleWrongIsNotMade() {
        let samples = Self.tapsAndPans
        let config = configuration([spec("tap", .tap), spec("pan", .pan)])
        // A replay in which p1 is right only with today's pan threshold.
        let judge: ThresholdFit.Judge = { c, indices in
            indices.map { i in i != 2 || c.recognizers[1].parameters.panThreshold == 3 ? [samples[i].label] : [] }
        }
        let result = ThresholdFit.fit(config, samples: samples, judge: judge)
        let pan = result.proposals.first { $0.parameter == .panThreshold }!
        #expect(pan.outcome == .wouldBreak(["p1"]))
        #expect(pan.proposed == 3)
        #expect(result.configuration.recognizers[1].parameters.panThreshold == 3)
        #expect(result.rightAfter == result.rightBefore)
    }

    @Test func theFitIsDeterministicAndNeverLeavesTheSaneRanges() {
        // Pseudo-random hands (a fixed generator): strokes from 0.2 mm to 300 mm, 10 ms to 5 s.
        var seed: UInt64 = 41
        func next() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
        let config = configuration([spec("tap", .tap), spec("double", .tap) { $0.taps = 2 }, spec("pan", .pan),
                                    spec("swipe", .swipe, fingers: 2), spec("press", .longPress),
                                    spec("pinch", .pinch), spec("edge", .edgePan)])
        for _ in 0..<40 {
            var samples: [TuningSample] = []
            for (n, label) in ["tap", "double", "pan", "swipe", "press", "pinch", "edge", "none"].enumerated() {
                let length = 0.2 * pow(1500, next()), time = 10 * pow(500, next())
                let x = 1 + 298 * next()
                var fingers = [finger(x, 100, to: x + length, 100, from: 0, until: time, jitter: next())]
                if label == "swipe" || label == "pinch" {
                    fingers.append(finger(x + 15, 100, to: x + 15 + length * (label == "pinch" ? 2 : 1), 100, from: 0, until: time))
                }
                if label == "double" { fingers.append(finger(x, 100, to: x, 100, from: time + 700 * next(), until: 2 * time + 700)) }
                samples.append(sample("\(label)\(n)", label, fingers))
            }
            let judge = modelJudge(samples)
            let first = ThresholdFit.fit(config, samples: samples, judge: judge)
            let second = ThresholdFit.fit(config, samples: samples, judge: judge)
            #expect(first.proposals == second.proposals)
            for p in first.proposals where p.outcome == .changed {
                #expect(p.parameter.saneRange.contains(p.proposed), "\(p.gesture) \(p.parameter.key) \(p.proposed)")
            }
            for (before, after) in zip(first.rightBefore, first.rightAfter) where before { #expect(after) }
        }
    }
}
