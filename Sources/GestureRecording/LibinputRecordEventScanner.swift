#if canImport(Glibc)
import Glibc
#endif
import GestureCore

/// The fast path of `LibinputRecordParser`: the `events:` sections of a libinput record read straight
/// from the bytes, so that libyaml only reads the rest (the devices' descriptions, a few hundred lines).
///
/// It reads only the shape `libinput record` writes, each frame one `- evdev:` item whose events are
/// `- [sec, usec, type, code, value]` lines (comments after them allowed):
///
///     events:
///     - evdev:
///       - [  0,      0,   3,  57,    1183] # EV_ABS / ABS_MT_TRACKING_ID  1183
///
/// Those lines become empty lines of the header text given to libyaml (so every line keeps its
/// number); other frames (`- libinput:`) are left in it. Anything else inside an `evdev` frame (another
/// layout, a number it would have to interpret, a value out of range) gives up: the whole file then
/// goes through the full YAML reader, which names the error at its line as before.
struct LibinputRecordEventScanner {
    /// One `events:` key whose `evdev` frames were read here.
    struct Section {
        /// 1-based line of the `events:` key.
        var line: Int
        var events: [RawEvent]
    }

    /// The text for libyaml (the sections' `evdev` frames emptied), and the sections; nil to read
    /// the file with the full YAML reader.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (header: [UInt8], sections: [Section])? {
        var scanner = LibinputRecordEventScanner(bytes: bytes)
        guard scanner.run() else { return nil }
        return (scanner.header, scanner.sections)
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var header: [UInt8] = []
    private var sections: [Section] = []

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        header.reserveCapacity(4096)
    }

    private enum Place {
        /// Not in an `events:` section.
        case outside
        /// After an `events:` key at indentation `keyIndent`, before its first item.
        case awaitingItems(keyIndent: Int, line: Int)
        /// In a section whose items are at indentation `itemIndent`. `frame`: what the current item is.
        case items(itemIndent: Int, frame: Frame)
    }
    private enum Frame {
        /// An `evdev` frame (emptied here); `eventIndent` once its first event was read.
        case evdev(eventIndent: Int?, events: Int)
        /// Another frame, left to libyaml.
        case other
    }

    private static let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), hash = UInt8(ascii: "#")
    private static let newline = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")

    private mutating func run() -> Bool {
        let n = bytes.count
        var start = 0
        var lineNumber = 0
        var place = Place.outside
        while start < n || (start == n && lineNumber == 0) {
            lineNumber += 1
            // memchr: the C library's vectorised search for the line's end.
            let end = start < n ? memchr(bytes.baseAddress! + start, Int32(Self.newline), n - start)
                .map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - bytes.baseAddress! } ?? n : n
            var indent = start
            while indent < end && bytes[indent] == Self.space { indent += 1 }
            let content = indent
            let indentation = indent - start
            let blank = content == end || bytes[content] == Self.hash || bytes[content] == Self.cr
                || (bytes[content] == Self.tab && Self.onlyBlanks(bytes, content, end))
            var keep = true
            lineLoop: while true {
                switch place {
                case .outside:
                    if !blank && Self.isEventsKey(bytes, content, end) {
                        place = .awaitingItems(keyIndent: indentation, line: lineNumber)
                    }
                case .awaitingItems(let keyIndent, let line):
                    if blank { break lineLoop }
                    if bytes[content] == Self.tab { return false }
                    if indentation >= keyIndent && Self.startsItem(bytes, content, end) {
                        sections.append(Section(line: line, events: []))
                        place = .items(itemIndent: indentation, frame: .other)
                        continue lineLoop
                    }
                    // No items here (null, a mapping, ...): libyaml reads it.
                    place = .outside
                    continue lineLoop
                case .items(let itemIndent, let frame):
                    if blank {
                        if case .evdev = frame { keep = false }
                        break lineLoop
                    }
                    if bytes[content] == Self.tab { return false }
                    if indentation < itemIndent || (indentation == itemIndent && !Self.startsItem(bytes, content, end)) {
                        // The section ended; an `evdev` frame needs events (else libyaml reads a null).
                        if case .evdev(_, let count) = frame, count == 0 { return false }
                        place = .outside
                        continue lineLoop
                    }
                    if indentation == itemIndent {
                        if case .evdev(_, let count) = frame, count == 0 { return false }
                        if Self.isEvdevItem(bytes, content, end) {
                            place = .items(itemIndent: itemIndent, frame: .evdev(eventIndent: nil, events: 0))
                            keep = false
                        } else {
                            place = .items(itemIndent: itemIndent, frame: .other)
                        }
                        break lineLoop
                    }
                    switch frame {
                    case .other:
                        break lineLoop
                    case .evdev(let eventIndent, let count):
                        // Events sit deeper than `evdev:` (item indent + 2), all at one indentation.
                        if let eventIndent, eventIndent != indentation { return false }
                        if eventIndent == nil && indentation < itemIndent + 2 { return false }
                        guard let event = Self.event(bytes, content, end) else { return false }
                        sections[sections.count - 1].events.append(event)
                        place = .items(itemIndent: itemIndent, frame: .evdev(eventIndent: indentation, events: count + 1))
                        keep = false
                        break lineLoop
                    }
                }
                break lineLoop
            }
            if keep {
                header.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
            }
            if end < n { header.append(Self.newline) }
            start = end + 1
            if end >= n { break }
        }
        if case .items(_, .evdev(_, 0)) = place { return false }
        sections.removeAll { $0.events.isEmpty }
        return true
    }

    private static func onlyBlanks(_ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ end: Int) -> Bool {
        var i = from
        while i < end {
            if b[i] == hash { return true }
            if b[i] != space && b[i] != tab && b[i] != cr { return false }
            i += 1
        }
        return true
    }

    /// Spaces, an optional comment and an optional CR to the end of the line.
    private static func restIsBlank(_ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ end: Int) -> Bool {
        var i = from
        while i < end && (b[i] == space || b[i] == tab) { i += 1 }
        if i == end { return true }
        if b[i] == cr { return i + 1 == end }
        // A comment needs a blank before it.
        return b[i] == hash && i > from
    }

    private static func matches(_ b: UnsafeBufferPointer<UInt8>, _ at: Int, _ end: Int, _ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard end - at >= count else { return false }
        let p = word.utf8Start
        for k in 0..<count where b[at + k] != p[k] { return false }
        return true
    }

    /// `events:` with nothing after it.
    private static func isEventsKey(_ b: UnsafeBufferPointer<UInt8>, _ at: Int, _ end: Int) -> Bool {
        matches(b, at, end, "events:") && restIsBlank(b, at + 7, end)
    }

    /// `- ` (or `-` ending the line): a block sequence item.
    private static func startsItem(_ b: UnsafeBufferPointer<UInt8>, _ at: Int, _ end: Int) -> Bool {
        b[at] == UInt8(ascii: "-") && (at + 1 == end || b[at + 1] == space || b[at + 1] == cr)
    }

    /// `- evdev:` with nothing after it.
    private static func isEvdevItem(_ b: UnsafeBufferPointer<UInt8>, _ at: Int, _ end: Int) -> Bool {
        matches(b, at, end, "- evdev:") && restIsBlank(b, at + 8, end)
    }

    /// `- [sec, usec, type, code, value]` of plain decimal integers in range, or nil.
    private static func event(_ b: UnsafeBufferPointer<UInt8>, _ at: Int, _ end: Int) -> RawEvent? {
        guard matches(b, at, end, "- [") else { return nil }
        var i = at + 3
        var fields: (Int64, Int64, Int64, Int64, Int64) = (0, 0, 0, 0, 0)
        for index in 0..<5 {
            while i < end && b[i] == space { i += 1 }
            var negative = false
            if i < end && b[i] == UInt8(ascii: "-") {
                negative = true
                i += 1
            }
            var value: Int64 = 0
            var digits = 0
            while i < end, b[i] >= 48, b[i] <= 57 {
                value = value * 10 + Int64(b[i] - 48)
                digits += 1
                i += 1
                if digits > 15 { return nil }
            }
            guard digits > 0 else { return nil }
            if negative { value = -value }
            switch index {
            case 0: fields.0 = value
            case 1: fields.1 = value
            case 2: fields.2 = value
            case 3: fields.3 = value
            default: fields.4 = value
            }
            while i < end && b[i] == space { i += 1 }
            guard i < end, b[i] == (index < 4 ? UInt8(ascii: ",") : UInt8(ascii: "]")) else { return nil }
            i += 1
        }
        guard restIsBlank(b, i, end) else { return nil }
        let (seconds, micros, type, code, value) = fields
        guard seconds >= 0, seconds <= 9_000_000_000_000, micros >= 0, micros < 1_000_000,
              type >= 0, type <= 0xffff, code >= 0, code <= 0xffff,
              value >= Int64(Int32.min), value <= Int64(Int32.max) else { return nil }
        return RawEvent(time: Timestamp(seconds: seconds, microseconds: micros), type: EventType(UInt16(type)),
                        code: EventCode(UInt16(code)), value: Int32(value))
    }
}
