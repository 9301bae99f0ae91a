import GestureCore

/// One labelled sample, measured.
public struct TuningSample: Sendable, Hashable {
    /// The file it came from (for reports).
    public var name: String
    /// A gesture id of the config, or `none` (`SampleLabel`).
    public var label: String
    public var measurements: SampleMeasurements
    public var deviceKind: DeviceKind

    public init(name: String, label: String, measurements: SampleMeasurements, deviceKind: DeviceKind) {
        self.name = name
        self.label = label
        self.measurements = measurements
        self.deviceKind = deviceKind
    }
}

/// What the fit decided for one threshold of one gesture.
public struct ThresholdProposal: Sendable, Hashable {
    public enum Outcome: Sendable, Hashable {
        /// Today's value already fits the samples with no rival to centre it between: kept.
        case kept
        /// Changed to `proposed`.
        case changed
        /// The gesture's samples and a rival's overlap on this measure: kept, and said (`conflict`).
        case conflict
        /// The value fitted would make these samples, right today, wrong: kept.
        case wouldBreak([String])
    }

    public var gesture: String
    public var parameter: TunableParameter
    public var current: Double
    /// The value the fit settled on (equal to `current` unless `outcome` is `changed`).
    public var proposed: Double
    /// The value the measurements asked for, before the sane range and the noise floor (nil when kept as is).
    public var fitted: Double?
    public var outcome: Outcome
    /// The gesture's own samples on the measure (sample name, value).
    public var own: [Measured]
    /// The rivals' samples on the measure.
    public var rivals: [Measured]
    /// Said about the value: clamped to the sane range, raised to the noise floor, a conflict.
    public var notes: [String]

    public struct Measured: Sendable, Hashable {
        public var sample: String
        public var label: String
        public var value: Double
    }

    /// The smallest distance from the settled value to the gesture's own samples' edge (positive:
    /// every own sample is on the right side), in the parameter's unit.
    public var margin: Double? {
        guard !own.isEmpty else { return nil }
        switch parameter.sense {
        case .atLeast: return own.map(\.value).min()! - proposed
        case .atMost: return proposed - own.map(\.value).max()!
        }
    }
}

/// A pair of gestures no threshold can tell apart on the user's samples.
public struct TuningConflict: Sendable, Hashable {
    public var gesture: String
    public var rival: String
    public var parameter: TunableParameter
    /// "your tap-3 samples travel as far as your swipe-3 samples (tap-3 up to 6.1 mm, swipe-3 from 4.2 mm)".
    public var message: String
}

/// The fit's whole answer.
public struct TuningResult: Sendable {
    /// The configuration with every accepted change.
    public var configuration: EngineConfiguration
    public var proposals: [ThresholdProposal]
    public var conflicts: [TuningConflict]
    /// The noise floor used (mm): twice the device noise, measured from still fingers.
    public var noiseFloor: Double
    /// Per sample (in the order given), right with today's config and with the tuned one.
    public var rightBefore: [Bool]
    public var rightAfter: [Bool]

    public var changes: [ThresholdProposal] { proposals.filter { $0.outcome == .changed } }
}

/// Fits a configuration's thresholds to labelled samples. Deterministic: the same samples and
/// config give the same answer. Pure: whether a sample is right under a configuration is asked of
/// `judge` (the daemon replays the sample through it), everything else is arithmetic on the
/// measurements.
///
/// For each gesture with samples, in config order, and each of its thresholds (`TunableParameter`):
/// 1. the gesture's own samples and its *rivals'* (samples of the gestures this threshold tells it
///    apart from, with a finger count the gesture takes; and, for a threshold to reach, the `none`
///    samples) are measured on what the threshold is compared with;
/// 2. with rivals on the other side, the value is the middle of the gap between the two groups
///    on a ratio scale (the geometric mean: the widest margin in proportion); when the groups overlap the value is kept and the overlap is a conflict;
///    with no rival, a value that fits every own sample is kept, else it moves past the gesture's
///    farthest sample by a quarter (reach: ÷ 1.25, stay under: × 1.25);
/// 3. a length the device noise could cross is raised to twice the noise; the value is clamped to
///    the sane range and rounded (0.1 mm, 1 ms, 0.5°); each is said;
/// 4. the change is kept only when replaying every sample through it makes no sample that was right wrong.
public enum ThresholdFit {
    /// The gestures each sample of `indices` gives under `configuration` (those that began or were
    /// recognized, in order).
    public typealias Judge = (_ configuration: EngineConfiguration, _ indices: [Int]) -> [[String]]

    /// Right: a gesture's sample gave its gesture; a `none` sample gave none.
    public static func isRight(label: String, gave gestures: [String]) -> Bool {
        label == SampleLabel.none ? gestures.isEmpty : gestures.contains(label)
    }

    /// Whether each sample of `indices` is right under `configuration`.
    public static func verdicts(_ judge: Judge, _ configuration: EngineConfiguration, _ samples: [TuningSample],
                                _ indices: [Int]) -> [Bool] {
        zip(indices, judge(configuration, indices)).map { isRight(label: samples[$0].label, gave: $1) }
    }

