#if canImport(Glibc)
import Glibc
#endif
import GestureCore
import GesturePosix

/// One device's recorded stream: its description and its events in order.
public struct Recording: Sendable {
    public var description: DeviceDescription
    public var events: [RawEvent]
    /// Things the reader had to guess (no description, inferred ranges...), for stderr.
    public var warnings: [String]
    /// The file the events came from.
    public var source: String

    public init(description: DeviceDescription, events: [RawEvent], warnings: [String] = [], source: String) {
        self.description = description
        self.events = events
        self.warnings = warnings
        self.source = source
    }
}

/// A malformed recording: names the file and line and says what was expected.
public struct RecordingError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    public var line: Int?
    public var message: String
    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }
    /// `file:line: message`
    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}

/// Reads recordings from files: evemu (with its own header, with a `<Device>.desc` beside it, with a
/// description given explicitly, or with no description at all) and `libinput record` YAML.
public enum RecordingLoader {
    /// Loads an evemu file (with or without header; a `<Device>.desc` beside `<Device>.<label>.events` is
    /// found automatically) or a `libinput record` YAML file (one recording per device).
    ///
    /// Description precedence for evemu: `descriptionPath`, then the file's own header, then the
    /// `.desc` found beside it (longest name prefix first), then ranges inferred from the events
    /// (with a warning).
    public static func load(path: String, descriptionPath: String? = nil) throws(RecordingError) -> [Recording] {
        let bytes = try readText(path)
        switch detectFormat(bytes) {
        case .empty:
            throw RecordingError(file: path, line: nil,
                                 message: "empty file: expected an evemu recording (`N:`…`E:` lines) or a libinput record YAML")
        case .libinputRecord:
            return try LibinputRecordParser(file: path).parse(bytes: bytes)
        case .evemu:
            return [try loadEvemu(path: path, bytes: bytes, descriptionPath: descriptionPath)]
        }
    }

    /// Parses evemu text already in memory (`path` names it in messages and finds no `.desc`).
    public static func parseEvemu(_ text: String, path: String, description: DeviceDescription? = nil) throws(RecordingError) -> Recording {
        let result = try EvemuParser(file: path).parse(text)
        guard !result.events.isEmpty || result.header.isPresent || description != nil else { throw noEvents(path) }
        if let description { return Recording(description: description, events: result.events, source: path) }
        if result.header.isPresent {
            return Recording(description: result.header.description(path: path), events: result.events, source: path)
        }
        return inferred(path: path, events: result.events)
    }

    /// Parses `libinput record` YAML already in memory.
    public static func parseLibinputRecord(_ text: String, path: String) throws(RecordingError) -> [Recording] {
        try LibinputRecordParser(file: path).parse(text)
    }

