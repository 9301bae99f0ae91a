import Foundation
import GestureCore
import Testing
@testable import GestureRecording

/// `EvemuWriter` (what `gesturectl record` writes) read back by the parser `gestured replay` uses.
@Suite struct EvemuWriterTests {
    /// Every description in the corpus: `.desc` files and the headers of self-describing recordings.
    static let descriptions: [String] = {
        let files = FileManager.default.enumerator(atPath: Corpus.root)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".desc") || $0.hasSuffix(".evemu") }.sorted()
    }()

    /// The parts of a description a recording must keep (the path names the file it came from;
    /// EV_SYN's codes are not in the evemu format, whose type-0 bitmask lists the event types).
    static func essentials(_ d: DeviceDescription) -> DeviceDescription {
        var d = d
        d.path = nil
        d.codes[.syn] = nil
        d.codes = d.codes.filter { !$0.value.isEmpty }
        for (code, info) in d.absInfo {
            var kept = info
            kept.value = 0
            d.absInfo[code] = kept
        }
        return d
    }

    @Test func theCorpusHasDescriptions() { #expect(Self.descriptions.count >= 20) }

    @Test(arguments: descriptions)
    func aWrittenHeaderReadsBackAsTheSameDescription(file: String) throws {
        let text = try String(contentsOfFile: Corpus.root + "/" + file, encoding: .utf8)
        let original = try EvemuParser(file: file).parse(text).header.description(path: file)
        let written = EvemuWriter.header(original, comments: ["a comment\nover two lines"])
            + EvemuWriter.events([RawEvent(time: Timestamp(microseconds: 1), type: .syn, code: .synReport, value: 0)])
        let back = try RecordingLoader.parseEvemu(written, path: "written.evemu")
        #expect(Self.essentials(back.description) == Self.essentials(original))
        #expect(back.warnings.isEmpty)
        // Every axis with its resolution, and the key bits, are spelled out in the header.
        for (code, info) in original.absInfo {
            #expect(written.contains("\nA: \(String(format: "%02x", code.rawValue)) \(info.minimum) \(info.maximum) \(info.fuzz) \(info.flat) \(info.resolution)\n"))
        }
        if !(original.codes[.key] ?? []).isEmpty {
            #expect(written.components(separatedBy: "\nB: 01 ").count - 1 == 12, "the key bitmask is 96 bytes, 12 lines")
        }
    }

    @Test func eventsKeepTheirTimeTypeCodeAndValue() throws {
        let events = [
            RawEvent(time: Timestamp(seconds: 12_345, microseconds: 6), type: .abs, code: .absMTPositionX, value: -17),
            RawEvent(time: Timestamp(seconds: 12_345, microseconds: 6), type: .key, code: .btnTouch, value: 1),
            RawEvent(time: Timestamp(seconds: 12_345, microseconds: 999_999), type: .syn, code: .synReport, value: 0),
        ]
        let text = EvemuWriter.events(events)
        #expect(text.hasPrefix("E: 12345.000006 0003 0035 -17\nE: 12345.000006 0001 014a 1\n"))
        let description = DeviceDescription(name: "Pad", absInfo: [.absMTPositionX: AbsInfo(minimum: -100, maximum: 100)])
        let back = try RecordingLoader.parseEvemu(EvemuWriter.header(description) + text, path: "x.evemu")
        #expect(back.events == events)
    }

    @Test func aNameWithANewlineStaysOnOneLine() throws {
        let description = DeviceDescription(name: "Bad\nName", absInfo: [.absX: AbsInfo(minimum: 0, maximum: 10)])
        let text = EvemuWriter.header(description) + "E: 0.000001 0000 0000 0\n"
        #expect(try RecordingLoader.parseEvemu(text, path: "x").description.name == "Bad Name")
    }
}
