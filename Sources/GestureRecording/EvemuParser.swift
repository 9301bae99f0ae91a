#if canImport(Glibc)
import Glibc
#endif
import GestureCore

/// Parses the evemu text format (`evemu-describe` / `evemu-record`):
///
///     # comment (also after data on a line)
///     N: <name>
///     I: <bus> <vendor> <product> <version>          (hex)
///     P: <property bitmask bytes>                    (hex, continued over several P: lines)
///     B: <type> <code bitmask bytes>                 (hex, continued over several B: lines per type)
///     A: <code> <min> <max> <fuzz> <flat> [<resolution>]   (code hex, the rest decimal)
///     E: <sec>.<usec> <type> <code> <value>          (type / code hex, value decimal)
struct EvemuParser {
    /// What the header lines said; nil fields were absent.
    struct Header {
        var name: String?
        var ids: [UInt16] = []
        var properties: Set<InputProperty> = []
        var codes: [EventType: Set<EventCode>] = [:]
        var absInfo: [EventCode: AbsInfo] = [:]
        /// Whether any N:, I:, P:, B: or A: line was seen.
        var isPresent = false

        func description(path: String) -> DeviceDescription {
            var codes = codes
            for code in absInfo.keys { codes[.abs, default: []].insert(code) }
            return DeviceDescription(
                name: name ?? Self.fallbackName(path: path),
                bus: ids.count > 0 ? ids[0] : 0, vendor: ids.count > 1 ? ids[1] : 0,
                product: ids.count > 2 ? ids[2] : 0, version: ids.count > 3 ? ids[3] : 0,
                properties: properties, codes: codes, absInfo: absInfo, path: path)
        }

        static func fallbackName(path: String) -> String {
            let file = path.split(separator: "/").last.map(String.init) ?? path
            return file.split(separator: ".").first.map(String.init) ?? file
        }
    }

    struct Result {
        var header: Header
        var events: [RawEvent]
        var lineCount: Int
    }

    let file: String
    /// false: every line through the general path (tests compare both readings).
    var usesFastPaths = true

    func parse(_ text: String) throws(RecordingError) -> Result {
        var text = text
        var result: Swift.Result<Result, RecordingError>?
        text.withUTF8 { bytes in result = Swift.Result { () throws(RecordingError) in try parse(bytes: bytes) } }
        return try result!.get()
    }

    /// Where the header's bitmasks continue (`B:` per type, `P:`) over several lines.
    private struct MaskOffsets {
        var bitmask: [UInt16: Int] = [:]
        var property = 0
    }

