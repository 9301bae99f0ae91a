import GestureCore

/// A small SVG 1.1 writer: elements appended as text, attribute values and text escaped, numbers
/// printed with at most two decimals so files stay small and stable.
struct SVGWriter {
    private(set) var body: [String] = []
    let width: Double

    init(width: Double) { self.width = width }

    static let sans = "DejaVu Sans, Verdana, Arial, sans-serif"
    static let mono = "DejaVu Sans Mono, Menlo, Consolas, monospace"

    /// The whole document for a canvas of `height` px.
    func document(height: Double, title: String) -> String {
        let h = Self.n(height)
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(Self.n(width))\" height=\"\(h)\" "
        out += "viewBox=\"0 0 \(Self.n(width)) \(h)\" font-family=\"\(Self.sans)\">\n"
        out += "<title>\(Self.escape(title))</title>\n"
        out += "<rect x=\"0\" y=\"0\" width=\"\(Self.n(width))\" height=\"\(h)\" fill=\"#ffffff\"/>\n"
        for element in body { out += element + "\n" }
        out += "</svg>\n"
        return out
    }

    mutating func raw(_ element: String) { body.append(element) }

    private var clipCount = 0

    /// Starts a group clipped to a rectangle; close it with `endGroup`.
    mutating func beginClip(_ x: Double, _ y: Double, _ w: Double, _ h: Double) {
        clipCount += 1
        body.append("<clipPath id=\"clip\(clipCount)\"><rect x=\"\(Self.n(x))\" y=\"\(Self.n(y))\" width=\"\(Self.n(w))\" height=\"\(Self.n(h))\"/></clipPath>")
        body.append("<g clip-path=\"url(#clip\(clipCount))\">")
    }

    mutating func endGroup() { body.append("</g>") }

    mutating func comment(_ text: String) {
        body.append("<!-- " + text.replacingDashes + " -->")
    }

