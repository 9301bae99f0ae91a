import GestureCore

/// Draws a `ReplayPicture` as one SVG page, 1000 px wide: title and legend, each device's surface
/// (mm grid, region frames, touch paths, gesture and failure markers), a timeline (ms), then the
/// numbered lists of gestures and failed recognizers the markers refer to.
public enum ReplaySVG {
    public static func render(_ picture: ReplayPicture, explained: Bool) -> String {
        var page = Page(picture: picture, explained: explained)
        page.header()
        page.legend()
        for index in picture.devices.indices { page.surface(index) }
        page.timeline()
        page.lists()
        return page.svg.document(height: page.y + 16, title: picture.title)
    }
}

/// Colours of touches, in order (distinct on white and for common colour blindness); red is kept
/// for failures.
let touchPalette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f",
                    "#bcbd22", "#393b79"]
let failureRed = "#d62728"
let gestureInk = "#222222"
/// A pen hovering (no touch).
let hoverInk = "#6b6b6b"

struct Page {
    let picture: ReplayPicture
    let explained: Bool
    var svg = SVGWriter(width: Page.width)
    var y: Double = 0

    static let width = 1000.0
    static let margin = 24.0
    static var contentWidth: Double { width - 2 * margin }

    init(picture: ReplayPicture, explained: Bool) {
        self.picture = picture
        self.explained = explained
    }

    func colour(of track: ReplayPicture.Track) -> String {
        let index = picture.tracks.firstIndex { $0.id == track.id } ?? 0
        return touchPalette[index % touchPalette.count]
    }

    // MARK: - header and legend

    mutating func header() {
        svg.text(Page.margin, 34, picture.title, size: 20, weight: "bold")
        var facts = ["\(picture.tracks.count) touch\(picture.tracks.count == 1 ? "" : "es")",
                     "\(picture.spans.count) gesture\(picture.spans.count == 1 ? "" : "s")"]
        let pens = picture.tracks.filter { $0.type != .finger }.count
        if pens > 0 { facts[0] += " (\(pens) of a pen)" }
        if !picture.hovers.isEmpty { facts.append("\(picture.hovers.count) pen hover\(picture.hovers.count == 1 ? "" : "s")") }
        if explained { facts.append("\(picture.failures.count) recognizer failure\(picture.failures.count == 1 ? "" : "s")") }
        facts.append(ValueText.milliseconds(picture.ms(picture.end)) + " ms long")
        facts.append("config: " + picture.configName)
        svg.text(Page.margin, 56, facts.joined(separator: "  ·  "), size: 13, fill: "#444444")
        svg.text(Page.margin, 74, "Positions in mm on each device's surface (y grows downward); times in ms since the replay's first event.",
                 size: 12, fill: "#555555")
        y = 84
    }

    mutating func legend() {
        enum Symbol { case began, ended, cancelled, tick, gesture, failure, region, held, taken, pen, eraser, hover }
        var items: [(Symbol, String)] = [
            (.began, "touch began"), (.ended, "touch ended (square)"), (.cancelled, "touch cancelled"),
            (.tick, "every 100 ms"), (.gesture, "gesture, where it ended (G1… listed below)"),
            (.failure, explained ? "recognizer failed (F1… listed below)" : "recognizer failed (with --explain)"),
            (.region, "region frame, with its id"),
        ]
        if picture.tracks.contains(where: { $0.type == .pen }) {
            items.append((.pen, "pen touch: its nib, the line as wide as the pressure"))
        }
        if picture.tracks.contains(where: { $0.type == .eraser }) { items.append((.eraser, "eraser touch: hollow line")) }
        if !picture.hovers.isEmpty { items.append((.hover, "pen hovering (no touch)")) }
        if picture.tracks.contains(where: { $0.forwarding != nil }) {
            items += [(.held, "held from the desktop, sent late"), (.taken, "taken from the desktop (cancelled)")]
        }
        let rowHeight = 22.0
        var rows: [[(Symbol, String, Double)]] = [[]]
        var x = 0.0
        let available = Page.contentWidth - 90
        for (symbol, label) in items {
            let w = 22 + SVGWriter.textWidth(label, size: 12) + 18
            if x + w > available && !rows[rows.count - 1].isEmpty {
                rows.append([])
                x = 0
            }
            rows[rows.count - 1].append((symbol, label, w))
            x += w
        }
        let top = y + 6
        svg.rect(Page.margin, top, Page.contentWidth, Double(rows.count) * rowHeight + 8, fill: "#f5f5f5",
                 stroke: "#dddddd")
        svg.text(Page.margin + 10, top + 19, "Legend", size: 12, weight: "bold")
        let blue = touchPalette[0]
        for (r, row) in rows.enumerated() {
            var x = Page.margin + 80
            let cy = top + 4 + Double(r) * rowHeight + rowHeight / 2
            for (symbol, label, w) in row {
                let sx = x + 8
                switch symbol {
                case .began: svg.circle(sx, cy, r: 5.5, fill: blue, stroke: "#ffffff", strokeWidth: 1.5)
                case .ended:
                    svg.circle(sx, cy, r: 5, fill: blue, stroke: "#ffffff", strokeWidth: 1.5)
                    svg.square(sx, cy, size: 13, fill: "none", stroke: blue)
                case .cancelled: svg.cross(sx, cy, size: 9, stroke: blue, width: 2)
                case .tick:
                    svg.line(sx - 8, cy, sx + 8, cy, stroke: blue, width: 2.5)
                    svg.circle(sx, cy, r: 2.4, fill: "#ffffff", stroke: blue, strokeWidth: 1.5)
                case .gesture: svg.diamond(sx, cy, size: 16, fill: "none", stroke: gestureInk, strokeWidth: 2)
                case .failure: svg.cross(sx, cy, size: 10, stroke: failureRed)
                case .region: svg.rect(sx - 8, cy - 6, 16, 12, stroke: "#6a51a3", strokeWidth: 1.5, dash: "4 2")
                case .held: svg.polyline([(sx - 9, cy), (sx + 9, cy)], stroke: blue, width: 2.5, dash: "2 4")
                case .taken: svg.polyline([(sx - 9, cy), (sx + 9, cy)], stroke: blue, width: 2.5, dash: "9 5")
                case .pen, .eraser:
                    svg.pressureStroke([(sx - 9, cy + 3), (sx - 3, cy + 3), (sx + 3, cy + 3), (sx + 11, cy + 3)],
                                       pressures: [0, 0.2, 0.5, 0.9], stroke: blue, width: Page.penWidth,
                                       hollow: symbol == .eraser)
                    if symbol == .pen {
                        svg.nib(sx - 9, cy + 3, size: 11, fill: blue, stroke: "#ffffff", strokeWidth: 1)
                    } else {
                        svg.rect(sx - 14, cy - 1, 10, 7, fill: blue, stroke: "#ffffff", strokeWidth: 1)
                    }
                case .hover:
                    svg.polyline([(sx - 9, cy), (sx + 9, cy)], stroke: hoverInk, width: 1.2, dash: "1 3")
                    svg.hoverRing(sx - 4, cy, r: 5, stroke: hoverInk)
                }
                svg.text(x + 22, cy + 4, label, size: 12)
                x += w
            }
        }
        y = top + Double(rows.count) * rowHeight + 8
    }

