import GestureCore

/// The `--format text` view of a stream of outputs, for a person at a terminal: one aligned line per
/// gesture (ms since the start, id, kind, state, fingers, values), no line wider than `width`
/// columns. A run of `changed` lines of one gesture (or `moved` lines of one touch) prints its first
/// line, then one summary line with how many followed and the last values, so a pinch does not
/// scroll the screen. Feed lines with `format`, then call `finish` at the end of the stream.
///
/// A header line names the place of the lines below it, printed when it changes: the device
/// (`-- Wacom ISDv4 E6 Finger`), and for gestures and touches over a window the window too
/// (`-- Wacom ISDv4 E6 Finger over window:12 (foot "~")`, the title cut to fit). An explain line
/// about a recognizer of a window ends with the window's name.
public struct TextFormatter {
    /// Columns of a line; never less than 60 (the fixed columns take 56).
    public let width: Int
    /// Times are printed as milliseconds since this; nil: since the first line that has a time.
    public private(set) var origin: Timestamp?
    private var runs: [RunKey: Run] = [:]
    private var runOrder: [RunKey] = []
    private var lastPlace: Place?
    /// Forwarded touches held back and not yet released (device name, NUL, touch id).
    private var heldTouches: Set<String> = []

    /// What a header line names: a device, and the window the lines are over.
    private struct Place: Equatable {
        var device: String
        var window: WindowName?
    }

    static let timeWidth = 6
    static let idWidth = 16
    static let kindWidth = 10
    static let stateWidth = 10
    static let fingersWidth = 7
    /// Where an explain line's text starts (the kind column).
    static let explainColumn = timeWidth + 2 + idWidth + 1

    public init(width: Int = 80, origin: Timestamp? = nil) {
        self.width = max(60, width)
        self.origin = origin
    }

    /// The column titles.
    public var header: String {
        columns(time: "ms", id: "gesture", kind: "kind", state: "state", fingers: "fingers", values: ["values"])
    }

    /// The lines to print now for one output line (often one, none while a run is held back);
    /// `window`: the window the line's region follows (its `window` object), if any.
    public mutating func format(_ line: OutputLine, window: WindowName? = nil) -> [String] {
        switch line {
        case .engine(.gesture(let g)):
            return gesture(g, window)
        case .engine(.touch(let t)):
            return touch(t, window)
        case .engine(.explain(let e)):
            return explain(e, window)
        case .engine(.forwarding(let f)):
            let key = f.deviceName.string + "\u{0}\(f.touch)"
            let verb = switch f.verdict {
            case .hold: "held"
            case .release: "released to the desktop"
            // A held touch never reached the clone: nothing is lifted there (the picture: cancelled).
            case .withdraw: heldTouches.contains(key) ? "cancelled, never sent to the desktop" : "lifted on the clone"
            case .pause: "stopped on the clone (still down)"
            case .resume: "moves again on the clone"
            }
            if f.verdict == .hold { heldTouches.insert(key) } else if f.verdict != .pause { heldTouches.remove(key) }
            // Whole, wrapped as explain reasons are: a verdict is a reason too.
            return wrappedNote("-- touch \(f.touch) \(verb): \(f.reasonText)")
        case .dropped(let count):
            return [fit("-- \(count) line\(count == 1 ? "" : "s") dropped: this client read too slowly")]
        case .error(let message):
            return wrappedNote("-- error: " + message)
        case .other(_, let text):
            return [fit("-- " + text)]
        }
    }

    /// A line of another source (a binding's firing): time, id, then the text from the kind column
    /// on, wrapped.
    public mutating func note(_ text: String, id: String, time: Timestamp) -> [String] {
        explainLines(time: milliseconds(time), id: id, text: text)
    }

    /// A note for people (`-- text`), wrapped to the width.
    public func note(_ text: String) -> [String] { wrappedNote("-- " + text) }

    /// Formats a JSON line as it came from the socket or from replay.
    public mutating func format(jsonLine: String) -> [String] {
        let (line, window) = OutputLine.withWindow(jsonLine: jsonLine)
        return format(line, window: window)
    }

