import GestureCore

/// Short, human-readable numbers and gesture values, shared by the text format, the golden-file
/// diff and the SVG picture.
public enum ValueText {
    /// One decimal below 100, none above ("3.2", "-30.1", "132"); never "-0.0".
    public static func number(_ value: Double, decimals: Int = 1) -> String {
        guard value.isFinite else { return "?" }
        let big = abs(value) >= 100
        let digits = big ? 0 : max(0, decimals)
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (value * scale).rounded()
        if scaled == 0 { return digits == 0 ? "0" : "0." + String(repeating: "0", count: digits) }
        let negative = scaled < 0
        let magnitude = Int64(abs(scaled))
        var text = String(magnitude / Int64(scale))
        if digits > 0 {
            let fraction = String(magnitude % Int64(scale))
            text += "." + String(repeating: "0", count: digits - fraction.count) + fraction
        }
        return negative ? "-" + text : text
    }

    /// "x,y" with `number`, both with the decimals the larger one gets ("132,77", "69.3,53.3").
    public static func pair(_ p: Point) -> String {
        let decimals = max(abs(p.x), abs(p.y)) >= 100 ? 0 : 1
        return number(p.x, decimals: decimals) + "," + number(p.y, decimals: decimals)
    }

    /// Milliseconds as a whole number ("232").
    public static func milliseconds(_ value: Double) -> String {
        guard value.isFinite else { return "?" }
        return String(Int64(value.rounded()))
    }

    /// Degrees from radians, one decimal.
    public static func degrees(_ radians: Double) -> String { number(radians * 180 / Double.pi) + "°" }
}

extension GestureEvent {
    /// The values of the gesture's kind, most telling first ("taps 2", "down", "Δ -5.0,-30.1",
    /// "scale 1.42", "turn 12.3°", "at 69.3,53.3", a pen's "pressure 0.42", then velocities). Positions are in surface units,
    /// or in mm when `unitsPerMM` is given (surface units per mm, as the device's surface has them).
    public func valueParts(unitsPerMM: Point? = nil, velocities: Bool = true) -> [String] {
        func convert(_ p: Point) -> Point {
            guard let u = unitsPerMM, u.x > 0, u.y > 0 else { return p }
            return Point(x: p.x / u.x, y: p.y / u.y)
        }
        let unit = unitsPerMM == nil ? "" : " mm"
        var parts: [String] = []
        if let taps, kind == .tap || kind == .longPress { parts.append("taps \(taps)") }
        if let direction { parts.append(direction.rawValue) }
        if let translation { parts.append("Δ " + ValueText.pair(convert(translation)) + unit) }
        if let scale { parts.append("scale " + ValueText.number(scale, decimals: 2)) }
        if let rotation { parts.append("turn " + ValueText.degrees(rotation)) }
        if let location { parts.append("at " + ValueText.pair(convert(location)) + unit) }
        if let pressure { parts.append("pressure " + ValueText.number(pressure, decimals: 2)) }
        guard velocities else { return parts }
        if let velocity { parts.append("v " + ValueText.pair(convert(velocity)) + unit + "/s") }
        if let scalarVelocity {
            parts.append(kind == .rotation ? "v " + ValueText.degrees(scalarVelocity) + "/s"
                                           : "v " + ValueText.number(scalarVelocity, decimals: 2) + "/s")
        }
        return parts
    }
}
