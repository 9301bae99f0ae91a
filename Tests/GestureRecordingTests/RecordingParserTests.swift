import Foundation
import GestureCore
import Testing
@testable import GestureRecording

/// A fresh directory per test, so tests can run in parallel.
struct TemporaryDirectory {
    let path: String
    init() {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("gestured-tests-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    @discardableResult
    func write(_ name: String, _ text: String) -> String {
        write(name, Data(text.utf8))
    }
    @discardableResult
    func write(_ name: String, _ data: Data) -> String {
        let file = path + "/" + name
        _ = FileManager.default.createFile(atPath: file, contents: data)
        return file
    }
    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Runs `body` and returns the RecordingError it throws (nil when it does not throw one).
func recordingError(_ body: () throws -> Void) -> RecordingError? {
    do { try body() } catch let error as RecordingError { return error } catch { return nil }
    return nil
}

let smallHeader = """
    # EVEMU 1.3
    N: Test Pad
    I: 0011 0002 0007 01b1
    P: 05 00 00 00 00 00 00 00
    B: 00 0b 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 20 64 00 00 00 00 00 00
    B: 03 03 00 00 00 00 80 60 02
    A: 00 0 1000 0 0 10
    A: 01 0 500 0 0
    A: 2f 0 1 0 0 0
    A: 35 0 1000 0 0 10
    A: 36 0 500 0 0 10
    A: 39 0 65535 0 0 0

    """

@Suite struct EvemuParserTests {
    @Test func headerFieldsBecomeTheDescription() throws {
        let text = smallHeader + """
            E: 1.000001 0003 0039 0005\t# EV_ABS / ABS_MT_TRACKING_ID 5
            E: 1.000001 0003 0035 -001
            E: 1.5 0000 0000 0000
            """
        let recording = try RecordingLoader.parseEvemu(text, path: "mem.evemu")
        let d = recording.description
        #expect(d.name == "Test Pad")
        #expect([d.bus, d.vendor, d.product, d.version] == [0x11, 0x02, 0x07, 0x1b1])
        #expect(d.properties == [.pointer, .buttonpad])
        #expect(d.supports(.key, .btnToolFinger))
        #expect(d.supports(.key, .btnTouch))
        #expect(d.supports(.key, .btnToolDoubleTap))
        #expect(d.supports(.key, .btnToolTripleTap))
        #expect(!d.supports(.key, .btnToolQuadTap))
        #expect(d.supports(.abs, .absMTSlot) && d.supports(.abs, .absMTPositionX) && d.supports(.abs, .absMTTrackingID))
        #expect(d.absInfo[.absX] == AbsInfo(minimum: 0, maximum: 1000, resolution: 10))
        #expect(d.absInfo[.absY] == AbsInfo(minimum: 0, maximum: 500)) // old A: line, no resolution column
        #expect(d.multitouchProtocol == .typeB && d.slotCount == 2)
        #expect(recording.events == [
            RawEvent(time: Timestamp(microseconds: 1_000_001), type: .abs, code: .absMTTrackingID, value: 5),
            RawEvent(time: Timestamp(microseconds: 1_000_001), type: .abs, code: .absMTPositionX, value: -1),
            RawEvent(time: Timestamp(microseconds: 1_500_000), type: .syn, code: .synReport, value: 0),
        ])
        #expect(recording.warnings.isEmpty)
    }

    @Test(arguments: [
        ("E: 1.000000 00zz 0000 1", "expected a hex event type (0...ffff), found `00zz`"),
        ("E: 1.000000 0003 10000 1", "expected a hex event code (0...ffff), found `10000`"),
        ("E: 1.000000 0003", "expected `E: <sec>.<usec> <type> <code> <value>`, found 2 fields"),
        ("E: 1.000000 0003 0000 1 9", "expected `E: <sec>.<usec> <type> <code> <value>`, found 5 fields"),
        ("E: abc 0003 0000 1", "expected a timestamp `<sec>.<usec>`, found `abc`"),
        ("E: -1.000000 0003 0000 1", "expected a timestamp `<sec>.<usec>` of 0 or more, found negative `-1.000000`"),
        ("E: 1.0000001 0003 0000 1", "expected at most 6 digits of microseconds, found `1.0000001`"),
        ("E: 99999999999999999.0 0003 0000 1", "expected a timestamp in range, found `99999999999999999.0`"),
        ("E: 1.000000 0003 0000 2147483648", "expected a decimal event value within 32 bits, found `2147483648` (out of range)"),
        ("E: 1.000000 0003 0000 1x", "expected a decimal event value, found `1x`"),
        ("A: 00 0 100", "expected `A: <code> <min> <max> <fuzz> <flat> [<resolution>]`, found 3 fields"),
        ("A: 00 0 99999999999 0 0", "expected a decimal axis value within 32 bits, found `99999999999` (out of range)"),
        ("I: 0011 0002 0007", "expected `I: <bus> <vendor> <product> <version>` (4 hex numbers), found 3 fields"),
        ("I: 0011 0002 0007 1ffff", "expected a hex id (0...ffff), found `1ffff`"),
        ("P: 0g", "expected a hex property bitmask byte (00...ff), found `0g`"),
        ("B: 01 100", "expected a hex code bitmask byte (00...ff), found `100`"),
        ("B:", "expected `B: <type> <bitmask bytes>` (hex), found nothing after `B:`"),
        ("X: something", "expected a line starting with `N:`, `I:`, `P:`, `B:`, `A:`, `E:` or `#`, found `X:`"),
    ])
    func malformedLineNamesFileLineAndExpectation(line: String, message: String) {
        let text = "# EVEMU 1.3\nN: Dev\nE: 0.000000 0000 0000 0\n" + line + "\nE: 2.000000 0000 0000 0\n"
        let error = recordingError { _ = try RecordingLoader.parseEvemu(text, path: "bad.evemu") }
        #expect(error == RecordingError(file: "bad.evemu", line: 4, message: message))
    }

    @Test func errorDescriptionIsFileLineMessage() {
        #expect(RecordingError(file: "a.events", line: 3, message: "m").description == "a.events:3: m")
        #expect(RecordingError(file: "a.events", line: nil, message: "m").description == "a.events: m")
    }

    @Test func emptyFileIsAnError() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        for (name, text) in [("empty.events", ""), ("blank.events", "\n  \n"), ("comments.events", "# EVEMU 1.3\n# nothing\n")] {
            let path = dir.write(name, text)
            #expect(recordingError { _ = try RecordingLoader.load(path: path) } ==
                RecordingError(file: path, line: nil,
                               message: "empty file: expected an evemu recording (`N:`…`E:` lines) or a libinput record YAML"))
        }
    }

    /// A device description with no events is a recording of nothing (what `gestured replay --forward`
    /// writes for a device whose touches were all taken); events are needed only without a header.
    @Test func aHeaderWithNoEventsIsARecordingOfNothingAndNoHeaderNoEventsAnError() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.write("header-only.events", smallHeader)
        let recordings = try RecordingLoader.load(path: path)
        #expect(recordings.count == 1)
        #expect(recordings.first?.events.isEmpty == true)
        let comments = dir.write("comments-only.events", "# nothing here\n")
        #expect(recordingError { _ = try RecordingLoader.load(path: comments) } ==
            RecordingError(file: comments, line: nil, message: "empty file: expected an evemu recording (`N:`…`E:` lines) or a libinput record YAML"))
    }

    @Test func binaryGarbageIsAnErrorWithItsLine() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let nul = dir.write("nul.events", Data("N: Dev\nE: 0.0 0000 0000 0\nxx".utf8) + Data([0, 1, 2, 0xff]))
        #expect(recordingError { _ = try RecordingLoader.load(path: nul) } ==
            RecordingError(file: nul, line: 3, message: "binary data (a NUL byte): expected a text recording"))
        let latin = dir.write("latin.events", Data("N: Dev\n".utf8) + Data([0xff, 0xfe, 0x41, 0x0a]))
        #expect(recordingError { _ = try RecordingLoader.load(path: latin) } ==
            RecordingError(file: latin, line: 2, message: "binary data (not UTF-8 text): expected a text recording"))
    }

    @Test func missingFileIsAnError() {
        let error = recordingError { _ = try RecordingLoader.load(path: "/nonexistent/x.events") }
        #expect(error?.file == "/nonexistent/x.events")
        #expect(error?.line == nil)
        #expect(error?.message.hasPrefix("cannot read the file") == true)
    }

    @Test func errorsInADescriptionNameTheDescriptionFile() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let desc = dir.write("Dev.desc", "N: Dev\nA: 00 0\n")
        let events = dir.write("Dev.tap.events", "E: 0.000000 0000 0000 0\n")
        #expect(recordingError { _ = try RecordingLoader.load(path: events) } ==
            RecordingError(file: desc, line: 2, message: "expected `A: <code> <min> <max> <fuzz> <flat> [<resolution>]`, found 2 fields"))
    }
}