    /// The `.desc` file beside an events-only file: `<Device>.desc` for `<Device>.<label>.events`, where the
    /// device name may itself contain dots, so the longest prefix that exists wins.
    public static func siblingDescription(for path: String) -> String? {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        var name = Substring(slash.map { path[path.index(after: $0)...] } ?? path[...])
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = name[..<dot] }
        var parts = name.split(separator: ".", omittingEmptySubsequences: false)
        while !parts.isEmpty {
            let candidate = directory + parts.joined(separator: ".") + ".desc"
            if candidate != path && fileExists(candidate) { return candidate }
            parts.removeLast()
        }
        return nil
    }

    // MARK: - Private

    private enum Format { case empty, evemu, libinputRecord }

    private static func loadEvemu(path: String, bytes: [UInt8], descriptionPath: String?) throws(RecordingError) -> Recording {
        var recording = try loadEvemuEvents(path: path, bytes: bytes, descriptionPath: descriptionPath)
        if recording.events.isEmpty {
            recording.warnings.append("\(path): 0 events: a device description only (as `gestured replay --forward` writes for a device whose touches were all taken)")
        }
        return recording
    }

    private static func loadEvemuEvents(path: String, bytes: [UInt8], descriptionPath: String?) throws(RecordingError) -> Recording {
        let result = try parseEvemu(bytes, path: path)
        // A device description with no events is a valid recording of nothing: what `gestured replay
        // --forward` writes for a device whose touches were all taken. Without a header it is not one.
        guard !result.events.isEmpty || result.header.isPresent else { throw noEvents(path) }
        if let descriptionPath {
            return Recording(description: try readDescription(descriptionPath), events: result.events, source: path)
        }
        if result.header.isPresent {
            return Recording(description: result.header.description(path: path), events: result.events, source: path)
        }
        if let sibling = siblingDescription(for: path) {
            return Recording(description: try readDescription(sibling), events: result.events, source: path)
        }
        return inferred(path: path, events: result.events)
    }

    private static func readDescription(_ path: String) throws(RecordingError) -> DeviceDescription {
        let result = try parseEvemu(try readText(path), path: path)
        guard result.header.isPresent else {
            throw RecordingError(file: path, line: nil, message: "expected a device description (`N:`, `I:`, `B:`, `A:` lines), found none")
        }
        return result.header.description(path: path)
    }

    /// No description anywhere: the codes seen become the supported codes and each EV_ABS axis spans
    /// the values seen.
    private static func inferred(path: String, events: [RawEvent]) -> Recording {
        var codes: [EventType: Set<EventCode>] = [:]
        var ranges: [EventCode: (Int32, Int32)] = [:]
        for event in events {
            codes[event.type, default: []].insert(event.code)
            if event.type == .abs {
                let range = ranges[event.code] ?? (event.value, event.value)
                ranges[event.code] = (min(range.0, event.value), max(range.1, event.value))
            }
        }
        var absInfo: [EventCode: AbsInfo] = [:]
        for (code, range) in ranges { absInfo[code] = AbsInfo(minimum: range.0, maximum: range.1) }
        if absInfo[.absMTSlot] == nil && codes[.abs]?.contains(.absMTTrackingID) == true {
            absInfo[.absMTSlot] = AbsInfo(minimum: 0, maximum: 0)
        }
        let name = EvemuParser.Header.fallbackName(path: path)
        let description = DeviceDescription(name: name, codes: codes, absInfo: absInfo, path: path)
        let warning = "\(path): no device description (no header, no .desc beside it): axis ranges inferred from the events, resolution unknown; give the description for exact units"
        return Recording(description: description, events: events, warnings: [warning], source: path)
    }

    private static func noEvents(_ path: String) -> RecordingError {
        RecordingError(file: path, line: nil, message: "no events: expected `E: <sec>.<usec> <type> <code> <value>` lines")
    }

    private static func parseEvemu(_ bytes: [UInt8], path: String) throws(RecordingError) -> EvemuParser.Result {
        var result: Result<EvemuParser.Result, RecordingError>?
        bytes.withUnsafeBufferPointer { buffer in
            result = Result { () throws(RecordingError) in try EvemuParser(file: path).parse(bytes: buffer) }
        }
        return try result!.get()
    }

    /// The file's bytes, checked to be text: UTF-8 without NUL.
    private static func readText(_ path: String) throws(RecordingError) -> [UInt8] {
        let data: [UInt8]
        switch readWholeFile(path) {
        case .success(let bytes): data = bytes
        case .failure(let error):
            throw RecordingError(file: path, line: nil, message: "cannot read the file: \(String(cString: strerror(error.code)))")
        }
        // Nearly always plain ASCII without NUL: checked eight bytes at a time.
        if isASCIIWithoutNUL(data) { return data }
        // Binary garbage: a NUL byte, or bytes that are not UTF-8.
        var line = 1
        for byte in data {
            if byte == 0 {
                throw RecordingError(file: path, line: line, message: "binary data (a NUL byte): expected a text recording")
            }
            if byte == UInt8(ascii: "\n") { line += 1 }
        }
        guard String(validating: data, as: UTF8.self) != nil else {
            throw RecordingError(file: path, line: firstInvalidUTF8Line(data), message: "binary data (not UTF-8 text): expected a text recording")
        }
        return data
    }

    /// No byte is NUL or above 0x7f.
    static func isASCIIWithoutNUL(_ data: [UInt8]) -> Bool {
        data.withUnsafeBytes { raw in
            let words = raw.count / 8
            let high: UInt64 = 0x8080_8080_8080_8080, ones: UInt64 = 0x0101_0101_0101_0101
            var found: UInt64 = 0
            for index in 0..<words {
                let word = raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
                // A high bit set, or a zero byte (the classic "has a zero byte" test).
                found |= word & high
                found |= (word &- ones) & ~word & high
            }
            if found != 0 { return false }
            for index in (words * 8)..<raw.count where raw[index] == 0 || raw[index] >= 0x80 { return false }
            return true
        }
    }

    private static func firstInvalidUTF8Line(_ data: [UInt8]) -> Int? {
        var line = 1
        for bytes in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if String(validating: bytes, as: UTF8.self) == nil { return line }
            line += 1
        }
        return nil
    }

    /// The format from the first line that says something. Read from the UTF-8 bytes, line breaks as
    /// `Character.isNewline` has them (LF, VT, FF, CR, NEL, LS, PS): only the first lines that say
    /// something are looked at, and no `String` is made of them (splitting the text into Characters
    /// cost more than reading the whole file).
    private static func detectFormat(_ bytes: [UInt8]) -> Format {
        bytes.withUnsafeBufferPointer { b in
            /// The length of the line break at `i`, 0 if none.
            func lineBreak(at i: Int) -> Int {
                let byte = b[i]
                if byte >= 0x0a && byte <= 0x0d { return 1 }
                if byte == 0xc2, i + 1 < b.count, b[i + 1] == 0x85 { return 2 }
                if byte == 0xe2, i + 2 < b.count, b[i + 1] == 0x80, b[i + 2] == 0xa8 || b[i + 2] == 0xa9 { return 3 }
                return 0
            }
            var start = 0
            while start < b.count {
                var end = start
                while end < b.count && lineBreak(at: end) == 0 { end += 1 }
                var first = start
                while first < end && (b[first] == UInt8(ascii: " ") || b[first] == UInt8(ascii: "\t")) { first += 1 }
                if first < end && b[first] != UInt8(ascii: "#") {
                    var colon = first
                    while colon < end && b[colon] != UInt8(ascii: ":") { colon += 1 }
                    guard colon < end else { return .evemu }
                    let key = String(decoding: UnsafeBufferPointer(rebasing: b[first..<colon]), as: UTF8.self)
                    if ["N", "I", "P", "B", "A", "E"].contains(key) { return .evemu }
                    if ["version", "ndevices", "libinput", "system", "devices"].contains(key) { return .libinputRecord }
                    return .evemu
                }
                start = end < b.count ? end + lineBreak(at: end) : end
            }
            return .empty
        }
    }
}
