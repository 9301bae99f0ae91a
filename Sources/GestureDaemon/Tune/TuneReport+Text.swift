import GestureCore
import GestureTuning

extension TuneReport {
    /// The measures shown for a gesture: one per threshold the fit looked at, each once.
    func measures(of spec: RecognizerSpec) -> [TunableParameter] {
        var seen: [String] = []
        return proposals.filter { $0.gesture == spec.id }.map(\.parameter).filter { p in
            guard !seen.contains(p.measureName) else { return false }
            seen.append(p.measureName)
            return true
        }
    }

    /// The report for a person: aligned, at most `width` columns.
    public func textLines(width: Int = 80, written: String? = nil) -> [String] {
        var lines: [String] = []
        let floor = ThresholdFit.text(noiseFloor, .mm)
        lines.append("\(samples.count) sample\(samples.count == 1 ? "" : "s"), \(gestures.count) gesture\(gestures.count == 1 ? "" : "s"); device noise \(ThresholdFit.text(noise, .mm)) (lengths stay at \(floor) or more)")
        for spec in gestures {
            lines.append("")
            lines += gestureLines(spec, width: width)
        }
        let none = samples.filter { $0.label == SampleLabel.none }
        if !none.isEmpty {
            lines.append("")
            lines.append("none · samples that must give no gesture · \(none.count)")
            lines += sampleTable(none, measures: [], width: width, spec: nil)
        }
        lines.append("")
        lines += wrap("right: \(rightBefore) of \(samples.count) today, \(rightAfter) tuned, \(rightLeftOut) left out (each sample judged by a fit made without it)", width: width)
        if !conflicts.isEmpty {
            lines.append("conflicts (thresholds kept):")
            for c in conflicts { lines += wrap(c.message, width: width, indent: "  ") }
        }
        let changed = changes
        if changed.isEmpty {
            lines.append("nothing to change")
        } else if let written {
            lines += wrap("wrote \(written): \(changed.count) value\(changed.count == 1 ? "" : "s") changed", width: width)
        } else {
            lines += wrap("nothing written: --write OUT.yaml writes the tuned config (\(changed.count) value\(changed.count == 1 ? "" : "s") changed)", width: width)
        }
        return lines
    }

    func gestureLines(_ spec: RecognizerSpec, width: Int) -> [String] {
        let own = samples.filter { $0.label == spec.id }
        var lines: [String] = []
        let fingers = spec.kind == .pinch || spec.kind == .rotation ? "2+ fingers"
            : spec.kind == .pan || spec.kind == .edgePan ? "\(spec.parameters.minimumFingers)–\(spec.parameters.maximumFingers) fingers"
            : "\(spec.parameters.fingers) finger\(spec.parameters.fingers == 1 ? "" : "s")"
        lines.append("\(spec.id) · \(spec.kind.rawValue), \(fingers) · \(own.count) sample\(own.count == 1 ? "" : "s")")
        let proposals = self.proposals.filter { $0.gesture == spec.id }
        lines += sampleTable(own, measures: measures(of: spec), width: width, spec: spec)
        if !proposals.isEmpty {
            lines.append("  " + pad("threshold", 16) + pad("today", 10, right: true) + pad("proposed", 10, right: true)
                         + pad("margin", 10, right: true) + "  result")
            for p in proposals {
                let unit = p.parameter.unit
                let margin = p.margin.map { ($0 >= 0 ? "+" : "") + ThresholdFit.text($0, unit) } ?? "—"
                let outcome: String
                switch p.outcome {
                case .kept: outcome = "kept"
                case .changed: outcome = "changed"
                case .conflict: outcome = "conflict"
                case .wouldBreak(let names): outcome = "kept: would break \(names.joined(separator: ", "))"
                }
                let row = "  " + pad(p.parameter.key, 16) + pad(ThresholdFit.text(p.current, unit), 10, right: true)
                    + pad(ThresholdFit.text(p.proposed, unit), 10, right: true) + pad(margin, 10, right: true) + "  "
                lines += wrap(row + outcome, width: width, indent: String(repeating: " ", count: 4))
                for note in p.notes { lines += wrap("    " + note, width: width, indent: "      ") }
            }
        }
        let failing = own.filter { !$0.rightBefore }
        if !failing.isEmpty {
            lines.append("  why they fail today:")
            for s in failing { lines += wrap("    \(s.name): \(s.reasonBefore ?? "?")", width: width, indent: "      ") }
        }
        return lines
    }

    func sampleTable(_ rows: [Sample], measures: [TunableParameter], width: Int, spec: RecognizerSpec?) -> [String] {
        let widths = measures.map { max(8, $0.measureName.count) + 2 }
        let marks = 6 + 6 + 9
        let nameWidth = max(12, width - 2 - widths.reduce(0, +) - marks)
        var header = "  " + pad("sample", nameWidth)
        for (m, w) in zip(measures, widths) { header += pad(m.measureName, w, right: true) }
        header += pad("today", 6, right: true) + pad("tuned", 6, right: true) + pad("left out", 9, right: true)
        var lines = [header]
        for s in rows {
            var line = "  " + pad(truncate(s.name, nameWidth - 1), nameWidth)
            for (m, w) in zip(measures, widths) {
                let value = spec.flatMap { m.measure(s.measurements, spec: $0) }
                line += pad(value.map { ThresholdFit.text($0, m.unit) } ?? "—", w, right: true)
            }
            line += pad(s.rightBefore ? "✓" : "✗", 6, right: true) + pad(s.rightAfter ? "✓" : "✗", 6, right: true)
                + pad(s.rightLeftOut ? "✓" : "✗", 9, right: true)
            lines.append(line)
        }
        return lines
    }
}

/// `text` padded with spaces to `width` characters (on the left when `right`).
func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let n = text.count
    guard n < width else { return text }
    let spaces = String(repeating: " ", count: width - n)
    return right ? spaces + text : text + spaces
}

/// `text` cut to `width` characters with an ellipsis.
func truncate(_ text: String, _ width: Int) -> String {
    text.count <= width ? text : String(text.prefix(max(1, width - 1))) + "…"
}

/// `text` in lines of at most `width` characters, broken at spaces; the part that fits on the
/// first line is kept as written (its alignment), lines after the first start with `indent`.
func wrap(_ text: String, width: Int, indent: String = "") -> [String] {
    guard text.count > width else { return [text] }
    let chars = Array(text)
    var cut = width
    while cut > 0 && chars[cut] != " " { cut -= 1 }
    if cut <= indent.count { cut = width }
    let first = String(chars[..<cut])
    let rest = String(chars[cut...]).drop { $0 == " " }
    guard !rest.isEmpty else { return [first] }
    return [first] + wrap(indent + rest, width: width, indent: indent)
}