@Suite struct DescriptionDiscoveryTests {
    @Test func longestDeviceNamePrefixWins() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        dir.write("Pad.desc", "N: Plain Pad\nA: 00 0 100 0 0\n")
        dir.write("Pad.hp8470p.desc", "N: Dotted Pad\nA: 00 0 100 0 0\n")
        let events = "E: 0.000000 0003 0000 5\nE: 0.000000 0000 0000 0\n"
        let dotted = dir.write("Pad.hp8470p.two-finger-scroll.events", events)
        let plain = dir.write("Pad.leftmove.events", events)
        let bare = dir.write("Pad.events", events)
        #expect(try RecordingLoader.load(path: dotted)[0].description.name == "Dotted Pad")
        #expect(try RecordingLoader.load(path: plain)[0].description.name == "Plain Pad")
        #expect(try RecordingLoader.load(path: bare)[0].description.name == "Plain Pad")
        #expect(RecordingLoader.siblingDescription(for: dotted) == dir.path + "/Pad.hp8470p.desc")
    }

    @Test func explicitDescriptionPathIsUsed() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let desc = dir.write("elsewhere.txt", "N: Given\nA: 00 0 100 0 0 4\n")
        let events = dir.write("Unrelated.events", "E: 0.000000 0003 0000 5\nE: 0.000000 0000 0000 0\n")
        let recording = try RecordingLoader.load(path: events, descriptionPath: desc)[0]
        #expect(recording.description.name == "Given")
        #expect(recording.description.absInfo[.absX]?.resolution == 4)
        #expect(recording.warnings.isEmpty)
    }

    @Test func eventsWithoutAnyDescriptionInferRangesAndWarn() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.write("Lonely.tap.events", """
            E: 0.000000 0003 002f 0
            E: 0.000000 0003 0039 12
            E: 0.000000 0003 0035 300
            E: 0.000000 0003 0036 40
            E: 0.000000 0001 014a 1
            E: 0.000000 0000 0000 0
            E: 0.010000 0003 0035 900
            E: 0.010000 0003 0036 20
            E: 0.010000 0000 0000 0
            E: 0.020000 0003 0039 -1
            E: 0.020000 0001 014a 0
            E: 0.020000 0000 0000 0
            """)
        let recording = try RecordingLoader.load(path: path)[0]
        let d = recording.description
        #expect(d.name == "Lonely")
        #expect(d.absInfo[.absMTPositionX] == AbsInfo(minimum: 300, maximum: 900))
        #expect(d.absInfo[.absMTPositionY] == AbsInfo(minimum: 20, maximum: 40))
        #expect(d.supports(.key, .btnTouch) && d.supports(.abs, .absMTTrackingID) && !d.supports(.key, .btnLeft))
        #expect(d.multitouchProtocol == .typeB)
        #expect(recording.warnings.count == 1)
        #expect(recording.warnings.first?.contains("no device description") == true)
        #expect(ReplayStats.replay(recording).realTouchesBegan == 1)
    }

    @Test func corpusFilesFindTheirDescriptions() throws {
        let path = Corpus.path("SynPS2 Synaptics TouchPad.hp8470p.two-finger-scroll-vertical.events")
        let recording = try RecordingLoader.load(path: path)[0]
        #expect(recording.description.path?.hasSuffix("SynPS2 Synaptics TouchPad.hp8470p.desc") == true)
        #expect(recording.description.name == "SynPS/2 Synaptics TouchPad")
        #expect(recording.description.absInfo[.absMTPositionX] == AbsInfo(minimum: 1472, maximum: 5728))
        let egalax = try RecordingLoader.load(path: Corpus.path("eGalax Inc. USB TouchController.events"))[0]
        #expect(egalax.description.path?.hasSuffix("eGalax Inc. USB TouchController.desc") == true)
    }
}

