import Foundation
import GestureCore
@testable import GestureTuning

enum Fixture {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static func path(_ name: String) -> String { root + "/Tests/Fixtures/" + name }
}

/// A finger from (x0, y0) to (x1, y1) over [t0, t1] ms, one point every 10 ms.
func finger(_ x0: Double, _ y0: Double, to x1: Double, _ y1: Double, from t0: Double, until t1: Double,
            jitter: Double = 0) -> FingerTrack {
    var points: [FingerTrack.Point] = []
    var t = t0
    var k = 0
    while t <= t1 {
        let f = t1 > t0 ? (t - t0) / (t1 - t0) : 1
        let wobble = k % 2 == 0 ? jitter : -jitter
        points.append(.init(time: t, x: x0 + (x1 - x0) * f + wobble, y: y0 + (y1 - y0) * f))
        t += 10
        k += 1
    }
    return FingerTrack(points: points)
}

func trace(_ fingers: [FingerTrack], kind: DeviceKind = .touchscreen) -> SampleTrace {
    SampleTrace(deviceKind: kind, surfaceWidth: 300, surfaceHeight: 200, declaredFuzz: 0, fingers: fingers)
}

func sample(_ name: String, _ label: String, _ fingers: [FingerTrack], kind: DeviceKind = .touchscreen) -> TuningSample {
    TuningSample(name: name, label: label, measurements: SampleMeasurements(trace(fingers, kind: kind)), deviceKind: kind)
}

/// A judge that stands in for a replay: a sample is right when its measures meet every threshold
/// of its gesture and no rival gesture's (a `none` sample: no gesture's).
func modelJudge(_ samples: [TuningSample]) -> ThresholdFit.Judge {
    { configuration, indices in
        indices.map { i in
            let s = samples[i]
            func meets(_ spec: RecognizerSpec) -> Bool {
                guard ThresholdFit.takes(spec, fingers: s.measurements.fingers) else { return false }
                return TunableParameter.parameters(of: spec.kind).allSatisfy { p in
                    guard p.applies(to: spec, on: s.deviceKind), let v = p.measure(s.measurements, spec: spec) else { return true }
                    let t = p.value(in: spec.parameters)
                    return p.sense == .atLeast ? v >= t : v <= t
                }
            }
            let hits = configuration.recognizers.filter(meets).map(\.id)
            // Two gestures meeting their thresholds on one sample: the first excludes the other.
            return Array(hits.prefix(1))
        }
    }
}

func spec(_ id: String, _ kind: RecognizerKind, fingers: Int = 1, _ change: (inout RecognizerParameters) -> Void = { _ in })
    -> RecognizerSpec {
    var p = RecognizerParameters()
    p.fingers = fingers
    p.directions = Set(SwipeDirection.allCases)
    p.swipeStyle = .discrete
    change(&p)
    return RecognizerSpec(id: id, kind: kind, region: "screen", parameters: p)
}

func configuration(_ specs: [RecognizerSpec]) -> EngineConfiguration {
    EngineConfiguration(root: RegionSpec(id: "screen"), recognizers: specs)
}
