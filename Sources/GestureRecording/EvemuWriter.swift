import GestureCore

/// Writes the evemu text format that `EvemuParser` (and evemu-device / evemu-play) read: a comment
/// block, then the full description (`N:` name, `I:` ids, `P:` properties, `B:` the supported codes
/// of every event type, `A:` every absolute axis with its resolution), then `E:` lines.
public enum EvemuWriter {
    /// Bitmask bytes per event type, as evemu writes them (the kernel's *_MAX + 1 bits, rounded up
    /// to whole lines of 8 bytes).
    private static let maskBytes: [UInt16: Int] = [
        0x00: 4, 0x01: 96, 0x02: 2, 0x03: 8, 0x04: 1, 0x05: 3, 0x11: 2, 0x12: 1, 0x14: 1, 0x15: 16,
    ]

    /// The header: comments naming the device and where it was recorded, then N:, I:, P:, B:, A:.
    public static func header(_ description: DeviceDescription, comments: [String] = []) -> String {
        // The name must stay on one line.
        let name = String(description.name.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
        var out = "# EVEMU 1.3\n"
        out += "# Input device name: \"\(name)\"\n"
        out += "# Input device ID: bus 0x\(hex(description.bus, 2)) vendor 0x\(hex(description.vendor, 4)) "
        out += "product 0x\(hex(description.product, 4)) version 0x\(hex(description.version, 4))\n"
        for comment in comments {
            for line in comment.split(separator: "\n", omittingEmptySubsequences: false) { out += "# \(line)\n" }
        }
        out += "N: \(name)\n"
        out += "I: \(hex(description.bus, 4)) \(hex(description.vendor, 4)) \(hex(description.product, 4)) \(hex(description.version, 4))\n"
        out += lines("P:", bitmask(description.properties.map { Int($0.rawValue) }, bytes: 8))
        var codes = description.codes
        for code in description.absInfo.keys { codes[.abs, default: []].insert(code) }
        // Type 0's bitmask lists the event types.
        let types = codes.keys.filter { !(codes[$0]?.isEmpty ?? true) }.map { Int($0.rawValue) } + [0]
        out += lines("B: 00", bitmask(types, bytes: maskBytes[0]!))
        for type in codes.keys.sorted() where type != .syn {
            let values = codes[type]!.map { Int($0.rawValue) }
            let needed = ((values.max() ?? 0) / 8) + 1
            let size = max(maskBytes[type.rawValue] ?? 0, needed)
            out += lines("B: " + hex(type.rawValue, 2), bitmask(values, bytes: size))
        }
        for code in description.absInfo.keys.sorted() {
            let a = description.absInfo[code]!
            out += "A: \(hex(code.rawValue, 2)) \(a.minimum) \(a.maximum) \(a.fuzz) \(a.flat) \(a.resolution)\n"
        }
        return out
    }

    /// `E: <sec>.<usec> <type> <code> <value>` lines, one per event.
    public static func events<S: Sequence>(_ events: S) -> String where S.Element == RawEvent {
        var out = ""
        for event in events { append(event, to: &out) }
        return out
    }

    public static func append(_ event: RawEvent, to out: inout String) {
        let micro = event.time.microseconds
        let seconds = micro >= 0 ? micro / 1_000_000 : (micro - 999_999) / 1_000_000
        let fraction = micro - seconds * 1_000_000
        let f = String(fraction)
        out += "E: \(seconds).\(String(repeating: "0", count: 6 - f.count))\(f) \(hex(event.type.rawValue, 4)) "
        out += "\(hex(event.code.rawValue, 4)) \(event.value)\n"
    }

    /// At least `bytes` bytes, in whole lines of eight (evemu reads eight bytes per line).
    private static func bitmask(_ bits: [Int], bytes: Int) -> [UInt8] {
        var mask = [UInt8](repeating: 0, count: max(8, (bytes + 7) / 8 * 8))
        for bit in bits where bit >= 0 && bit / 8 < mask.count { mask[bit / 8] |= UInt8(1 << (bit % 8)) }
        return mask
    }

    /// The bytes as lines of eight, each starting with `tag` (evemu continues a mask over lines).
    private static func lines(_ tag: String, _ bytes: [UInt8]) -> String {
        var out = ""
        var index = 0
        repeat {
            let chunk = bytes[index..<min(index + 8, bytes.count)]
            out += tag + chunk.map { " " + hex(UInt16($0), 2) }.joined() + "\n"
            index += 8
        } while index < bytes.count
        return out
    }

    private static func hex(_ value: UInt16, _ digits: Int) -> String {
        let s = String(value, radix: 16)
        return s.count >= digits ? s : String(repeating: "0", count: digits - s.count) + s
    }
}