let libinputRecord = """
    version: 1
    ndevices: 2
    libinput:
      version: "1.25.0"
    devices:
    - node: /dev/input/event5
      evdev:
        # Name: Test Touchpad
        name: "Test Touchpad"
        id: [17, 2, 7, 433]
        codes:
          0: [0, 1, 2, 3] # EV_SYN
          1: [272, 325, 330, 333] # EV_KEY
          3: {0: [0, 0, 1000, 0, 0, 12], 1: [0, 0, 500, 0, 0, 12], 47: [0, 0, 1, 0, 0, 0], 53: [0, 0, 1000, 0, 0, 12], 54: [0, 0, 500, 0, 0, 12], 57: [0, 0, 65535, 0, 0, 0]}
        properties: [0, 2]
      events:
      - evdev:
        - [  0,      0,   3,  47,       0] # EV_ABS / ABS_MT_SLOT 0
        - [  0,      0,   3,  57,      10] # EV_ABS / ABS_MT_TRACKING_ID 10
        - [  0,      0,   3,  53,     120]
        - [  0,      0,   3,  54,      60]
        - [  0,      0,   1, 330,       1]
        - [  0,      0,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms
      - libinput:
        - {time: 0.000000, type: POINTER_MOTION}
      - evdev:
        - [  0,  12000,   3,  57,      -1]
        - [  0,  12000,   1, 330,       0]
        - [  0,  12000,   0,   0,       0]
    - node: /dev/input/event6
      evdev:
        name: "Test Screen"
        id: [3, 1, 2, 3]
        codes:
          1: [330]
          3: [0, 1]
        absinfo:
          0: [0, 4095, 0, 0, 0]
          1: [0, 2047, 0, 0, 0]
        properties: [1]
      events:
      - evdev:
        - [  1,      5,   3,   0,     100]
        - [  1,      5,   1, 330,       1]
        - [  1,      5,   0,   0,       0]
    """

