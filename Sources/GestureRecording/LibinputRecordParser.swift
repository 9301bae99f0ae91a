import GestureCore
import GestureYAML

/// Parses `libinput record` YAML: a `devices:` list, each with
///
///     evdev:
///       name: "..."
///       id: [bus, vendor, product, version]
///       codes: {type: [code, ...]}            # or, for EV_ABS, {code: [value, min, max, fuzz, flat, res]}
///       absinfo: {code: [min, max, fuzz, flat, res]}
///       properties: [property, ...]
///     events:
///     - evdev:
///       - [sec, usec, type, code, value]
///
/// One `Recording` per device that has events.
///
/// The `evdev` frames of the `events:` sections, nearly every line of a record, are read from the
/// bytes (`LibinputRecordEventScanner`) and libyaml reads the rest; a file the scanner does not take
/// whole, or that fails in any way that way, is read again entirely through libyaml, which reports
/// the error at its line.
struct LibinputRecordParser {
    let file: String

    /// `allowingFastPath` false: the whole file through libyaml (tests compare both readings).
    func parse(_ text: String, allowingFastPath: Bool = true) throws(RecordingError) -> [Recording] {
        var text = text
        if allowingFastPath, let recordings = text.withUTF8({ fastParse($0) }) { return recordings }
        var fullRead: Sections? = nil
        return try parse(text, sections: &fullRead)
    }

    /// `parse` of a file's bytes (UTF-8, checked by the loader): no string of the whole file unless
    /// the full YAML reading is needed.
    func parse(bytes: [UInt8]) throws(RecordingError) -> [Recording] {
        if let recordings = bytes.withUnsafeBufferPointer({ fastParse($0) }) { return recordings }
        return try parse(String(decoding: bytes, as: UTF8.self), allowingFastPath: false)
    }

    /// The scanner's sections with the rest through libyaml; nil when anything is not as expected.
    func fastParse(_ bytes: UnsafeBufferPointer<UInt8>) -> [Recording]? {
        guard let scanned = LibinputRecordEventScanner.scan(bytes), !scanned.sections.isEmpty else { return nil }
        var sections: Sections? = Sections(scanned: scanned.sections)
        guard let recordings = try? parse(String(decoding: scanned.header, as: UTF8.self), sections: &sections),
              sections?.allClaimed == true else { return nil }
        return recordings
    }

    /// The scanned sections, each to be claimed once by the device whose `events:` key is on its line.
    private struct Sections {
        var scanned: [LibinputRecordEventScanner.Section]
        var claimed: [Bool]
        init(scanned: [LibinputRecordEventScanner.Section]) {
            self.scanned = scanned
            claimed = Array(repeating: false, count: scanned.count)
        }
        var allClaimed: Bool { !claimed.contains(false) }
        /// The events of the section whose `events:` key is on `line`, once.
        mutating func claim(line: Int?) -> [RawEvent]?? {
            guard let line, let index = scanned.firstIndex(where: { $0.line == line }) else { return .some(nil) }
            guard !claimed[index] else { return nil }
            claimed[index] = true
            return .some(scanned[index].events)
        }
    }

    private func parse(_ text: String, sections: inout Sections?) throws(RecordingError) -> [Recording] {
        let composed: Node?
        do {
            composed = try YAMLComposer.compose(text)
        } catch {
            throw yamlError(error)
        }
        guard let root = composed else {
            throw RecordingError(file: file, line: nil, message: "empty YAML document: expected a libinput record with `devices:`")
        }
        guard let top = root.mapping else {
            throw self.error(root, "expected a mapping with `devices:` at the top of a libinput record")
        }
        guard let devices = top["devices"] else {
            throw self.error(root, "expected a `devices:` list (libinput record format)")
        }
        guard let list = devices.sequence else { throw self.error(devices, "expected `devices:` to be a list") }
        var recordings: [Recording] = []
        for (index, device) in list.enumerated() {
            if let recording = try parseDevice(device, index: index, count: list.count, sections: &sections) {
                recordings.append(recording)
            }
        }
        guard !recordings.isEmpty else {
            throw RecordingError(file: file, line: nil, message: "no events: expected `events:` with `- evdev:` lists under a device")
        }
        return recordings
    }

