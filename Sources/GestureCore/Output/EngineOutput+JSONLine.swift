/// The protocol's lines of the engine's outputs (docs/protocol.md, "Streamed lines"), written with
/// `JSONLine` and `JSONObjectWriter`; with a desktop, a line over a window names it.

extension GestureEvent {
    /// The gesture line (docs/protocol.md).
    public var jsonLine: String { jsonLine(window: nil) }

    /// The gesture line with the window its region follows, when it is a window's (`WindowNames`).
    public func jsonLine(window: WindowName?) -> String {
        JSONObjectWriter.object(capacity: jsonCapacity + (window?.field.count ?? 0) + 1) { w in
            writeLead(&w)
            w.add("time", time.seconds)
            writePlace(&w)
            if let window { w.add(encoded: window.field) }
            writeMeasures(&w)
        }
    }

    /// The most the line takes (every string escaped in full, every number at its longest).
    var jsonCapacity: Int {
        typealias W = JSONObjectWriter
        let strings = W.bound(gesture) + W.bound(device) + W.bound(region) + W.bound(kind.rawValue)
            + W.bound(state.rawValue) + W.bound("gesture")
        return 7 * W.keyBytes + strings + 3 * JSONLine.numberBytes + measuresCapacity + 2
    }

    /// The most `writeMeasures` takes: nine keys, the direction, five numbers and three points.
    var measuresCapacity: Int {
        // The longest direction ("right", 5 bytes) for any: no string is made to measure one.
        10 * JSONObjectWriter.keyBytes + 2 + 6 * 5 + 6 * JSONLine.numberBytes + 3 * JSONLine.pointBytes
    }

    // The line in the parts `StreamedLineWriter` keeps encoded between lines: the lead and the
    // place repeat along a stream; the time and the measures change with every line.

    /// `type`, `gesture`, `kind`, `state`.
    func writeLead(_ w: inout JSONObjectWriter) {
        w.add("type", "gesture")
        w.add("gesture", gesture)
        w.add("kind", kind.rawValue)
        w.add("state", state.rawValue)
    }

    /// `device`, `region`.
    func writePlace(_ w: inout JSONObjectWriter) {
        w.add("device", device)
        w.add("region", region)
    }

    /// `fingers` and the kind's own fields.
    @inline(__always)
    func writeMeasures(_ w: inout JSONObjectWriter) {
        w.add("fingers", fingers)
        if let taps { w.add("taps", taps) }
        if let direction { w.add("direction", direction.rawValue) }
        if let location { w.add("location", location) }
        if let translation { w.add("translation", translation) }
        if let velocity { w.add("velocity", velocity) }
        if let scale { w.add("scale", scale) }
        if let rotation { w.add("rotation", rotation) }
        if let scalarVelocity {
            if kind == .pinch { w.add("scaleVelocity", scalarVelocity) } else { w.add("rotationVelocity", scalarVelocity) }
        }
        if let pressure { w.add("pressure", pressure) }
    }
}

extension TouchEvent {
    public var jsonLine: String { jsonLine(window: nil) }
    /// The touch line with the window of its hit region, when it is a window's (`WindowNames`).
    public func jsonLine(window: WindowName?) -> String {
        JSONObjectWriter.object(capacity: jsonCapacity + (window?.field.count ?? 0) + 1) { writeJSON(&$0, window) }
    }
    /// The touch line and a newline at the start of `buffer` (`StreamedLineWriter`).
    func writeJSONLine(into buffer: inout [UInt8], window: WindowName?) -> Int {
        JSONObjectWriter.write(capacity: jsonCapacity + (window?.field.count ?? 0) + 1, into: &buffer) { writeJSON(&$0, window) }
    }

    private var jsonCapacity: Int {
        typealias W = JSONObjectWriter
        let finger = 10 * W.keyBytes + W.bound("touch") + W.bound(phaseName) + W.bound(region ?? "")
            + W.bound(responder ?? "") + W.bound(device) + 3 * JSONLine.numberBytes + JSONLine.pointBytes + 2
            + (chain.map { W.keyBytes + $0.reduce(2) { $0 + W.bound($1) + 1 } } ?? 0)
        guard type != .finger else { return finger }
        // kind, pressure, altitude, azimuth, distance, buttons (three names at most).
        return finger + 6 * W.keyBytes + W.bound(type.rawValue) + 4 * JSONLine.numberBytes + 3 * (W.bound("stylus3") + 1) + 2
    }

    private func writeJSON(_ w: inout JSONObjectWriter, _ window: WindowName?) {
        w.add("type", "touch")
        w.add("phase", phaseName)
        w.add("id", id.rawValue)
        w.add("location", location)
        if let region { w.add("region", region) }
        if let window { w.add(encoded: window.field) }
        if let responder { w.add("responder", responder) }
        if let chain { w.add("chain", chain) }
        w.add("tapCount", tapCount)
        w.add("time", time.seconds)
        w.add("device", device)
        guard type != .finger else { return }
        w.add("kind", type.rawValue)
        if let pressure { w.add("pressure", pressure) }
        if let altitudeAngle { w.add("altitude", altitudeAngle) }
        if let azimuthAngle { w.add("azimuth", azimuthAngle) }
        if let distance { w.add("distance", distance) }
        w.add("buttons", buttons.names)
    }
}

extension TouchForwarding {
    /// `{"type":"forwarding","touch":2,"device":"…","verdict":"hold","reason":"…","time":…}`
    public var jsonLine: String {
        var j = JSONLine()
        j.add("type", "forwarding")
        j.add("touch", touch.rawValue)
        j.add("device", deviceName.string)
        j.add("verdict", verdict.rawValue)
        j.add("reason", reasonText)
        j.add("time", time.seconds)
        return j.line
    }
}

extension ExplainEvent {
    public var jsonLine: String { jsonLine(window: nil) }

    /// The explain line with the window its region follows, when it is a window's (`WindowNames`).
    public func jsonLine(window: WindowName?) -> String {
        var j = JSONLine()
        j.add("type", "explain")
        j.add("gesture", gesture)
        j.add("region", region)
        if let window { j.addEncoded(window.field) }
        j.add("from", from.rawValue)
        j.add("to", to.rawValue)
        j.add("time", time.seconds)
        j.add("reason", reason)
        if routine { j.add("routine", true) }
        return j.line
    }
}

extension EngineOutput {
    public var jsonLine: String { jsonLine(window: nil) }

    /// The line, with `window` after the region (gesture, explain and touch lines; `WindowNames.window(of:)`).
    public func jsonLine(window: WindowName?) -> String {
        switch self {
        case .gesture(let g): g.jsonLine(window: window)
        case .touch(let t): t.jsonLine(window: window)
        case .explain(let e): e.jsonLine(window: window)
        case .forwarding(let f): f.jsonLine
        }
    }

    /// The line, naming the window of its region when `windows` has it.
    public func jsonLine(windows: WindowNames) -> String { jsonLine(window: windows.window(of: self)) }
}