    public static func fit(_ configuration: EngineConfiguration, samples: [TuningSample],
                           using indices: [Int]? = nil, judge: Judge) -> TuningResult {
        let used = indices ?? Array(samples.indices)
        let noiseFloor = 2 * noise(of: used.map { samples[$0] })
        var working = configuration
        var gave = judge(configuration, used)
        let before = zip(used, gave).map { isRight(label: samples[$0].label, gave: $1) }
        var right = before
        var proposals: [ThresholdProposal] = []
        var conflicts: [TuningConflict] = []
        for r in working.recognizers.indices {
            let id = working.recognizers[r].id
            let own = used.filter { samples[$0].label == id }
            guard let kind = own.first.map({ samples[$0].deviceKind }) else { continue }
            for parameter in TunableParameter.parameters(of: working.recognizers[r].kind)
            where parameter.applies(to: working.recognizers[r], on: kind) {
                // A sample read today as another gesture than its own (and not this one) is wrong
                // for a reason this threshold does not decide: it is no rival. (The gesture's own
                // samples all count: one read as a rival is what a conflict is made of.)
                let considered = used.indices.filter { k in
                    right[k] || samples[used[k]].label == id || gave[k].isEmpty || gave[k].contains(id)
                }.map { used[$0] }
                var proposal = propose(parameter, spec: working.recognizers[r], configuration: working,
                                       samples: samples, indices: considered, noiseFloor: noiseFloor)
                if proposal.outcome == .conflict {
                    conflicts += conflictsOf(proposal)
                }
                if proposal.outcome == .changed {
                    var candidate = working
                    parameter.set(proposal.proposed, in: &candidate.recognizers[r].parameters)
                    let candidateGave = judge(candidate, used)
                    let verdicts = zip(used, candidateGave).map { isRight(label: samples[$0].label, gave: $1) }
                    let broken = used.indices.filter { right[$0] && !verdicts[$0] }.map { samples[used[$0]].name }
                    if broken.isEmpty {
                        working = candidate
                        right = verdicts
                        gave = candidateGave
                    } else {
                        proposal.outcome = .wouldBreak(broken)
                        proposal.proposed = proposal.current
                    }
                }
                proposals.append(proposal)
            }
        }
        return TuningResult(configuration: working, proposals: proposals, conflicts: conflicts,
                            noiseFloor: noiseFloor, rightBefore: before, rightAfter: right)
    }

    /// Left-one-out: for each sample, the fit on all the others, then that sample judged under it.
    /// A threshold fitted to a sample is not counted as learned.
    public static func leaveOneOut(_ configuration: EngineConfiguration, samples: [TuningSample],
                                   judge: Judge) -> [Bool] {
        samples.indices.map { left in
            let rest = samples.indices.filter { $0 != left }
            let tuned = fit(configuration, samples: samples, using: rest, judge: judge).configuration
            return verdicts(judge, tuned, samples, [left])[0]
        }
    }

    /// The device noise of samples (mm): the median of their still fingers' jitter, or the
    /// largest fuzz a device declares when that is more.
    public static func noise(of samples: [TuningSample]) -> Double {
        let jitter = SampleMeasurements.median(samples.map(\.measurements.jitter))
        return max(jitter, samples.map(\.measurements.declaredFuzz).max() ?? 0)
    }

    /// Whether a sample with this many fingers could be the gesture's.
    static func takes(_ spec: RecognizerSpec, fingers: Int) -> Bool {
        let p = spec.parameters
        switch spec.kind {
        case .tap, .longPress, .swipe: return fingers == p.fingers
        case .pan, .edgePan: return fingers >= p.minimumFingers && fingers <= p.maximumFingers
        case .pinch, .rotation: return fingers >= 2
        }
    }

    static func round(_ value: Double, _ unit: TunableParameter.Unit) -> Double {
        switch unit {
        case .mm: return (value * 10).rounded() / 10
        case .ms: return value.rounded()
        case .deg: return (value * 2).rounded() / 2
        }
    }

