/// Writes the live daemon's streamed lines into one reused buffer: each is `EngineOutput.jsonLine`'s
/// bytes and a newline, with no string and no allocation in between.
///
/// Along a gesture's stream of lines most fields repeat: the recognizer, its kind and state, the
/// device and the region. Those two runs of fields (`GestureEvent.writeLead`, `writePlace`) are kept
/// encoded from the line before and copied when they are the same again; the time and the measures
/// are encoded every line. Strings repeated along a stream share their storage, so telling whether
/// a run repeats costs a few comparisons, not a scan.
public struct StreamedLineWriter: Sendable {
    /// The latest line is `buffer[..<length]`, `length` as `write` returned it; what lies past it is stale.
    public private(set) var buffer: [UInt8] = []
    private var lead = EncodedRun()
    private var place = EncodedRun()

    public init() {}

    /// Writes `output`'s line and a newline at the start of `buffer`; returns their length in bytes.
    public mutating func write(_ output: EngineOutput) -> Int {
        switch output {
        case .gesture(let g):
            if !lead.holds(g.gesture, g.kind.rawValue, g.state.rawValue) {
                lead.encode(g.gesture, g.kind.rawValue, g.state.rawValue, capacity: g.jsonCapacity, g.writeLead)
            }
            if !place.holds(g.device, g.region, "") {
                place.encode(g.device, g.region, "", capacity: g.jsonCapacity, g.writePlace)
            }
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
        case .touch(let t):
            return t.writeJSONLine(into: &buffer)
        case .explain(let e):
            // Rare (explain subscribers only): through the string.
            let utf8 = e.jsonLine.utf8
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

    /// A run of fields encoded once, with the up to three strings it was encoded from.
    private struct EncodedRun: Sendable {
        var keys = ("", "", "")
        var bytes: [UInt8] = []

        func holds(_ a: String, _ b: String, _ c: String) -> Bool {
            !bytes.isEmpty && keys.0 == a && keys.1 == b && keys.2 == c
        }

        mutating func encode(_ a: String, _ b: String, _ c: String, capacity: Int,
                             _ fields: (inout JSONObjectWriter) -> Void) {
            keys = (a, b, c)
            JSONObjectWriter.fields(capacity: capacity, into: &bytes, fields)
        }
    }
}
