import GestureCore

/// Writes recordings in the `libinput record` YAML layout that `LibinputRecordParser` reads: the
/// header (`version`, `ndevices`, `libinput`, `system`), then per device its `evdev` description
/// (name, id, codes, absinfo, properties) and its events, one `- evdev:` frame per SYN_REPORT with
/// each event as `- [sec, usec, type, code, value]` and a comment naming it, as `libinput record`
/// does. Times are written as they are (libinput record writes them from the first event on).
public enum LibinputRecordWriter {
    public static func write(_ recordings: [Recording]) -> String {
        var out = "# libinput record\nversion: 1\nndevices: \(recordings.count)\n"
        out += "libinput:\n  version: \"1.22.1\"\n  git: \"unknown\"\n"
        out += "system:\n  os: \"written by gestured\"\n  kernel: \"unknown\"\n  dmi: \"unknown\"\n"
        out += "devices:\n"
        for (index, recording) in recordings.enumerated() {
            device(recording, node: "/dev/input/event\(index)", to: &out)
        }
        return out
    }

    private static func device(_ recording: Recording, node: String, to out: inout String) {
        let d = recording.description
        let name = String(d.name.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
        let quoted = name.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"")
        out += "- node: \(node)\n  evdev:\n    # Name: \(name)\n    name: \"\(quoted)\"\n"
        out += "    id: [\(d.bus), \(d.vendor), \(d.product), \(d.version)]\n    codes:\n"
        var codes = d.codes
        for code in d.absInfo.keys { codes[.abs, default: []].insert(code) }
        for type in codes.keys.sorted() {
            let list = codes[type]!.sorted().map { String($0.rawValue) }.joined(separator: ", ")
            out += "      \(type.rawValue): [\(list)] # \(type)\n"
        }
        out += "    absinfo:\n"
        for code in d.absInfo.keys.sorted() {
            let a = d.absInfo[code]!
            out += "      \(code.rawValue): [\(a.minimum), \(a.maximum), \(a.fuzz), \(a.flat), \(a.resolution)]\n"
        }
        let properties = d.properties.map(\.rawValue).sorted().map(String.init).joined(separator: ", ")
        out += "    properties: [\(properties)]\n  hid: []\n  udev:\n    properties:\n    - ID_INPUT=1\n  quirks:\n"
        out += "  events:\n"
        var frameOpen = false
        for event in recording.events {
            if !frameOpen {
                out += "  - evdev:\n"
                frameOpen = true
            }
            let micro = event.time.microseconds
            let seconds = micro / 1_000_000, fraction = micro % 1_000_000
            out += "    - [\(pad(seconds, 3)), \(pad(fraction, 6)), \(pad(Int64(event.type.rawValue), 3)), "
            out += "\(pad(Int64(event.code.rawValue), 3)), \(pad(Int64(event.value), 7))]"
            out += event.type == .syn && event.code == .synReport ? " # ------------ SYN_REPORT (0) ----------\n"
                : " # \(event.type) / \(event.code.rawValue)\n"
            if event.type == .syn && event.code == .synReport { frameOpen = false }
        }
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}

extension String {
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self { if character == target { result += replacement } else { result.append(character) } }
        return result
    }
}