@Suite struct LibinputRecordTests {
    @Test func devicesBecomeRecordings() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.write("record.yml", libinputRecord)
        let recordings = try RecordingLoader.load(path: path)
        try #require(recordings.count == 2)
        let pad = recordings[0].description
        #expect(pad.name == "Test Touchpad")
        #expect([pad.bus, pad.vendor, pad.product, pad.version] == [17, 2, 7, 433])
        #expect(pad.properties == [.pointer, .buttonpad])
        #expect(pad.absInfo[.absMTPositionX] == AbsInfo(minimum: 0, maximum: 1000, resolution: 12))
        #expect(pad.multitouchProtocol == .typeB && pad.slotCount == 2)
        #expect(pad.supports(.key, .btnToolDoubleTap))
        #expect(recordings[0].events.count == 9)
        #expect(recordings[0].events[6] == RawEvent(time: Timestamp(microseconds: 12000), type: .abs, code: .absMTTrackingID, value: -1))
        let stats = ReplayStats.replay(recordings[0])
        #expect(stats.realTouchesBegan == 1 && stats.unclosed.isEmpty && stats.cancelled == 0)
        let screen = recordings[1].description
        #expect(screen.name == "Test Screen" && screen.properties == [.direct])
        #expect(screen.absInfo[.absX] == AbsInfo(minimum: 0, maximum: 4095))
        #expect(screen.multitouchProtocol == .singleTouch)
        #expect(recordings[1].events.first?.time == Timestamp(microseconds: 1_000_005))
    }

    @Test(arguments: [
        ("devices:\n- evdev: {name: x\n", 3, "broken YAML: "),
        ("version: 1\nndevices: 1\n", 1, "expected a `devices:` list (libinput record format)"),
        ("devices: 3\n", 1, "expected `devices:` to be a list"),
        ("devices:\n- events: []\n", 2, "expected `evdev:` (name, id, codes, absinfo) in the device"),
        ("devices:\n- evdev: {name: x, id: [1, 2]}\n", 2, "expected `id: [bus, vendor, product, version]`"),
        ("devices:\n- evdev: {name: x}\n  events:\n  - evdev:\n    - [0, 0, 3, 0]\n", 5, "expected an event `[sec, usec, type, code, value]`"),
        ("devices:\n- evdev: {name: x}\n  events:\n  - evdev:\n    - [0, 0, 3, 0, 4294967296]\n", 5, "expected a event value within 32 bits, found 4294967296"),
        ("devices:\n- evdev: {name: x}\n  events:\n  - evdev:\n    - [-1, 0, 3, 0, 1]\n", 5, "expected a time of 0 or more with microseconds below 1000000, found -1.0"),
        ("devices:\n- evdev: {name: x}\n  events:\n  - evdev:\n    - [0, 0, 70000, 0, 1]\n", 5, "expected an event type in 0...65535, found 70000"),
        ("devices:\n- evdev: {name: x}\n  events:\n  - evdev:\n    - [0, 0, abc, 0, 1]\n", 5, "expected an integer event type, found `abc`"),
        ("devices:\n- evdev:\n    name: x\n    absinfo: {0: [0, 1]}\n", 4, "expected `[min, max, fuzz, flat, resolution]` for axis 0"),
    ])
    func malformedYAMLNamesTheLine(text: String, line: Int, message: String) {
        let error = recordingError { _ = try RecordingLoader.parseLibinputRecord(text, path: "r.yml") }
        #expect(error?.file == "r.yml")
        #expect(error?.line == line)
        #expect(error?.message.hasPrefix(message) == true, "\(String(describing: error))")
    }

    @Test func recordWithoutEventsIsAnError() {
        let error = recordingError {
            _ = try RecordingLoader.parseLibinputRecord("devices:\n- evdev: {name: x}\n  events: []\n", path: "r.yml")
        }
        #expect(error == RecordingError(file: "r.yml", line: nil,
                                        message: "no events: expected `events:` with `- evdev:` lists under a device"))
    }
}

