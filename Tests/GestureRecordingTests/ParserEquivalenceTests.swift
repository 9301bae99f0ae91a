import Foundation
import GestureCore
import Testing
@testable import GestureRecording

/// The parsers' fast paths give what the plain reading gives, on every recording of the corpus: evemu
/// against a reference reading of the `E:` lines, libinput record (the corpus written as
/// `libinput record` YAML) through the event scanner against the full YAML reader and against evemu.
@Suite struct ParserEquivalenceTests {
    static let files = Corpus.recordingPaths.filter { (try? RecordingLoader.load(path: Corpus.root + "/" + $0)) != nil }

    /// The `E:` lines read plainly, field by field, as the first parser did.
    static func referenceEvents(_ text: String) -> [RawEvent] {
        text.split(separator: "\n").compactMap { line -> RawEvent? in
            let fields = line.prefix { $0 != "#" }.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            guard fields.first == "E:", fields.count == 5 else { return nil }
            let time = fields[1].split(separator: ".")
            let micro = Int64(time[1])! * Int64([1, 10, 100, 1000, 10_000, 100_000, 1_000_000][6 - time[1].count])
            return RawEvent(time: Timestamp(seconds: Int64(time[0])!, microseconds: micro),
                            type: EventType(UInt16(fields[2], radix: 16)!), code: EventCode(UInt16(fields[3], radix: 16)!),
                            value: Int32(fields[4])!)
        }
    }

    @Test func evemuEventsAreTheReferenceReadingsOnEveryRecording() throws {
        var events = 0
        for file in Self.files {
            let path = Corpus.root + "/" + file
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let recording = try #require(try RecordingLoader.load(path: path).first)
            #expect(recording.events == Self.referenceEvents(text), "\(file)")
            events += recording.events.count
        }
        #expect(Self.files.count >= 50 && events > 60_000)
    }

    /// Every file of the corpus, descriptions included, read with and without the byte-level lines.
    @Test func evemuFastPathsReadWhatTheGeneralPathReads() throws {
        let all = (FileManager.default.enumerator(atPath: Corpus.root)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".events") || $0.hasSuffix(".evemu") || $0.hasSuffix(".desc") }.sorted()
        var headers = 0
        for file in all {
            let path = Corpus.root + "/" + file
            let text = try String(contentsOfFile: path, encoding: .utf8)
            var general = EvemuParser(file: path)
            general.usesFastPaths = false
            guard let plain = try? general.parse(text) else {
                #expect(throws: RecordingError.self) { try EvemuParser(file: path).parse(text) }
                continue
            }
            let fast = try EvemuParser(file: path).parse(text)
            #expect(fast.events == plain.events, "\(file)")
            #expect(fast.header.description(path: path) == plain.header.description(path: path), "\(file)")
            #expect(fast.header.isPresent == plain.header.isPresent && fast.lineCount == plain.lineCount, "\(file)")
            if plain.header.isPresent { headers += 1 }
        }
        #expect(headers > 40)
    }

    @Test func libinputRecordFastPathIsTheFullYAMLReadingOnEveryRecording() throws {
        var fast = 0, headerOnly = 0
        for file in Self.files {
            let evemu = try #require(try RecordingLoader.load(path: Corpus.root + "/" + file).first)
            // A header-only evemu file is a recording of nothing; libinput record has no such file.
            guard !evemu.events.isEmpty else { headerOnly += 1; continue }
            let text = LibinputRecordWriter.write([evemu])
            let parser = LibinputRecordParser(file: "r.yml")
            let scanned = text.utf8.withContiguousStorageIfAvailable { parser.fastParse($0) } ?? nil
            let full = try parser.parse(text, allowingFastPath: false)
            let viaLoader = try parser.parse(text)
            try #require(full.count == 1)
            if let scanned {
                fast += 1
                #expect(scanned.map(\.events) == full.map(\.events), "\(file)")
                #expect(scanned.map(\.description) == full.map(\.description), "\(file)")
            }
            #expect(viaLoader.map(\.events) == full.map(\.events), "\(file)")
            #expect(full[0].events == evemu.events, "\(file)")
            var description = evemu.description
            description.path = "r.yml"
            #expect(full[0].description == description, "\(file)")
        }
        // Every recording of the corpus with events goes through the fast path (one is header only).
        #expect(headerOnly == 1 && fast == Self.files.count - headerOnly)
    }

    @Test func twoDevicesAndOtherFramesStayOnTheFastPath() throws {
        let parser = LibinputRecordParser(file: "r.yml")
        let scanned = libinputRecord.utf8.withContiguousStorageIfAvailable { parser.fastParse($0) } ?? nil
        let full = try parser.parse(libinputRecord, allowingFastPath: false)
        #expect(scanned?.map(\.events) == full.map(\.events))
        #expect(scanned?.map(\.description) == full.map(\.description))
        #expect(full.count == 2)
    }

    @Test(arguments: [
        // A broken event line inside a section the scanner reads: the full reading names it.
        ("devices:\n- evdev: {name: x}\n  events:\n  - evdev:\n    - [0, 0, 3, 0, 1]\n    - [0, 0, 3, 0, 1, 2]\n", 6,
         "expected an event `[sec, usec, type, code, value]`"),
        // Events the scanner takes, a header that is broken.
        ("devices:\n- evdev: {name: x, id: [1, 2]}\n  events:\n  - evdev:\n    - [0, 0, 3, 0, 1]\n", 2,
         "expected `id: [bus, vendor, product, version]`"),
        // A frame with no events.
        ("devices:\n- evdev: {name: x}\n  events:\n  - evdev:\n  - evdev:\n    - [0, 0, 3, 0, 1]\n", 4,
         "expected `evdev:` to be a list of [sec, usec, type, code, value]"),
        // Broken YAML after the events.
        ("devices:\n- evdev: {name: x}\n  events:\n  - evdev:\n    - [0, 0, 3, 0, 1]\n  quirks: [\n", 7, "broken YAML: "),
    ])
    func errorsFoundPastTheFastPathNameTheirLine(text: String, line: Int, message: String) {
        let error = recordingError { _ = try RecordingLoader.parseLibinputRecord(text, path: "r.yml") }
        #expect(error?.file == "r.yml")
        #expect(error?.line == line, "\(String(describing: error))")
        #expect(error?.message.hasPrefix(message) == true, "\(String(describing: error))")
    }
}
