import GestureConfig
import GestureCore
import GestureRecording
import Testing

/// The daemon feeds each read of a device as one batch: the outputs are exactly those of feeding
/// the events one by one, over every recording of the corpus, however the reads split them.
@Suite struct BatchFeedTests {
    static func lines(_ recording: Recording, chunk: Int?) -> [String] {
        var pipeline = GesturePipeline(engine: GestureEngine(configuration: ConfigurationLoader.loadDefault().engine),
                                       emitsAllTouches: true)
        let ref = DeviceRef(id: 0, name: recording.description.name, kind: recording.description.kind)
        pipeline.addDevice(recording.description, ref: ref, surface: SurfaceConfiguration())
        var outputs: [EngineOutput] = []
        if let chunk {
            var start = 0
            var size = 1
            while start < recording.events.count {
                // Reads of 1, 2, ... `chunk` events, then again: batches cut frames anywhere.
                let end = min(start + size, recording.events.count)
                outputs += pipeline.feed(Array(recording.events[start..<end]), device: 0)
                start = end
                size = size % chunk + 1
            }
        } else {
            for event in recording.events { outputs += pipeline.feed(event, device: 0) }
        }
        outputs += pipeline.finish(at: recording.events.last?.time ?? .zero)
        return outputs.map(\.jsonLine)
    }

    /// Every recording of the corpus that has events (one file is a description without any).
    static let replayable = Corpus.recordingPaths.filter { (try? RecordingLoader.load(path: Corpus.root + "/" + $0)) != nil }

    @Test func theCorpusIsThere() {
        #expect(Self.replayable.count >= 50)
    }

    @Test(arguments: replayable)
    func batchesGiveTheSameOutputsAsSingleEvents(path: String) throws {
        for recording in try RecordingLoader.load(path: Corpus.root + "/" + path) {
            let single = Self.lines(recording, chunk: nil)
            #expect(Self.lines(recording, chunk: 13) == single, "\(path)")
            #expect(Self.lines(recording, chunk: 200) == single, "\(path)")
        }
    }

    @Test func aBatchForAnUnknownDeviceIsIgnored() {
        var pipeline = GesturePipeline(engine: GestureEngine(configuration: ConfigurationLoader.loadDefault().engine))
        let event = RawEvent(time: Timestamp(microseconds: 1), type: .syn, code: .synReport, value: 0)
        #expect(pipeline.feed([event], device: 42).isEmpty)
    }
}
