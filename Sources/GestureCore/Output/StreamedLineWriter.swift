/// Writes the live daemon's streamed lines into one reused buffer: each is `EngineOutput.jsonLine`'s
/// bytes and a newline, with no string and no allocation in between.
///
/// Along a gesture's stream of lines most fields repeat: the recognizer, its kind and state, the
/// device and the region. Those two runs of fields (`GestureEvent.writeLead`, `writePlace`) are kept
/// encoded from the line before and copied when they are the same again; the time and the measures
/// are encoded every line. The names are interned and the kind and state are enums, so telling
/// whether a run repeats costs a few comparisons of words, and no reference counting.
///
/// A line whose region is a window's carries the window's name after the region (`windows`, set
/// when the desktop changes): a gesture line as part of its place run, so it is looked up only when
/// the place changes, and a stream of lines over one window repeats it at no cost.
public struct StreamedLineWriter: Sendable {
    /// The latest line is `buffer[..<length]`, `length` as `write` returned it; what lies past it is stale.
    public private(set) var buffer: [UInt8] = []
    private var lead = EncodedRun<Lead>()
    private var place = EncodedRun<Place>()
    /// The desktop's windows by region (empty without one). A new table forgets the encoded place,
    /// which may name a window whose title or rule changed.
    public var windows = WindowNames() {
        didSet { place.forget() }
    }

    private struct Lead: Equatable, Sendable {
        var gesture: InternedString
        var kind: RecognizerKind
        var state: GestureState
    }

    private struct Place: Equatable, Sendable {
        var device: InternedString
        var region: InternedString
    }

    public init() {}

    /// Writes `output`'s line and a newline at the start of `buffer`; returns their length in bytes.
    public mutating func write(_ output: EngineOutput) -> Int {
        switch output {
        case .gesture(let g):
            return write(gesture: g)
        case .touch(let t):
            return t.writeJSONLine(into: &buffer, window: windows.isEmpty ? nil : t.region.flatMap { windows[region: $0] })
        case .explain, .forwarding:
            // Rare (explain subscribers, replay): through the string.
            let utf8 = output.jsonLine(windows: windows).utf8
            if buffer.count < utf8.count + 1 { buffer.append(contentsOf: repeatElement(0, count: utf8.count + 1 - buffer.count)) }
            var n = 0
            for byte in utf8 {
                buffer[n] = byte
                n += 1
            }
            buffer[n] = UInt8(ascii: "\n")
            return n + 1
        }
    }

    /// `write(_:)` of a gesture line, for a caller that holds the event itself.
    public mutating func write(gesture g: GestureEvent) -> Int {
        let leadKey = Lead(gesture: g.gestureName, kind: g.kind, state: g.state)
        if !lead.holds(leadKey) { lead.encode(leadKey, capacity: g.jsonCapacity, g.writeLead) }
        let placeKey = Place(device: g.deviceName, region: g.regionName)
        if !place.holds(placeKey) { encodePlace(placeKey, g) }
        let (leadBytes, placeBytes) = (lead.bytes, place.bytes)
        // Sized from the runs as encoded, not from the event's strings (which a repeated run
        // does not read): the braces and commas, the runs, the time and the measures.
        let capacity = 4 + leadBytes.count + placeBytes.count + JSONObjectWriter.keyBytes + JSONLine.numberBytes
            + g.measuresCapacity
        return JSONObjectWriter.write(capacity: capacity, into: &buffer) { w in
            w.add(encoded: leadBytes)
            w.add("time", g.time.seconds)
            w.add(encoded: placeBytes)
            g.writeMeasures(&w)
        }
    }

    /// The place run of `g`: its device and region, and the window the region follows, if any.
    private mutating func encodePlace(_ key: Place, _ g: GestureEvent) {
        guard !windows.isEmpty, let window = windows[region: g.region] else {
            return place.encode(key, capacity: g.jsonCapacity, g.writePlace)
        }
        place.encode(key, capacity: g.jsonCapacity + window.field.count + 1) { w in
            g.writePlace(&w)
            w.add(encoded: window.field)
        }
    }

    /// A run of fields encoded once, with the values it was encoded from.
    private struct EncodedRun<Key: Equatable & Sendable>: Sendable {
        var key: Key?
        var bytes: [UInt8] = []

        func holds(_ candidate: Key) -> Bool { key == candidate }

        /// The next line encodes the run afresh.
        mutating func forget() { key = nil }

        mutating func encode(_ newKey: Key, capacity: Int, _ fields: (inout JSONObjectWriter) -> Void) {
            key = newKey
            JSONObjectWriter.fields(capacity: capacity, into: &bytes, fields)
        }
    }
}