    /// Parses UTF-8 text line by line from its bytes. Almost every line is a well-formed `E:` line,
    /// read where it lies (`fastEvent`); comment and blank lines are skipped there too. Anything else
    /// (the header, an unusual or broken line) becomes a string for the general path, which names
    /// the error.
    func parse(bytes: UnsafeBufferPointer<UInt8>) throws(RecordingError) -> Result {
        var header = Header()
        var events: [RawEvent] = []
        events.reserveCapacity(bytes.count / 40)
        var offsets = MaskOffsets()
        var lineNumber = 0
        var start = 0
        let n = bytes.count
        let newline = UInt8(ascii: "\n")
        while true {
            lineNumber += 1
            // memchr: the C library's vectorised search for the line's end.
            let end = start < n ? memchr(bytes.baseAddress! + start, Int32(newline), n - start)
                .map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - bytes.baseAddress! } ?? n : n
            if usesFastPaths, let event = Self.fastEvent(bytes, from: start, to: end) {
                events.append(event)
            } else if !usesFastPaths || (!Self.isBlankOrComment(bytes, from: start, to: end)
                        && !Self.fastHeaderLine(bytes, from: start, to: end, &header, &offsets)) {
                let line = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                try parseLine(line[...], lineNumber, &header, &events, &offsets)
            }
            if end >= n { break }
            start = end + 1
        }
        return Result(header: header, events: events, lineCount: lineNumber)
    }

    /// A plain `B:`, `P:` or `A:` line (fields as evemu writes them: hex type, code and bitmask bytes,
    /// decimal axis values; no comment) read from its bytes, with what the general path would make of
    /// it: true when read, false (nothing changed) to leave the line to the general path.
    private static func fastHeaderLine(_ b: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int,
                                       _ header: inout Header, _ offsets: inout MaskOffsets) -> Bool {
        guard end - start > 3, b[start + 1] == UInt8(ascii: ":"), isBlank(b[start + 2]) else { return false }
        let tag = b[start]
        guard tag == UInt8(ascii: "B") || tag == UInt8(ascii: "P") || tag == UInt8(ascii: "A") else { return false }
        // First every field checked, so that a line left to the general path has changed nothing.
        var count = 0
        var i = start + 2
        while true {
            while i < end && isBlank(b[i]) { i += 1 }
            if i == end { break }
            let fieldStart = i
            while i < end && !isBlank(b[i]) { i += 1 }
            let length = i - fieldStart
            let ok: Bool
            if tag == UInt8(ascii: "A") && count > 0 {
                var digits = fieldStart
                if b[digits] == UInt8(ascii: "-") { digits += 1 }
                ok = i > digits && i - digits <= 9 && (digits..<i).allSatisfy { b[$0] >= 48 && b[$0] <= 57 }
            } else {
                let maximum = (tag != UInt8(ascii: "P") && count == 0) ? 4 : 2
                ok = length <= maximum && (fieldStart..<i).allSatisfy { hexDigit(b[$0]) != nil }
            }
            guard ok else { return false }
            count += 1
        }
        switch tag {
        case UInt8(ascii: "B"): guard count >= 1 else { return false }
        case UInt8(ascii: "A"): guard count == 5 || count == 6 else { return false }
        default: break
        }
        // Then read, as the general path does.
        header.isPresent = true
        var values: (Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0)
        var type = 0, offset = 0
        var index = 0
        i = start + 2
        while true {
            while i < end && isBlank(b[i]) { i += 1 }
            if i == end { break }
            let fieldStart = i
            while i < end && !isBlank(b[i]) { i += 1 }
            if tag == UInt8(ascii: "A") && index > 0 {
                var negative = false, digits = fieldStart, value = 0
                if b[digits] == UInt8(ascii: "-") { negative = true; digits += 1 }
                for k in digits..<i { value = value * 10 + Int(b[k] - 48) }
                if negative { value = -value }
                switch index {
                case 1: values.1 = value
                case 2: values.2 = value
                case 3: values.3 = value
                case 4: values.4 = value
                default: values.5 = value
                }
            } else {
                var value = 0
                for k in fieldStart..<i { value = value * 16 + Int(hexDigit(b[k])!) }
                if tag == UInt8(ascii: "P") {
                    for bit in 0..<8 where value & (1 << bit) != 0 {
                        let property = offsets.property * 8 + bit
                        if property <= Int(UInt16.max) { header.properties.insert(InputProperty(UInt16(property))) }
                    }
                    offsets.property += 1
                } else if tag == UInt8(ascii: "A") {
                    values.0 = value
                } else if index == 0 {
                    type = value
                    offset = offsets.bitmask[UInt16(type), default: 0]
                } else {
                    // Type 0's bitmask lists event types, not codes.
                    if type != 0 {
                        for bit in 0..<8 where value & (1 << bit) != 0 {
                            let code = offset * 8 + bit
                            if code <= Int(UInt16.max) {
                                header.codes[EventType(UInt16(type)), default: []].insert(EventCode(UInt16(code)))
                            }
                        }
                    }
                    offset += 1
                }
            }
            index += 1
        }
        if tag == UInt8(ascii: "B") { offsets.bitmask[UInt16(type)] = offset }
        if tag == UInt8(ascii: "A") {
            header.absInfo[EventCode(UInt16(values.0))] = AbsInfo(
                minimum: Int32(values.1), maximum: Int32(values.2), fuzz: Int32(values.3), flat: Int32(values.4),
                resolution: count > 5 ? Int32(values.5) : 0)
        }
        return true
    }

    @inline(__always)
    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    @inline(__always)
    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: byte - 48
        case 97...102: byte - 87
        case 65...70: byte - 55
        default: nil
        }
    }

    /// Blanks (space, tab, CR) up to the end of the line or a `#`.
    private static func isBlankOrComment(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Bool {
        var i = start
        while i < end {
            switch bytes[i] {
            case UInt8(ascii: "#"): return true
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): i += 1
            default: return false
            }
        }
        return true
    }

    /// The general path: one line that is not a well-formed `E:` line.
    private func parseLine(_ whole: Substring, _ lineNumber: Int, _ header: inout Header, _ events: inout [RawEvent],
                           _ offsets: inout MaskOffsets) throws(RecordingError) {
        var line = whole
        if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        guard let tag = fields.first else { return }
        let values = fields.dropFirst()
        switch tag {
        case "E:":
            events.append(try event(values, line: lineNumber))
        case "N:":
            header.isPresent = true
            let afterTag = line.drop { $0 == " " || $0 == "\t" }.dropFirst(2)
            header.name = afterTag.trimmingSpaces
        case "I:":
            header.isPresent = true
            guard values.count == 4 else {
                throw error(lineNumber, "expected `I: <bus> <vendor> <product> <version>` (4 hex numbers), found \(values.count) fields")
            }
            header.ids = try values.map { (field) throws(RecordingError) in try hex16(field, lineNumber, "id") }
        case "P:":
            header.isPresent = true
            for field in values {
                let byte = try hexByte(field, lineNumber, "property bitmask byte")
                for bit in 0..<8 where byte & (1 << bit) != 0 {
                    let value = offsets.property * 8 + bit
                    if value <= Int(UInt16.max) { header.properties.insert(InputProperty(UInt16(value))) }
                }
                offsets.property += 1
            }
        case "B:":
            header.isPresent = true
            guard let typeField = values.first else {
                throw error(lineNumber, "expected `B: <type> <bitmask bytes>` (hex), found nothing after `B:`")
            }
            let type = try hex16(typeField, lineNumber, "event type")
            var offset = offsets.bitmask[type, default: 0]
            for field in values.dropFirst() {
                let byte = try hexByte(field, lineNumber, "code bitmask byte")
                // Type 0's bitmask lists event types, not codes.
                if type != 0 {
                    for bit in 0..<8 where byte & (1 << bit) != 0 {
                        let code = offset * 8 + bit
                        if code <= Int(UInt16.max) {
                            header.codes[EventType(type), default: []].insert(EventCode(UInt16(code)))
                        }
                    }
                }
                offset += 1
            }
            offsets.bitmask[type] = offset
        case "A:":
            header.isPresent = true
            guard values.count == 5 || values.count == 6 else {
                throw error(lineNumber, "expected `A: <code> <min> <max> <fuzz> <flat> [<resolution>]`, found \(values.count) fields")
            }
            let code = try hex16(values[values.startIndex], lineNumber, "axis code")
            let numbers = try values.dropFirst().map { (field) throws(RecordingError) in
                try decimal32(field, lineNumber, "axis value")
            }
            header.absInfo[EventCode(code)] = AbsInfo(
                minimum: numbers[0], maximum: numbers[1], fuzz: numbers[2], flat: numbers[3],
                resolution: numbers.count > 4 ? numbers[4] : 0)
        default:
            throw error(lineNumber, "expected a line starting with `N:`, `I:`, `P:`, `B:`, `A:`, `E:` or `#`, found `\(tag.prefix(20))`")
        }
    }

    /// `fastEvent(_:from:to:)` of one line's bytes.
    static func fastEvent(_ line: Substring.UTF8View) -> RawEvent? {
        let result: RawEvent?? = line.withContiguousStorageIfAvailable { fastEvent($0, from: 0, to: $0.count) }
        return result ?? nil
    }

    /// A well-formed `E: <sec>.<usec> <type> <code> <value>` line (`bytes[start..<end]`) read
    /// straight from its UTF-8 bytes, or nil for anything else (the general path then parses it or
    /// reports the error).
    @inline(__always)
    static func fastEvent(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> RawEvent? {
        let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
        var i = start
        let n = end
        guard n - start > 3, bytes[start] == UInt8(ascii: "E"), bytes[start + 1] == UInt8(ascii: ":") else { return nil }
        i = start + 2
        func skipBlanks() -> Bool {
            let start = i
            while i < n, bytes[i] == space || bytes[i] == tab { i += 1 }
            return i > start
        }
        func decimal(maxDigits: Int) -> (value: Int64, digits: Int)? {
            var value: Int64 = 0
            var digits = 0
            while i < n, bytes[i] >= 48, bytes[i] <= 57 {
                value = value * 10 + Int64(bytes[i] - 48)
                digits += 1
                i += 1
                if digits > maxDigits { return nil }
            }
            return digits > 0 ? (value, digits) : nil
        }
        func hex16() -> UInt16? {
            var value: UInt32 = 0
            var digits = 0
            while i < n {
                let c = bytes[i]
                let d: UInt32
                switch c {
                case 48...57: d = UInt32(c - 48)
                case 97...102: d = UInt32(c - 87)
                case 65...70: d = UInt32(c - 55)
                default: return digits > 0 && value <= 0xffff ? UInt16(value) : nil
                }
                value = value * 16 + d
                digits += 1
                i += 1
                if digits > 4 { return nil }
            }
            return digits > 0 ? UInt16(value) : nil
        }
        // Same range as the general path: seconds must leave room for microseconds in an Int64.
        guard skipBlanks(), let seconds = decimal(maxDigits: 13), seconds.value <= 9_000_000_000_000,
              i < n, bytes[i] == UInt8(ascii: ".") else { return nil }
        i += 1
        guard let fraction = decimal(maxDigits: 6), skipBlanks(), let type = hex16(), skipBlanks(),
              let code = hex16(), skipBlanks() else { return nil }
        var negative = false
        if i < n, bytes[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        guard let magnitude = decimal(maxDigits: 10) else { return nil }
        let value = negative ? -magnitude.value : magnitude.value
        guard value >= Int64(Int32.min), value <= Int64(Int32.max) else { return nil }
        while i < n, bytes[i] == space || bytes[i] == tab || bytes[i] == UInt8(ascii: "\r") { i += 1 }
        // evemu 1.3 writes `# EV_ABS / ABS_MT_POSITION_X ...` after each event.
        guard i == n || bytes[i] == UInt8(ascii: "#") else { return nil }
        let micro = fraction.value * microsecondScale(digits: fraction.digits)
        return RawEvent(time: Timestamp(seconds: seconds.value, microseconds: micro), type: EventType(type),
                        code: EventCode(code), value: Int32(value))
    }

    private func event(_ values: ArraySlice<Substring>, line: Int) throws(RecordingError) -> RawEvent {
        guard values.count == 4 else {
            throw error(line, "expected `E: <sec>.<usec> <type> <code> <value>`, found \(values.count) fields")
        }
        var index = values.startIndex
        let time = try timestamp(values[index], line)
        index += 1
        let type = try hex16(values[index], line, "event type")
        index += 1
        let code = try hex16(values[index], line, "event code")
        index += 1
        let value = try decimal32(values[index], line, "event value")
        return RawEvent(time: time, type: EventType(type), code: EventCode(code), value: value)
    }

    private func timestamp(_ field: Substring, _ line: Int) throws(RecordingError) -> Timestamp {
        let parts = field.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
              parts[0].allSatisfy(\.isASCIIDigit), parts[1].allSatisfy(\.isASCIIDigit) else {
            if field.hasPrefix("-") { throw error(line, "expected a timestamp `<sec>.<usec>` of 0 or more, found negative `\(field.prefix(30))`") }
            throw error(line, "expected a timestamp `<sec>.<usec>`, found `\(field.prefix(30))`")
        }
        guard parts[1].count <= 6 else {
            throw error(line, "expected at most 6 digits of microseconds, found `\(field.prefix(30))`")
        }
        // Seconds must leave room for microseconds in an Int64.
        guard let seconds = Int64(parts[0]), seconds <= 9_000_000_000_000 else {
            throw error(line, "expected a timestamp in range, found `\(field.prefix(30))`")
        }
        let fraction = Int64(parts[1])! * Self.powersOfTen[6 - parts[1].count]
        return Timestamp(seconds: seconds, microseconds: fraction)
    }

    private static let powersOfTen: [Int64] = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000]

    /// 10^(6 − digits): what a fraction of `digits` digits is multiplied by to be microseconds (a
    /// switch, not the array: no lazy global to look up per event).
    @inline(__always)
    private static func microsecondScale(digits: Int) -> Int64 {
        switch digits {
        case 6: 1
        case 5: 10
        case 4: 100
        case 3: 1000
        case 2: 10_000
        case 1: 100_000
        default: 1_000_000
        }
    }

    private func hex16(_ field: Substring, _ line: Int, _ what: String) throws(RecordingError) -> UInt16 {
        guard let value = UInt16(field, radix: 16) else {
            throw error(line, "expected a hex \(what) (0...ffff), found `\(field.prefix(30))`")
        }
        return value
    }

    private func hexByte(_ field: Substring, _ line: Int, _ what: String) throws(RecordingError) -> UInt8 {
        guard let value = UInt8(field, radix: 16) else {
            throw error(line, "expected a hex \(what) (00...ff), found `\(field.prefix(30))`")
        }
        return value
    }

    private func decimal32(_ field: Substring, _ line: Int, _ what: String) throws(RecordingError) -> Int32 {
        if let value = Int32(field) { return value }
        let digits = field.hasPrefix("-") || field.hasPrefix("+") ? field.dropFirst() : field
        if !digits.isEmpty && digits.allSatisfy(\.isASCIIDigit) {
            throw error(line, "expected a decimal \(what) within 32 bits, found `\(field.prefix(30))` (out of range)")
        }
        throw error(line, "expected a decimal \(what), found `\(field.prefix(30))`")
    }

    private func error(_ line: Int, _ message: String) -> RecordingError {
        RecordingError(file: file, line: line, message: message)
    }
}

extension Character {
    var isASCIIDigit: Bool { self >= "0" && self <= "9" }
}

extension Substring {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }
}