    mutating func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, fill: String = "none",
                       stroke: String? = nil, strokeWidth: Double = 1, dash: String? = nil, opacity: Double? = nil) {
        var a = "<rect x=\"\(Self.n(x))\" y=\"\(Self.n(y))\" width=\"\(Self.n(max(0, w)))\" height=\"\(Self.n(max(0, h)))\" fill=\"\(fill)\""
        if let stroke { a += " stroke=\"\(stroke)\" stroke-width=\"\(Self.n(strokeWidth))\"" }
        if let dash { a += " stroke-dasharray=\"\(dash)\"" }
        if let opacity { a += " fill-opacity=\"\(Self.n(opacity))\"" }
        body.append(a + "/>")
    }

    mutating func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String, width: Double = 1,
                       dash: String? = nil, cap: String = "butt") {
        var a = "<line x1=\"\(Self.n(x1))\" y1=\"\(Self.n(y1))\" x2=\"\(Self.n(x2))\" y2=\"\(Self.n(y2))\" "
        a += "stroke=\"\(stroke)\" stroke-width=\"\(Self.n(width))\" stroke-linecap=\"\(cap)\""
        if let dash { a += " stroke-dasharray=\"\(dash)\"" }
        body.append(a + "/>")
    }

    mutating func polyline(_ points: [(Double, Double)], stroke: String, width: Double, dash: String? = nil,
                           opacity: Double = 1) {
        guard points.count > 1 else { return }
        let list = points.map { Self.n($0.0) + "," + Self.n($0.1) }.joined(separator: " ")
        var a = "<polyline points=\"\(list)\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"\(Self.n(width))\" "
        a += "stroke-linejoin=\"round\" stroke-linecap=\"round\""
        if opacity < 1 { a += " stroke-opacity=\"\(Self.n(opacity))\"" }
        if let dash { a += " stroke-dasharray=\"\(dash)\"" }
        body.append(a + "/>")
    }

    mutating func circle(_ x: Double, _ y: Double, r: Double, fill: String, stroke: String? = nil, strokeWidth: Double = 1) {
        var a = "<circle cx=\"\(Self.n(x))\" cy=\"\(Self.n(y))\" r=\"\(Self.n(r))\" fill=\"\(fill)\""
        if let stroke { a += " stroke=\"\(stroke)\" stroke-width=\"\(Self.n(strokeWidth))\"" }
        body.append(a + "/>")
    }

    /// A square centred on (x, y).
    mutating func square(_ x: Double, _ y: Double, size: Double, fill: String, stroke: String, strokeWidth: Double = 2) {
        rect(x - size / 2, y - size / 2, size, size, fill: fill, stroke: stroke, strokeWidth: strokeWidth)
    }

    /// A diamond centred on (x, y).
    mutating func diamond(_ x: Double, _ y: Double, size: Double, fill: String, stroke: String, strokeWidth: Double = 1.5) {
        let r = size / 2
        let points = [(x, y - r), (x + r, y), (x, y + r), (x - r, y)].map { Self.n($0.0) + "," + Self.n($0.1) }
        body.append("<polygon points=\"\(points.joined(separator: " "))\" fill=\"\(fill)\" stroke=\"\(stroke)\" stroke-width=\"\(Self.n(strokeWidth))\"/>")
    }

    /// A pen's nib: a triangle with its tip at (x, y), pointing down the page, `size` px tall.
    mutating func nib(_ x: Double, _ y: Double, size: Double, fill: String, stroke: String, strokeWidth: Double = 1.5) {
        let points = [(x, y), (x - size * 0.4, y - size), (x + size * 0.4, y - size)].map { Self.n($0.0) + "," + Self.n($0.1) }
        body.append("<polygon class=\"pen-nib\" points=\"\(points.joined(separator: " "))\" fill=\"\(fill)\" stroke=\"\(stroke)\" stroke-width=\"\(Self.n(strokeWidth))\" stroke-linejoin=\"round\"/>")
    }

    /// A pen's stroke: one round-capped segment per step, each as wide as the pressure at its end
    /// (`width(pressure)`); `hollow` (an eraser): each segment again in white, narrower, inside.
    mutating func pressureStroke(_ points: [(Double, Double)], pressures: [Double], stroke: String,
                                 width: (Double) -> Double, hollow: Bool) {
        guard points.count > 1, pressures.count == points.count else { return }
        var a = "<g class=\"\(hollow ? "eraser-stroke" : "pen-stroke")\" fill=\"none\" stroke-linecap=\"round\">"
        for layer in hollow ? [false, true] : [false] {
            for i in 1..<points.count {
                let w = width(pressures[i]) * (layer ? 0.45 : 1)
                a += "<line x1=\"\(Self.n(points[i - 1].0))\" y1=\"\(Self.n(points[i - 1].1))\" x2=\"\(Self.n(points[i].0))\" "
                a += "y2=\"\(Self.n(points[i].1))\" stroke=\"\(layer ? "#ffffff" : stroke)\" stroke-width=\"\(Self.n(w))\"/>"
            }
        }
        body.append(a + "</g>")
    }

    /// A dashed ring centred on (x, y): where a pen came in range.
    mutating func hoverRing(_ x: Double, _ y: Double, r: Double, stroke: String) {
        body.append("<circle class=\"pen-hover\" cx=\"\(Self.n(x))\" cy=\"\(Self.n(y))\" r=\"\(Self.n(r))\" fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"1.5\" stroke-dasharray=\"3 2\"/>")
    }

    /// An × centred on (x, y).
    mutating func cross(_ x: Double, _ y: Double, size: Double, stroke: String, width: Double = 2.5) {
        let r = size / 2
        body.append("<path d=\"M\(Self.n(x - r)),\(Self.n(y - r)) L\(Self.n(x + r)),\(Self.n(y + r)) M\(Self.n(x - r)),\(Self.n(y + r)) L\(Self.n(x + r)),\(Self.n(y - r))\" stroke=\"\(stroke)\" stroke-width=\"\(Self.n(width))\" stroke-linecap=\"round\" fill=\"none\"/>")
    }

    /// Text with its baseline at y. `halo` draws a white outline behind it, for labels over paths.
    mutating func text(_ x: Double, _ y: Double, _ content: String, size: Double = 12, fill: String = "#222222",
                       weight: String? = nil, anchor: String = "start", mono: Bool = false, halo: Bool = false) {
        var a = "<text x=\"\(Self.n(x))\" y=\"\(Self.n(y))\" font-size=\"\(Self.n(size))\" fill=\"\(fill)\""
        if anchor != "start" { a += " text-anchor=\"\(anchor)\"" }
        if let weight { a += " font-weight=\"\(weight)\"" }
        if mono { a += " font-family=\"\(Self.mono)\" xml:space=\"preserve\"" }
        if halo { a += " stroke=\"#ffffff\" stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\"" }
        body.append(a + ">" + Self.escape(content) + "</text>")
    }

    /// Estimated width of text in px (DejaVu Sans averages about 0.6 em; monospace is 0.602 em).
    static func textWidth(_ text: String, size: Double, mono: Bool = false) -> Double {
        Double(text.unicodeScalars.count) * size * (mono ? 0.602 : 0.62)
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                // Control characters are not allowed in XML 1.0.
                if c.value < 0x20 && c != "\t" { out += " " } else { out.unicodeScalars.append(c) }
            }
        }
        return out
    }

    /// A coordinate with at most two decimals.
    static func n(_ v: Double) -> String {
        guard v.isFinite else { return "0" }
        let scaled = (v * 100).rounded()
        if scaled == 0 { return "0" }
        let negative = scaled < 0
        let m = Int64(abs(scaled))
        var s = String(m / 100)
        let f = m % 100
        if f != 0 { s += f % 10 == 0 ? "." + String(f / 10) : (f < 10 ? ".0" : ".") + String(f) }
        return negative ? "-" + s : s
    }
}

extension String {
    /// "--" is not allowed inside an XML comment.
    fileprivate var replacingDashes: String {
        var out = ""
        var previous: Character?
        for c in self {
            if c == "-" && previous == "-" { out += " " }
            out.append(c)
            previous = c
        }
        return out
    }
}