    // MARK: - lists

    mutating func lists() {
        let lineHeight = 16.0
        let columns = Int((Page.contentWidth - 10) / (12 * 0.602))
        func heading(_ text: String) {
            y += 30
            svg.text(Page.margin, y, text, size: 15, weight: "bold")
            y += 6
        }
        func lines(_ text: String, colour: String = "#222222") {
            for (i, piece) in wrapColumns(text, columns, indent: 6).enumerated() {
                y += lineHeight
                svg.text(Page.margin, y, piece, size: 12, fill: i == 0 ? colour : "#555555", mono: true)
            }
        }
        heading("Gestures")
        if picture.spans.isEmpty { lines("none was recognized", colour: "#555555") }
        let limit = 300
        for span in picture.spans.prefix(limit) { lines(describe(span)) }
        if picture.spans.count > limit { lines("… \(picture.spans.count - limit) more (see the JSON output)") }

        heading(explained ? "Recognizers that failed" : "Recognizers that failed: run with --explain to see them and why")
        if explained {
            if picture.failures.isEmpty { lines("none", colour: "#555555") }
            for failure in picture.failures.prefix(limit) {
                let e = failure.event
                let number = pad("F\(failure.number)", 5)
                let time = pad(ValueText.milliseconds(picture.ms(e.time)) + " ms", 11)
                let region = if let window = picture.windows[region: e.region] {
                    " in " + window.label(fitting: 48)
                } else {
                    picture.devices.allSatisfy({ $0.regions.count <= 1 }) ? "" : " in " + e.region
                }
                lines(number + time + pad(e.gesture + region, 19) + " " + e.reason, colour: failureRed)
            }
            if picture.failures.count > limit { lines("… \(picture.failures.count - limit) more (see --explain)") }
        }
    }

    /// "G1   232 ms        double-tap       tap         recognized           1 finger   taps 2  at 132.3,76.5 mm".
    func describe(_ span: ReplayPicture.Span) -> String {
        let first = span.first, last = span.last
        let start = ValueText.milliseconds(picture.ms(first.time))
        let stop = ValueText.milliseconds(picture.ms(last.time))
        let time = span.events.count == 1 ? start + " ms" : start + "–" + stop + " ms"
        var states = first.state.rawValue
        if span.events.count > 1 {
            let changed = span.events.filter { $0.state == .changed }.count
            states += "→" + last.state.rawValue + (changed > 0 ? " (\(changed) changed)" : "")
        }
        let device = picture.devices[span.device]
        let fingers = "\(last.fingers) finger" + (last.fingers == 1 ? "" : "s")
        var values = last.valueParts(unitsPerMM: device.unitsPerMM, velocities: false)
        if let window = picture.windows[region: first.region] { values.append("over " + window.label(fitting: 48)) }
        return pad("G\(span.number)", 5) + pad(time, 16) + pad(first.gesture, 18) + " " + pad(first.kind.rawValue, 11)
            + pad(states, 28) + pad(fingers, 11) + values.joined(separator: "  ")
    }
}

func pad(_ text: String, _ width: Int) -> String {
    let n = text.unicodeScalars.count
    return n >= width ? text + " " : text + String(repeating: " ", count: width - n)
}

/// Splits text into pieces of at most `columns` characters at spaces; continuation pieces are indented.
func wrapColumns(_ text: String, _ columns: Int, indent: Int) -> [String] {
    var out: [String] = []
    var rest = Substring(text)
    var room = columns
    while rest.unicodeScalars.count > room {
        let scalars = Array(rest.unicodeScalars)
        var cut = room
        while cut > room / 2 && scalars[cut] != " " { cut -= 1 }
        if scalars[cut] != " " { cut = room }
        out.append(String(String.UnicodeScalarView(scalars[0..<cut])))
        rest = Substring(String(String.UnicodeScalarView(scalars[cut...])).drop { $0 == " " })
        rest = Substring(String(repeating: " ", count: indent)) + rest
        room = columns
    }
    out.append(String(rest))
    return out
}