    /// Summaries of the runs still held back (end of the stream), oldest first.
    public mutating func finish() -> [String] {
        let out = flushHeld()
        runs = [:]
        runOrder = []
        return out
    }

    // MARK: - lines

    private enum RunKey: Hashable {
        /// A gesture's lines (each window has its own instances of a rule's gestures, under one id).
        case gesture(device: String, id: String, region: String)
        case touch(TouchID)
        /// Explain lines of one recognizer repeating the same transition and reason.
        case explain(String)
    }

    /// A run of `changed` (or `moved`) lines after its first one, which was printed.
    private struct Run {
        /// The line that opened the run (explain runs compare with it).
        var first: OutputLine?
        var held: [OutputLine] = []
        /// The window the run's lines are about.
        var window: WindowName?
    }

    private mutating func gesture(_ g: GestureEvent, _ window: WindowName?) -> [String] {
        let key = RunKey.gesture(device: g.device, id: g.gesture, region: g.region)
        if hold(.engine(.gesture(g)), in: key, window, continuing: g.state == .changed) { return [] }
        let out = flushHeld() + close(key) + withPlace(g.device, window, gestureLine(g, stateSuffix: ""))
        if g.state == .changed { open(key, window: window) }
        return out
    }

    private mutating func touch(_ t: TouchEvent, _ window: WindowName?) -> [String] {
        let key = RunKey.touch(t.id)
        if hold(.engine(.touch(t)), in: key, window, continuing: t.phase == .moved || t.hoverPhase == .hovering) { return [] }
        let out = flushHeld() + close(key) + withPlace(t.device, window, touchLine(t, stateSuffix: ""))
        if t.hoverPhase == .hovering || (t.hoverPhase == nil && t.phase == .moved) { open(key, window: window) }
        return out
    }

    /// Holds back a line that continues a run already open (it is summarised when the run closes).
    private mutating func hold(_ line: OutputLine, in key: RunKey, _ window: WindowName?, continuing: Bool) -> Bool {
        guard continuing, runs[key] != nil else { return false }
        runs[key]!.held.append(line)
        runs[key]!.window = window
        return true
    }

    /// Explain lines; a repeated one ("changed: moved" at every frame of a pan) is summarised too,
    /// counted as the gesture's `changed` lines are (the first printed, the rest as one `×N`).
    private mutating func explain(_ e: ExplainEvent, _ window: WindowName?) -> [String] {
        let key = RunKey.explain(e.gesture)
        if let first = runs[key]?.first, case .engine(.explain(let f)) = first, f.to == e.to, f.reason == e.reason,
           f.region == e.region {
            runs[key]!.held.append(.engine(.explain(e)))
            return []
        }
        var out = flushHeld()
        out += close(key)
        out += explainLines(time: milliseconds(e.time), id: e.gesture, text: e.to.rawValue + ": " + e.reason,
                            window: window)
        open(key, first: .engine(.explain(e)), window: window)
        return out
    }

    private mutating func open(_ key: RunKey, first: OutputLine? = nil, window: WindowName? = nil) {
        runs[key] = Run(first: first, window: window)
        runOrder.append(key)
    }

    /// Before a line is printed, every run holding lines back prints its summary (oldest last
    /// line first), so times never go backwards: a summary stands at its last line's time.
    private mutating func flushHeld() -> [String] {
        let holding = runOrder.filter { runs[$0]?.held.isEmpty == false }
        guard !holding.isEmpty else { return [] }
        let ordered = holding.enumerated().sorted { a, b in
            let ta = Self.time(of: runs[a.element]!.held.last!), tb = Self.time(of: runs[b.element]!.held.last!)
            return ta == tb ? a.offset < b.offset : ta < tb
        }
        var out: [String] = []
        for (_, key) in ordered { out += close(key) }
        return out
    }

    private static func time(of line: OutputLine) -> Timestamp {
        switch line {
        case .engine(.gesture(let g)): return g.time
        case .engine(.touch(let t)): return t.time
        case .engine(.explain(let e)): return e.time
        default: return .zero
        }
    }