    /// One threshold's proposal, before the replay check.
    public static func propose(_ parameter: TunableParameter, spec: RecognizerSpec, configuration: EngineConfiguration,
                               samples: [TuningSample], indices: [Int], noiseFloor: Double) -> ThresholdProposal {
        let kinds = Dictionary(configuration.recognizers.map { ($0.id, $0.kind) }, uniquingKeysWith: { a, _ in a })
        var own: [ThresholdProposal.Measured] = []
        var rivals: [ThresholdProposal.Measured] = []
        for i in indices {
            let sample = samples[i]
            guard let value = parameter.measure(sample.measurements, spec: spec) else { continue }
            let measured = ThresholdProposal.Measured(sample: sample.name, label: sample.label, value: value)
            if sample.label == spec.id {
                own.append(measured)
            } else if takes(spec, fingers: sample.measurements.fingers) {
                let isRival = sample.label == SampleLabel.none
                    ? parameter.noneSamplesCompete
                    : kinds[sample.label].map { parameter.rivalKinds.contains($0) } ?? false
                if isRival { rivals.append(measured) }
            }
        }
        let current = parameter.value(in: spec.parameters)
        var proposal = ThresholdProposal(gesture: spec.id, parameter: parameter, current: current, proposed: current,
                                         fitted: nil, outcome: .kept, own: own, rivals: rivals, notes: [])
        guard !own.isEmpty else { return proposal }
        let ownValues = own.map(\.value), rivalValues = rivals.map(\.value)
        var target: Double?
        switch parameter.sense {
        case .atLeast:
            let lowest = ownValues.min()!
            if let highest = rivalValues.max() {
                if highest >= lowest { proposal.outcome = .conflict; return proposal }
                target = middle(highest, lowest)
            } else if current > lowest {
                target = lowest / 1.25
            }
        case .atMost:
            let highest = ownValues.max()!
            if let lowest = rivalValues.min() {
                if lowest <= highest { proposal.outcome = .conflict; return proposal }
                target = middle(highest, lowest)
            } else if current < highest {
                target = highest * 1.25
            }
        }
        guard let fitted = target else { return proposal }
        proposal.fitted = fitted
        var value = fitted
        if parameter.isFlooredByNoise && value < noiseFloor {
            value = noiseFloor
            proposal.notes.append("raised to the noise floor \(text(noiseFloor, .mm)) (twice the device's noise)")
            if parameter.sense == .atLeast && value > ownValues.min()! {
                proposal.notes.append("your \(spec.id) samples reach less than the noise floor")
            }
        }
        let range = parameter.saneRange
        if value < range.lowerBound || value > range.upperBound {
            let clamped = min(max(value, range.lowerBound), range.upperBound)
            proposal.notes.append("clamped to the sane range \(text(range.lowerBound, parameter.unit))…\(text(range.upperBound, parameter.unit)) (fitted \(text(value, parameter.unit)))")
            value = clamped
        }
        value = round(value, parameter.unit)
        if value == current { return proposal }
        proposal.proposed = value
        proposal.outcome = .changed
        return proposal
    }

    /// The middle of a gap on a ratio scale (the geometric mean: the upper side is as many times
    /// the middle as the middle is times the lower side), the lower side taken at 0.1 or more (a
    /// sample that measures nothing is no measure of how little it can be).
    static func middle(_ a: Double, _ b: Double) -> Double {
        let low = max(a, 0.1), high = max(b, low)
        return (low * high).squareRoot()
    }

    /// The conflicts behind a `conflict` proposal: one per rival gesture whose samples overlap.
    static func conflictsOf(_ proposal: ThresholdProposal) -> [TuningConflict] {
        let p = proposal.parameter
        let ownValues = proposal.own.map(\.value)
        var result: [TuningConflict] = []
        var seen: [String] = []
        for rival in proposal.rivals where !seen.contains(rival.label) {
            let values = proposal.rivals.filter { $0.label == rival.label }.map(\.value)
            let overlaps: Bool
            let detail: String
            switch p.sense {
            case .atLeast:
                overlaps = values.max()! >= ownValues.min()!
                detail = "\(rival.label) up to \(text(values.max()!, p.unit)), \(proposal.gesture) from \(text(ownValues.min()!, p.unit))"
            case .atMost:
                overlaps = values.min()! <= ownValues.max()!
                detail = "\(rival.label) from \(text(values.min()!, p.unit)), \(proposal.gesture) up to \(text(ownValues.max()!, p.unit))"
            }
            guard overlaps else { continue }
            seen.append(rival.label)
            let who = rival.label == SampleLabel.none ? "samples that must give no gesture" : "\(rival.label) samples"
            result.append(TuningConflict(
                gesture: proposal.gesture, rival: rival.label, parameter: p,
                message: "your \(who) \(p.verb) your \(proposal.gesture) samples (\(detail)): \(p.key) cannot tell them apart, kept at \(text(proposal.current, p.unit))"))
        }
        return result
    }

    /// "4.2 mm", "350 ms", "30°".
    public static func text(_ value: Double, _ unit: TunableParameter.Unit) -> String {
        switch unit {
        case .mm: return decimal(value, places: 1) + " mm"
        case .ms: return decimal(value, places: 0) + " ms"
        case .deg: return decimal(value, places: 1) + "°"
        }
    }

    /// A number with at most `places` decimals, trailing zeros dropped ("4.2", "350").
    public static func decimal(_ value: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        if rounded == rounded.rounded() { return String(Int64(rounded)) }
        var s = String(Int64((abs(rounded) * scale).rounded()))
        while s.count <= places { s = "0" + s }
        let cut = s.index(s.endIndex, offsetBy: -places)
        var text = String(s[..<cut]) + "." + String(s[cut...])
        while text.hasSuffix("0") { text.removeLast() }
        return (rounded < 0 ? "-" : "") + text
    }
}
