import ArgumentParser
import CAllocationCounter
import Foundation
import GestureConfig
import GestureCore
import GestureRecording
import Histogram

/// Measures the pipeline (slot tracking + surface mapping + engine) on the recordings corpus:
/// throughput with events decoded in advance (default and stress configs), throughput with parsing
/// included, per-frame latency (HdrHistogram), allocations per frame, and peak memory.
@main
struct GesturedBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gestured-bench",
        abstract: "Benchmark the gesture pipeline on the recordings corpus.",
        discussion: "With --json the last line is one JSON object with every figure.")

    @Flag(help: "Print the figures as one JSON object on the last line.")
    var json = false

    @Option(help: "Folder of evemu recordings (searched recursively).")
    var corpus: String = "Tests/Fixtures/evemu-devices"

    @Option(help: "Minimum CPU seconds of the bench thread spent on each throughput measurement.")
    var seconds: Double = 2

    @Flag(help: "Measure only the decoded-events throughput on the default config (for profilers).")
    var decodedOnly = false

    @Flag(help: "Measure only the throughputs with parsing (evemu and libinput record; for profilers).")
    var parsingOnly = false

    @Option(help: ArgumentHelp(
        "Lay every measurement over a desktop of this many windows, as a bridge would describe it (0: no desktop).",
        discussion: "One output every touchscreen covers, the windows in a grid (the first focused: every touchpad's), every other one matched by a window rule with a pinch and a two-finger pan."))
    var desktopWindows = 0

    func run() throws {
        let files = try recordingFiles(in: corpus)
        guard !files.isEmpty else { throw ValidationError("no recordings under \(corpus)") }

        // Parse once to get the decoded workload.
        var workload: [Recording] = []
        for file in files {
            if let recordings = try? RecordingLoader.load(path: file) { workload += recordings }
        }
        let eventCount = workload.reduce(0) { $0 + $1.events.count }
        let frameCount = workload.reduce(0) { $0 + $1.events.count { $0.isSynReport } }
        guard eventCount > 0 else { throw ValidationError("the corpus under \(corpus) holds no events") }

        var defaultEngine = ConfigurationLoader.loadDefault().engine
        var stressEngine = StressConfiguration.make()
        if desktopWindows > 0 {
            defaultEngine.windowRules = [BenchDesktop.rule]
            stressEngine.windowRules = [BenchDesktop.rule]
        }
        // The same corpus as `libinput record` YAML, one file per recording.
        let records = try libinputRecordFiles(workload)
        defer { try? FileManager.default.removeItem(atPath: records.folder) }
        if parsingOnly {
            let figures = parsingFigures(files, records: records.files, engine: defaultEngine)
            for (name, value) in figures { print(name.padding(toLength: 30, withPad: " ", startingAt: 0), format(value)) }
            return
        }

        let decoded = throughput(workload, engine: defaultEngine)
        if decodedOnly {
            print("events_per_sec", format(decoded.eventsPerSecond))
            return
        }
        let stress = throughput(workload, engine: stressEngine)
        let latencyDefault = frameLatency(workload, engine: defaultEngine)
        let latencyStress = frameLatency(workload, engine: stressEngine)
        let allocations = allocations(workload, engine: defaultEngine, frames: frameCount)
        let parsing = parsingFigures(files, records: records.files, engine: defaultEngine)
        let forwarded = throughput(workload, engine: defaultEngine, forwarding: true)
        let latencyForwarded = frameLatency(workload, engine: defaultEngine, forwarding: true)
        let encoder = encoderFrameCost(workload)
        let peakRSS = peakResidentKiB()

        let figures: [(String, Double)] = [
            ("corpus_files", Double(files.count)),
            ("corpus_events", Double(eventCount)),
            ("corpus_frames", Double(frameCount)),
            ("events_per_sec", decoded.eventsPerSecond),
            ("frame_p50_us", latencyDefault.p50),
            ("frame_p99_us", latencyDefault.p99),
            ("frame_max_us", latencyDefault.max),
            ("stress_events_per_sec", stress.eventsPerSecond),
            ("stress_frame_p50_us", latencyStress.p50),
            ("stress_frame_p99_us", latencyStress.p99),
            ("stress_frame_max_us", latencyStress.max),
        ] + parsing + [
            ("forward_events_per_sec", forwarded.eventsPerSecond),
            ("forward_frame_p50_us", latencyForwarded.p50),
            ("forward_frame_p99_us", latencyForwarded.p99),
            ("forward_frame_max_us", latencyForwarded.max),
            ("forward_encoder_ns_per_frame", encoder),
            ("allocations_per_frame", allocations.perFrame),
            ("allocations_per_quiet_frame", allocations.perQuietFrame),
            ("allocations_per_output", allocations.perOutput),
            ("outputs_per_pass", Double(decoded.outputs)),
            ("peak_rss_kib", Double(peakRSS)),
        ]
        print("gestured-bench: \(files.count) recordings, \(eventCount) events, \(frameCount) frames")
        for (name, value) in figures {
            print(name.padding(toLength: 30, withPad: " ", startingAt: 0), format(value))
        }
        print("hardware ceiling ≈ 10 fingers × 240 Hz × ~4 events ≈ 10,000 events/s → headroom ×"
              + format(decoded.eventsPerSecond / 10_000))
        if json {
            let body = figures.map { "\"\($0.0)\":\(format($0.1))" }.joined(separator: ",")
            print("{\(body)}")
        }
    }

    // MARK: measurements

    struct Throughput {
        var eventsPerSecond: Double
        var outputs: Int
    }

    /// Replays the decoded corpus (each recording its own pipeline) until `seconds` have passed.
    func throughput(_ workload: [Recording], engine: EngineConfiguration, forwarding: Bool = false) -> Throughput {
        var events = 0
        var outputs = 0
        var passes = 0
        let start = threadCPUNanoseconds()
        var elapsed: UInt64 = 0
        repeat {
            var passOutputs = 0
            for recording in workload {
                var pipeline = makePipeline(recording, engine: engine, forwarding: forwarding)
                for event in recording.events {
                    passOutputs &+= pipeline.feed(event, device: 0).count
                    // The daemon writes the clone after each read (a frame or more): here after each frame.
                    if forwarding && event.isSynReport { pipeline.drainForwarded { passOutputs &+= $1.count } }
                }
                passOutputs &+= pipeline.finish(at: recording.events.last?.time ?? .zero).count
                events += recording.events.count
            }
            outputs = passOutputs
            passes += 1
            elapsed = threadCPUNanoseconds() - start
        } while Double(elapsed) < seconds * 1e9 || passes < 2
        return Throughput(eventsPerSecond: Double(events) / (Double(elapsed) / 1e9), outputs: outputs)
    }

    /// Throughput with parsing (parsed and replayed) and of parsing alone, for the evemu corpus and for
    /// the same recordings as libinput record YAML.
    func parsingFigures(_ files: [String], records: [String], engine: EngineConfiguration) -> [(String, Double)] {
        [("with_parsing_events_per_sec", throughputWithParsing(files, engine: engine)),
         ("parsing_only_events_per_sec", throughputWithParsing(files, engine: nil)),
         ("record_with_parsing_events_per_sec", throughputWithParsing(records, engine: engine)),
         ("record_parsing_only_events_per_sec", throughputWithParsing(records, engine: nil))]
    }

    /// Writes every recording of the workload as a `libinput record` file in a new temporary folder.
    func libinputRecordFiles(_ workload: [Recording]) throws -> (folder: String, files: [String]) {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("gestured-bench-\(ProcessInfo.processInfo.processIdentifier)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var files: [String] = []
        for (index, recording) in workload.enumerated() {
            let path = folder + "/\(index).yml"
            try LibinputRecordWriter.write([recording]).write(toFile: path, atomically: false, encoding: .utf8)
            files.append(path)
        }
        return (folder, files)
    }

    /// Re-parses every file and replays it (with `engine`; without, parsing alone), so parsing is
    /// part of the cost.
    func throughputWithParsing(_ files: [String], engine: EngineConfiguration?) -> Double {
        var events = 0
        let start = threadCPUNanoseconds()
        var elapsed: UInt64 = 0
        repeat {
            for file in files {
                guard let recordings = try? RecordingLoader.load(path: file) else { continue }
                for recording in recordings {
                    guard let engine else {
                        events += recording.events.count
                        blackHole(recording.events.count)
                        continue
                    }
                    var pipeline = makePipeline(recording, engine: engine)
                    for event in recording.events { _ = pipeline.feed(event, device: 0) }
                    _ = pipeline.finish(at: recording.events.last?.time ?? .zero)
                    events += recording.events.count
                }
            }
            elapsed = threadCPUNanoseconds() - start
        } while Double(elapsed) < seconds * 1e9
        return Double(events) / (Double(elapsed) / 1e9)
    }

    struct Latency {
        var p50: Double
        var p99: Double
        var max: Double
    }

    /// Time from a frame's SYN_REPORT going in to its outputs coming out, per frame, in µs.
    func frameLatency(_ workload: [Recording], engine: EngineConfiguration, forwarding: Bool = false) -> Latency {
        var histogram = Histogram<UInt64>(highestTrackableValue: 1_000_000_000, numberOfSignificantValueDigits: .three)
        for _ in 0..<5 {
            for recording in workload {
                var pipeline = makePipeline(recording, engine: engine, forwarding: forwarding)
                for event in recording.events {
                    if event.isSynReport {
                        let before = monotonicNanoseconds()
                        let out = pipeline.feed(event, device: 0)
                        // With forwarding, the clone's events of the frame are taken as the daemon does.
                        var clone = 0
                        if forwarding { pipeline.drainForwarded { clone += $1.count } }
                        let after = monotonicNanoseconds()
                        _ = histogram.record(after - before)
                        blackHole(out.count + clone)
                    } else {
                        _ = pipeline.feed(event, device: 0)
                    }
                }
            }
        }
        return Latency(p50: Double(histogram.valueAtPercentile(50)) / 1000,
                       p99: Double(histogram.valueAtPercentile(99)) / 1000,
                       max: Double(histogram.max) / 1000)
    }

    struct Allocations {
        /// Every frame of one pass, pipeline warm-up (first growth of its buffers) included.
        var perFrame: Double
        /// Steady state: frames after a recording's first 20 that produced no output.
        var perQuietFrame: Double
        /// Steady state: frames after a recording's first 20 that produced output, per output.
        var perOutput: Double
    }

    /// Heap allocations on the hot path over one pass of the decoded corpus (pipeline set-up excluded).
    func allocations(_ workload: [Recording], engine: EngineConfiguration, frames: Int) -> Allocations {
        var pipelines = workload.map { makePipeline($0, engine: engine) }
        var quietFrames = 0, quietAllocations: Int64 = 0
        var outputs = 0, outputAllocations: Int64 = 0
        let before = gestured_allocation_count()
        for index in workload.indices {
            var frame = 0
            for event in workload[index].events {
                let start = gestured_allocation_count()
                let produced = pipelines[index].feed(event, device: 0).count
                let spent = gestured_allocation_count() - start
                guard event.isSynReport else { continue }
                frame += 1
                if frame <= 20 { continue }
                if produced == 0 {
                    quietFrames += 1
                    quietAllocations += spent
                } else {
                    outputs += produced
                    outputAllocations += spent
                }
            }
        }
        let after = gestured_allocation_count()
        return Allocations(perFrame: Double(after - before) / Double(max(frames, 1)),
                           perQuietFrame: Double(quietAllocations) / Double(max(quietFrames, 1)),
                           perOutput: Double(outputAllocations) / Double(max(outputs, 1)))
    }

    /// The forwarding encoder alone (`ForwardingEncoder`), ns per source frame: passes over the corpus
    /// with the device's assembler alone and with the assembler and the encoder (which asks it for
    /// new contacts' touches), timed whole, the difference per frame; the clone's events read and
    /// cleared in place each frame, as the daemon does. No verdicts: the common case, touches passing.
    func encoderFrameCost(_ workload: [Recording]) -> Double {
        func pass(encoding: Bool) -> (ns: UInt64, frames: Int) {
            var frames = 0
            let start = monotonicNanoseconds()
            for recording in workload {
                let ref = DeviceRef(id: 0, name: recording.description.name, kind: recording.description.kind)
                var assembler = FrameAssembler(description: recording.description, device: ref)
                var encoder = ForwardingEncoder(description: recording.description)
                var ids = TouchIDGenerator()
                for event in recording.events {
                    if let frame = assembler.feed(event, ids: &ids) { blackHole(frame.touches.count) }
                    if encoding && encoder.consume(event) {
                        encoder.endFrame(at: event.time, assembler: assembler)
                        blackHole(encoder.output.count)
                        encoder.clearOutput()
                    }
                    if event.isSynReport { frames += 1 }
                }
            }
            return (monotonicNanoseconds() - start, frames)
        }
        var best = (with: UInt64.max, without: UInt64.max)
        var frames = 1
        for _ in 0..<7 {
            let a = pass(encoding: false), b = pass(encoding: true)
            best = (min(best.with, b.ns), min(best.without, a.ns))
            frames = max(1, b.frames)
        }
        return Double(best.with > best.without ? best.with - best.without : 0) / Double(frames)
    }

    // MARK: helpers

    func makePipeline(_ recording: Recording, engine: EngineConfiguration, forwarding: Bool = false) -> GesturePipeline {
        var engine = GestureEngine(configuration: engine)
        if desktopWindows > 0 { _ = engine.setDesktop(BenchDesktop.desktop(windows: desktopWindows), at: .zero) }
        var pipeline = GesturePipeline(engine: engine)
        let ref = DeviceRef(id: 0, name: recording.description.name, kind: recording.description.kind)
        pipeline.addDevice(recording.description, ref: ref, surface: SurfaceConfiguration())
        if forwarding { pipeline.startForwarding(device: 0) }
        return pipeline
    }

    func recordingFiles(in folder: String) throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else {
            throw ValidationError("cannot read the folder \(folder)")
        }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if relative.hasSuffix(".events") || relative.hasSuffix(".evemu") { files.append(folder + "/" + relative) }
        }
        return files.sorted()
    }

    func format(_ value: Double) -> String {
        if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
        return String(format: "%.3f", value)
    }
}

/// CPU time of the calling thread: throughputs are per second of one core's time, so other
/// processes sharing the machine do not lower them (waiting for a CPU is not counted).
func threadCPUNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Peak resident set size (VmHWM) in KiB.
func peakResidentKiB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
    }
    return 0
}

/// Keeps a value alive so the optimizer cannot drop the work that produced it.
@inline(never) func blackHole(_ value: Int) {
    if value == Int.min { print(value) }
}