    /// Ends a run: nothing held, the one held line as is, or one summary line.
    private mutating func close(_ key: RunKey) -> [String] {
        guard let run = runs.removeValue(forKey: key) else { return [] }
        runOrder.removeAll { $0 == key }
        guard let last = run.held.last else { return [] }
        // "changed ×36": this line stands for the 36 held back, with the last one's values.
        let count = run.held.count == 1 ? "" : " ×\(run.held.count)"
        switch last {
        case .engine(.gesture(let g)): return withPlace(g.device, run.window, gestureLine(g, stateSuffix: count))
        case .engine(.touch(let t)): return withPlace(t.device, run.window, touchLine(t, stateSuffix: count))
        case .engine(.explain(let e)):
            return explainLines(time: milliseconds(e.time), id: e.gesture, text: e.to.rawValue + count + ": " + e.reason,
                                window: run.window)
        default: return []
        }
    }

    private mutating func gestureLine(_ g: GestureEvent, stateSuffix: String) -> String {
        columns(time: milliseconds(g.time), id: g.gesture, kind: g.kind.rawValue, state: g.state.rawValue + stateSuffix,
                fingers: String(g.fingers), values: g.valueParts())
    }

    private mutating func touchLine(_ t: TouchEvent, stateSuffix: String) -> String {
        // A pen's own values first (the columns leave 24 at 80 wide): "pressure 0.11  tilt 60°" fits.
        var values = Self.penParts(t) + ["at " + ValueText.pair(t.location)]
        if t.tapCount > 1 { values.append("taps \(t.tapCount)") }
        if let region = t.region { values.append("in " + region) }
        if t.type != .finger, let azimuth = t.azimuthAngle {
            values.append("azimuth " + ValueText.number(azimuth * 180 / .pi, decimals: 0) + "°")
        }
        // A pen's line is named by its kind ("pen 3", kind "pen"), a hover by its phase.
        let kind = t.type == .finger ? "touch" : t.type.rawValue
        return columns(time: milliseconds(t.time), id: "\(kind) \(t.id)", kind: kind, state: t.phaseName + stateSuffix,
                       fingers: "", values: values)
    }

    /// A pen's values before its place: "pressure 0.42", "tilt 61°" (altitude from the glass, in
    /// degrees), "distance 0.49" (hovering), "buttons stylus"; none for a finger. Its azimuth
    /// (clockwise from +x) comes after the place.
    static func penParts(_ t: TouchEvent) -> [String] {
        guard t.type != .finger else { return [] }
        var parts: [String] = []
        if let pressure = t.pressure { parts.append("pressure " + ValueText.number(pressure, decimals: 2)) }
        if let altitude = t.altitudeAngle { parts.append("tilt " + ValueText.number(altitude * 180 / .pi, decimals: 0) + "°") }
        if let distance = t.distance { parts.append("distance " + ValueText.number(distance, decimals: 2)) }
        if !t.buttons.isEmpty { parts.append("buttons " + t.buttons.names.joined(separator: "+")) }
        return parts
    }

    /// The line, after a header when its place differs from the previous printed line's: "-- DEVICE",
    /// or "-- DEVICE over window:12 (foot "~")" for a line over a window (the title cut to fit). A
    /// header only ever stands above lines of its place.
    private mutating func withPlace(_ device: String, _ window: WindowName?, _ line: String) -> [String] {
        let place = Place(device: device, window: window)
        guard place != lastPlace else { return [line] }
        let leftWindow = lastPlace?.window != nil
        lastPlace = place
        guard let window else {
            if device.isEmpty { return leftWindow ? ["-- over no window", line] : [line] }
            return [fit("-- " + device), line]
        }
        let head = device.isEmpty ? "-- over " : "-- " + device + " over "
        return [fit(head + window.label(fitting: width - head.unicodeScalars.count)), line]
    }

    private mutating func milliseconds(_ time: Timestamp) -> String {
        if origin == nil { origin = time }
        return ValueText.milliseconds(time.milliseconds(since: origin!))
    }

    // MARK: - layout