/// The byte-level `E:` reader agrees with the general path on every line of the corpus and on odd lines.
@Suite struct FastEventLineTests {
    @Test func agreesWithTheGeneralPathOnTheWholeCorpus() throws {
        var checked = 0
        for file in Corpus.recordingPaths {
            let text = try String(contentsOfFile: Corpus.root + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("E:") {
                let general = try EvemuParser(file: "x").parse(String(line)).events
                let fast = EvemuParser.fastEvent(line.utf8)
                #expect(fast.map { [$0] } == general, "\(file): \(line)")
                checked += 1
            }
        }
        #expect(checked > 60_000)
    }

    @Test(arguments: ["E: 1.5 0003 0035 -12", "E:\t1.000001\t3\t35\t7\r", "E: 0.0 0 0 0",
                      "E: 0.000001 0003 0039 0001\t# EV_ABS / ABS_MT_TRACKING_ID   1", "E: 1.5 0003 0035 12 # note"])
    func acceptsValidVariants(line: String) throws {
        let general = try EvemuParser(file: "x").parse(line).events
        #expect(EvemuParser.fastEvent(Substring(line).utf8).map { [$0] } == general)
    }

    @Test(arguments: ["E: 1.5 0003 0035", "E: 1.1234567 3 35 1", "E: 1.5 10000 35 1",
                      "E: 1.5 3 35 2147483648", "E: -1.5 3 35 1", "E: 1.5 3 35 +1", " E: 1.5 3 35 1", "E: 1.5 3 35 1 9",
                      "E: 9000000000001.0 3 35 1"])
    func leavesAnythingUnusualToTheGeneralPath(line: String) {
        #expect(EvemuParser.fastEvent(Substring(line).utf8) == nil)
    }
}
