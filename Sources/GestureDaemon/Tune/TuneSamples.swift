#if canImport(Glibc)
import Glibc
#endif
import GestureConfig
import GestureCore
import GesturePosix
import GestureRecording
import GestureTuning

/// A labelled sample as `gestured tune` reads it: the recording and its label.
public struct LabelledRecording: Sendable {
    public var path: String
    public var label: String
    public var recording: Recording

    public init(path: String, label: String, recording: Recording) {
        self.path = path
        self.label = label
        self.recording = recording
    }

    /// The file name without its folder and extension: how reports name the sample.
    public var name: String {
        var name = path.split(separator: "/").last.map(String.init) ?? path
        if let dot = name.lastIndex(of: ".") { name = String(name[..<dot]) }
        return name
    }
}

/// Why loading samples failed: one message per problem, each naming its file.
public struct TuneSampleError: Error, CustomStringConvertible, Sendable {
    public var messages: [String]
    public var description: String { messages.joined(separator: "\n") }
}

/// Loads labelled samples and judges them by replaying them through a configuration.
public enum TuneSamples {
    /// The sample files of `paths`: each file as given, each folder's labelled files (one level, by name).
    public static func files(_ paths: [String]) -> [String] {
        paths.flatMap { path -> [String] in
            guard Accounts.isDirectory(path) else { return [path] }
            return directoryNames(path).filter { SampleLabel.label(ofFile: $0) != nil }.sorted()
                .map { (path.hasSuffix("/") ? path : path + "/") + $0 }
        }
    }

    /// Loads every sample; a file without a label, with a label the config does not define, or that
    /// cannot be read is an error (all of them are reported together).
    public static func load(_ paths: [String], configuration: Configuration) throws(TuneSampleError) -> [LabelledRecording] {
        let ids = configuration.engine.recognizers.map(\.id)
        var messages: [String] = []
        var result: [LabelledRecording] = []
        let files = files(paths)
        if files.isEmpty { throw TuneSampleError(messages: ["no labelled samples in \(paths.joined(separator: ", "))"]) }
        for file in files {
            guard let label = SampleLabel.label(ofFile: file) else {
                messages.append("\(file): no label: name a sample NAME.GESTURE.evemu (GESTURE a gesture id of the config, or none)")
                continue
            }
            guard label == SampleLabel.none || ids.contains(label) else {
                let hint = ConfigurationLoader.suggestion(for: label, among: ids + [SampleLabel.none]).map { " (did you mean '\($0)'?)" } ?? ""
                messages.append("\(file): label '\(label)' is not a gesture of the config\(hint); gestures: \(ids.joined(separator: ", ")), or none")
                continue
            }
            do {
                let recordings = try RecordingLoader.load(path: file)
                guard recordings.count == 1, let recording = recordings.first else {
                    messages.append("\(file): a sample is one device's recording, this file holds \(recordings.count)")
                    continue
                }
                result.append(LabelledRecording(path: file, label: label, recording: recording))
            } catch {
                messages.append(error.description)
            }
        }
        if !messages.isEmpty { throw TuneSampleError(messages: messages) }
        return result
    }

    /// The sample measured as the recognizers see it, on the surface the config gives its device.
    public static func measure(_ sample: LabelledRecording, configuration: Configuration) -> TuningSample {
        let r = sample.recording
        let surface = configuration.surface(for: r.description, kind: r.description.kind, path: r.description.path ?? r.source)
        let trace = SampleTrace.assemble(description: r.description, events: r.events, surface: surface)
        return TuningSample(name: sample.name, label: sample.label, measurements: SampleMeasurements(trace),
                            deviceKind: r.description.kind)
    }

    /// What a replay of the sample through `configuration` gave: the gestures that began or were
    /// recognized, in order (each once), and the explain lines of decisions.
    public static func replay(_ sample: LabelledRecording, configuration: Configuration, explains: Bool = false)
        -> (gestures: [String], failures: [ExplainEvent]) {
        var gestures: [String] = []
        var failures: [ExplainEvent] = []
        Replay.run([sample.recording], options: ReplayOptions(configuration: configuration, explains: explains)) { output in
            switch output {
            case .gesture(let g) where g.state == .recognized || g.state == .began:
                if !gestures.contains(g.gesture) { gestures.append(g.gesture) }
            case .explain(let e) where !e.routine && e.to == .failed:
                failures.append(e)
            default: break
            }
        }
        return (gestures, failures)
    }

    /// Right: a gesture sample gave its gesture; a `none` sample gave no gesture.
    public static func isRight(_ sample: LabelledRecording, gestures: [String]) -> Bool {
        ThresholdFit.isRight(label: sample.label, gave: gestures)
    }

    /// Why a sample is wrong under `configuration`, in the explain's words; nil when it is right.
    public static func reason(_ sample: LabelledRecording, configuration: Configuration) -> String? {
        let (gestures, failures) = replay(sample, configuration: configuration, explains: true)
        if isRight(sample, gestures: gestures) { return nil }
        if sample.label == SampleLabel.none { return "gave \(gestures.joined(separator: ", ")), expected no gesture" }
        let own = failures.filter { $0.gesture == sample.label }
        var parts: [String] = []
        if let first = own.first { parts.append(first.reason) }
        if !gestures.isEmpty { parts.append("gave \(gestures.joined(separator: ", "))") }
        if parts.isEmpty { parts.append("\(sample.label) never decided (did its fingers reach its region?)") }
        return parts.joined(separator: "; ")
    }

    /// The judge the fit asks: replays the samples through `base` with the engine configuration given.
    public static func judge(_ samples: [LabelledRecording], base: Configuration) -> ThresholdFit.Judge {
        { engine, indices in
            var configuration = base
            configuration.engine = engine
            return indices.map { replay(samples[$0], configuration: configuration).gestures }
        }
    }
}