    private func columns(time: String, id: String, kind: String, state: String, fingers: String,
                         values: [String]) -> String {
        var line = pad(time, Self.timeWidth, right: true) + "  "
        line += pad(clip(id, Self.idWidth), Self.idWidth) + " "
        line += pad(kind, Self.kindWidth) + " "
        // State and fingers share one field: a long state ("changed ×136") uses the fingers' padding.
        let field = Self.stateWidth + 1 + Self.fingersWidth
        let gap = max(1, field - state.unicodeScalars.count - fingers.unicodeScalars.count)
        line += state + String(repeating: " ", count: gap) + fingers + "  "
        let room = width - line.unicodeScalars.count
        return trimmedEnd(line + join(values, room: room))
    }

    /// An explain line: the state it went to and why, from the kind column on, wrapped (not cut).
    /// The id is whole (a binding's gesture is named in full), the text then two spaces after a
    /// long one; only an id that would leave no room for the text is cut. For a window's
    /// recognizer, then `— over window:12 (foot "~")`, kept whole on the last row or on a row of
    /// its own, its title cut to fit.
    private func explainLines(time: String, id: String, text: String, window: WindowName? = nil) -> [String] {
        let idRoom = max(Self.idWidth, width - Self.timeWidth - 2 - 1 - 24)
        var head = pad(time, Self.timeWidth, right: true) + "  " + pad(clip(id, idRoom), Self.idWidth) + " "
        if head.unicodeScalars.count > Self.explainColumn { head += " " }
        let indent = String(repeating: " ", count: Self.explainColumn)
        let room = max(10, width - head.unicodeScalars.count)
        var pieces = wrap(text, room: room)
        if let window {
            let lead = "— over "
            let last = pieces[pieces.count - 1]
            let onLast = last.unicodeScalars.count + 1 + lead.unicodeScalars.count
            if onLast + window.label.unicodeScalars.count <= room {
                pieces[pieces.count - 1] = last + " " + lead + window.label
            } else {
                pieces.append(lead + window.label(fitting: room - lead.unicodeScalars.count))
            }
        }
        return [head + pieces[0]] + pieces.dropFirst().map { indent + $0 }
    }

    private func wrappedNote(_ text: String) -> [String] {
        let pieces = wrap(text, room: width - 3)
        return [pieces[0]] + pieces.dropFirst().map { "   " + $0 }
    }

    /// Values separated by two spaces, as many whole ones as fit; the first is cut with "…" when even
    /// it does not fit.
    private func join(_ parts: [String], room: Int) -> String {
        var text = ""
        for part in parts {
            let candidate = text.isEmpty ? part : text + "  " + part
            if candidate.unicodeScalars.count <= room {
                text = candidate
            } else {
                if text.isEmpty { text = clip(part, room) }
                break
            }
        }
        return text
    }

    /// Words into lines of at most `room` columns (a longer word is cut into pieces).
    private func wrap(_ text: String, room: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            var word = String(word)
            while word.unicodeScalars.count > room {
                if !current.isEmpty {
                    lines.append(current)
                    current = ""
                }
                let scalars = Array(word.unicodeScalars)
                lines.append(String(String.UnicodeScalarView(scalars[0..<room])))
                word = String(String.UnicodeScalarView(scalars[room...]))
            }
            if current.isEmpty {
                current = word
            } else if current.unicodeScalars.count + 1 + word.unicodeScalars.count <= room {
                current += " " + word
            } else {
                lines.append(current)
                current = word
            }
        }
        lines.append(current)
        return lines.map(trimmedEnd)
    }

    private func fit(_ text: String) -> String { clip(text, width) }

    private func clip(_ text: String, _ room: Int) -> String {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count > room else { return text }
        guard room > 1 else { return room == 1 ? "…" : "" }
        return String(String.UnicodeScalarView(scalars[0..<(room - 1)])) + "…"
    }

    private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let count = text.unicodeScalars.count
        guard count < width else { return text }
        let spaces = String(repeating: " ", count: width - count)
        return right ? spaces + text : text + spaces
    }

    private func trimmedEnd(_ text: String) -> String {
        var s = Substring(text)
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