    private func parseDevice(_ node: Node, index: Int, count: Int,
                             sections: inout Sections?) throws(RecordingError) -> Recording? {
        guard let device = node.mapping else { throw error(node, "expected a device mapping with `evdev:` and `events:`") }
        guard let evdevNode = device["evdev"], let evdev = evdevNode.mapping else {
            throw error(node, "expected `evdev:` (name, id, codes, absinfo) in the device")
        }
        let name = evdev["name"]?.string ?? "device \(index)"
        var ids: [UInt16] = [0, 0, 0, 0]
        if let idNode = evdev["id"] {
            guard let idList = idNode.sequence, idList.count == 4 else {
                throw error(idNode, "expected `id: [bus, vendor, product, version]`")
            }
            for (i, item) in idList.enumerated() {
                let value = try integer(item, "id number")
                guard let v = UInt16(exactly: value) else { throw error(item, "expected an id number in 0...65535, found \(value)") }
                ids[i] = v
            }
        }
        var codes: [EventType: Set<EventCode>] = [:]
        var absInfo: [EventCode: AbsInfo] = [:]
        if let codesNode = evdev["codes"] {
            guard let codesMap = codesNode.mapping else { throw error(codesNode, "expected `codes:` to map event types to codes") }
            for (typeNode, list) in codesMap {
                let type = EventType(try code16(typeNode, "event type"))
                if let sequence = list.sequence {
                    for item in sequence { codes[type, default: []].insert(EventCode(try code16(item, "event code"))) }
                } else if let map = list.mapping {
                    for (codeNode, infoNode) in map {
                        let code = EventCode(try code16(codeNode, "event code"))
                        codes[type, default: []].insert(code)
                        if type == .abs, let info = infoNode.sequence, info.count >= 5 {
                            let n = try info.map { (item) throws(RecordingError) in try int32(item, "axis value") }
                            absInfo[code] = AbsInfo(value: n[0], minimum: n[1], maximum: n[2], fuzz: n[3],
                                                    flat: n.count > 4 ? n[4] : 0, resolution: n.count > 5 ? n[5] : 0)
                        }
                    }
                } else if !(list.scalar?.string.isEmpty ?? false) && list.scalar?.string != "null" {
                    throw error(list, "expected a list of codes (or a mapping of codes) for type \(type.rawValue)")
                }
            }
        }
        if let absNode = evdev["absinfo"] {
            guard let absMap = absNode.mapping else { throw error(absNode, "expected `absinfo:` to map codes to [min, max, fuzz, flat, res]") }
            for (codeNode, infoNode) in absMap {
                let code = EventCode(try code16(codeNode, "axis code"))
                guard let info = infoNode.sequence, info.count == 5 else {
                    throw error(infoNode, "expected `[min, max, fuzz, flat, resolution]` for axis \(code.rawValue)")
                }
                let n = try info.map { (item) throws(RecordingError) in try int32(item, "axis value") }
                absInfo[code] = AbsInfo(minimum: n[0], maximum: n[1], fuzz: n[2], flat: n[3], resolution: n[4])
                codes[.abs, default: []].insert(code)
            }
        }
        var properties: Set<InputProperty> = []
        if let propNode = evdev["properties"], let list = propNode.sequence {
            for item in list { properties.insert(InputProperty(try code16(item, "property"))) }
        }
        let source = count > 1 ? "\(file)#\(index)" : file
        let description = DeviceDescription(name: name, bus: ids[0], vendor: ids[1], product: ids[2], version: ids[3],
                                            properties: properties, codes: codes, absInfo: absInfo, path: source)
        var events: [RawEvent] = []
        if sections != nil, let key = device.pairs.first(where: { $0.key.scalar?.string == "events" })?.key {
            switch sections!.claim(line: key.mark?.line) {
            case .some(.some(let scanned)):
                // The frames left to libyaml (`- libinput:`) carry no evdev events.
                if case .sequence(let frames) = device["events"]!,
                   frames.contains(where: { $0.mapping?["evdev"] != nil }) { throw error(node, "fast path: mixed frames") }
                if case .scalar(let scalar) = device["events"]!, !(scalar.string.isEmpty && scalar.style == .plain) {
                    throw error(node, "fast path: not a list")
                }
                if case .mapping = device["events"]! { throw error(node, "fast path: not a list") }
                events = scanned
            case .some(.none):
                break
            case .none:
                throw error(node, "fast path: a section claimed twice")
            }
        }
        if events.isEmpty, let eventsNode = device["events"] {
            guard let frames = eventsNode.sequence else { throw error(eventsNode, "expected `events:` to be a list") }
            for frame in frames {
                guard let map = frame.mapping, let evdevEvents = map["evdev"] else { continue }
                guard let list = evdevEvents.sequence else {
                    throw error(evdevEvents, "expected `evdev:` to be a list of [sec, usec, type, code, value]")
                }
                for item in list { events.append(try event(item)) }
            }
        }
        guard !events.isEmpty else { return nil }
        return Recording(description: description, events: events, source: source)
    }

    private func event(_ node: Node) throws(RecordingError) -> RawEvent {
        guard let fields = node.sequence, fields.count == 5 else {
            throw error(node, "expected an event `[sec, usec, type, code, value]`")
        }
        let seconds = try integer(fields[0], "seconds")
        let micros = try integer(fields[1], "microseconds")
        guard seconds >= 0, seconds <= 9_000_000_000_000, micros >= 0, micros < 1_000_000 else {
            throw error(node, "expected a time of 0 or more with microseconds below 1000000, found \(seconds).\(micros)")
        }
        return RawEvent(time: Timestamp(seconds: Int64(seconds), microseconds: Int64(micros)),
                        type: EventType(try code16(fields[2], "event type")),
                        code: EventCode(try code16(fields[3], "event code")),
                        value: try int32(fields[4], "event value"))
    }

    private func integer(_ node: Node, _ what: String) throws(RecordingError) -> Int {
        guard let text = node.scalar?.string, let value = Int(text) else {
            throw error(node, "expected an integer \(what), found `\((node.scalar?.string ?? "a list or mapping").prefix(30))`")
        }
        return value
    }

    private func int32(_ node: Node, _ what: String) throws(RecordingError) -> Int32 {
        let value = try integer(node, what)
        guard let v = Int32(exactly: value) else { throw error(node, "expected a \(what) within 32 bits, found \(value)") }
        return v
    }

    private func code16(_ node: Node, _ what: String) throws(RecordingError) -> UInt16 {
        let value = try integer(node, what)
        guard let v = UInt16(exactly: value) else { throw error(node, "expected an \(what) in 0...65535, found \(value)") }
        return v
    }

    private func error(_ node: Node, _ message: String) -> RecordingError {
        RecordingError(file: file, line: node.mark?.line, message: message)
    }

    private func yamlError(_ error: YAMLError) -> RecordingError {
        switch error {
        case .syntax(let problem, let mark, _):
            return RecordingError(file: file, line: mark.line, message: "broken YAML: \(problem)")
        case .duplicateKeys(let keys, let mark):
            return RecordingError(file: file, line: mark.line, message: "broken YAML: duplicate key \(keys.joined(separator: ", "))")
        case .reader(let problem, _):
            return RecordingError(file: file, line: nil, message: "broken YAML: \(problem)")
        }
    }
}
