import GestureConfig
import GestureCore
import GestureTuning

/// Everything `gestured tune` says: per sample right or wrong (today, tuned, left out), per
/// gesture its samples' measures against its thresholds and what the fit proposes, the conflicts.
public struct TuneReport: Sendable {
    public struct Sample: Sendable {
        public var name: String
        public var label: String
        public var measurements: SampleMeasurements
        public var rightBefore: Bool
        public var rightAfter: Bool
        /// Right when the fit had not seen it (fitted on every other sample).
        public var rightLeftOut: Bool
        /// Why it is wrong today / after tuning (the explain's reason).
        public var reasonBefore: String?
        public var reasonAfter: String?
    }

    public var samples: [Sample]
    public var proposals: [ThresholdProposal]
    public var conflicts: [TuningConflict]
    /// Device noise measured from still fingers (mm), and the floor lengths keep (twice it).
    public var noise: Double
    public var noiseFloor: Double
    /// The configuration with the accepted changes.
    public var tuned: Configuration
    /// The gestures that have samples, in config order.
    public var gestures: [RecognizerSpec]

    public var rightBefore: Int { samples.filter(\.rightBefore).count }
    public var rightAfter: Int { samples.filter(\.rightAfter).count }
    public var rightLeftOut: Int { samples.filter(\.rightLeftOut).count }
    public var changes: [ThresholdProposal] { proposals.filter { $0.outcome == .changed } }

    /// Measures the samples, fits, checks every sample before and after and left out. Deterministic.
    public static func make(samples recordings: [LabelledRecording], configuration: Configuration,
                            leaveOneOut: Bool = true) -> TuneReport {
        let measured = recordings.map { TuneSamples.measure($0, configuration: configuration) }
        let judge = TuneSamples.judge(recordings, base: configuration)
        let result = ThresholdFit.fit(configuration.engine, samples: measured, judge: judge)
        var tuned = configuration
        tuned.engine = result.configuration
        let leftOut = leaveOneOut
            ? ThresholdFit.leaveOneOut(configuration.engine, samples: measured, judge: judge)
            : result.rightAfter
        let samples = recordings.indices.map { i in
            Sample(name: recordings[i].name, label: recordings[i].label, measurements: measured[i].measurements,
                   rightBefore: result.rightBefore[i], rightAfter: result.rightAfter[i], rightLeftOut: leftOut[i],
                   reasonBefore: result.rightBefore[i] ? nil : TuneSamples.reason(recordings[i], configuration: configuration),
                   reasonAfter: result.rightAfter[i] ? nil : TuneSamples.reason(recordings[i], configuration: tuned))
        }
        let labels = Set(recordings.map(\.label))
        return TuneReport(samples: samples, proposals: result.proposals, conflicts: result.conflicts,
                          noise: result.noiseFloor / 2, noiseFloor: result.noiseFloor, tuned: tuned,
                          gestures: configuration.engine.recognizers.filter { labels.contains($0.id) })
    }
}
