import GestureCore

extension Page {
    /// One row per touch, per gesture id and (with --explain) per recognizer that failed, along a
    /// shared ms axis: touches as bars with 100 ms ticks, discrete gestures as diamonds, continuous
    /// ones as bars from began to their end, failures as red crosses.
    mutating func timeline() {
        enum Row {
            case touch(ReplayPicture.Track)
            case gesture(String)
        }
        var rows: [Row] = picture.tracks.map { .touch($0) }
        var ids: [String] = []
        for span in picture.spans where !ids.contains(span.first.gesture) { ids.append(span.first.gesture) }
        for failure in picture.failures where !ids.contains(failure.event.gesture) { ids.append(failure.event.gesture) }
        rows += ids.map { .gesture($0) }

        y += 34
        svg.text(Page.margin, y, "Timeline", size: 15, weight: "bold")
        svg.text(Page.margin + 80, y, "ms since the replay's first event", size: 12, fill: "#555555")
        let labelWidth = 200.0
        let x0 = Page.margin + labelWidth, x1 = Page.width - Page.margin - 12
        let duration = max(1, picture.ms(picture.end) * 1.03)
        func x(_ time: Timestamp) -> Double { x0 + (x1 - x0) * min(max(picture.ms(time), 0), duration) / duration }
        let axis = y + 24
        let rowHeight = 20.0
        let bottom = axis + 6 + Double(max(rows.count, 1)) * rowHeight

        // Row shading, then the time grid over it.
        for i in rows.indices where i % 2 == 0 {
            svg.rect(Page.margin, axis + 6 + Double(i) * rowHeight, Page.contentWidth, rowHeight, fill: "#f4f4f4")
        }
        let step = niceStep(atLeast: duration * 70 / (x1 - x0))
        var t = 0.0
        while t <= duration + 0.001 {
            let gx = x0 + (x1 - x0) * t / duration
            svg.line(gx, axis, gx, bottom, stroke: "#dddddd")
            if x1 - gx > 30 {
                svg.text(gx, axis - 5, ValueText.milliseconds(t), size: 10, fill: "#666666", anchor: "middle")
            }
            t += step
        }
        svg.text(x1 + 10, axis - 5, "ms", size: 10, fill: "#666666", anchor: "end")
        svg.line(x0, axis, x1, axis, stroke: "#888888")

        let multipleDevices = picture.devices.count > 1
        for (i, row) in rows.enumerated() {
            let cy = axis + 6 + Double(i) * rowHeight + rowHeight / 2
            var lastLabelEnd = -Double.infinity
            func label(_ text: String, at lx: Double, colour: String) {
                let w = SVGWriter.textWidth(text, size: 10)
                guard lx > lastLabelEnd else { return }
                svg.text(lx, cy - 5, text, size: 10, fill: colour, halo: true)
                lastLabelEnd = lx + w + 4
            }
            switch row {
            case .touch(let track):
                let colour = colour(of: track)
                var name = (track.type == .finger ? "touch" : track.type.rawValue) + " T\(track.id)"
                if multipleDevices { name += " · " + picture.devices[track.device].name }
                svg.text(Page.margin + 6, cy + 4, clipped(name, labelWidth - 12), size: 12, fill: colour, weight: "bold")
                let bx = x(track.began), ex = x(track.end)
                svg.line(bx, cy, ex, cy, stroke: colour, width: 4, cap: "round")
                // 100 ms ticks where they stay apart (at least 9 px).
                var tick = track.began.adding(milliseconds: 100)
                while (x1 - x0) * 100 / duration >= 9 && tick < track.end {
                    svg.circle(x(tick), cy, r: 2.2, fill: "#ffffff", stroke: colour, strokeWidth: 1.3)
                    tick = tick.adding(milliseconds: 100)
                }
                switch track.endPhase {
                case .cancelled?: svg.cross(ex, cy, size: 8, stroke: colour, width: 2)
                case .ended?: svg.square(ex, cy, size: 8, fill: "#ffffff", stroke: colour)
                default: break
                }
                svg.circle(bx, cy, r: 4.5, fill: colour, stroke: "#ffffff", strokeWidth: 1.2)
            case .gesture(let id):
                let kind = picture.spans.first { $0.first.gesture == id }?.first.kind.rawValue
                svg.text(Page.margin + 6, cy + 4, clipped(id + (kind.map { " (\($0))" } ?? ""), labelWidth - 12),
                         size: 12, fill: gestureInk)
                var marks: [(x: Double, text: String, colour: String)] = []
                for span in picture.spans where span.first.gesture == id {
                    let sx = x(span.first.time), ex = x(span.last.time)
                    let faded = span.last.state == .cancelled
                    if span.events.count > 1 {
                        svg.rect(sx, cy - 3, max(ex - sx, 1), 6, fill: faded ? "#aaaaaa" : "#555555")
                        for e in span.events where e.state == .changed {
                            svg.line(x(e.time), cy - 5, x(e.time), cy + 5, stroke: "#555555", width: 0.6)
                        }
                        svg.diamond(sx, cy, size: 9, fill: "#ffffff", stroke: gestureInk)
                    }
                    svg.diamond(ex, cy, size: 13, fill: "#ffffff", stroke: faded ? "#999999" : gestureInk, strokeWidth: 2)
                    marks.append((sx, "G\(span.number)", gestureInk))
                }
                for failure in picture.failures where failure.event.gesture == id {
                    let fx = x(failure.event.time)
                    svg.cross(fx, cy, size: 8, stroke: failureRed, width: 2)
                    marks.append((fx, "F\(failure.number)", failureRed))
                }
                for mark in marks.sorted(by: { $0.x < $1.x }) { label(mark.text, at: mark.x + 6, colour: mark.colour) }
            }
        }
        if rows.isEmpty {
            svg.text(x0, axis + 20, "no touch and no gesture", size: 12, fill: "#555555")
        }
        y = bottom
    }

    func clipped(_ text: String, _ width: Double) -> String {
        let room = Int(width / (12 * 0.62))
        let scalars = Array(text.unicodeScalars)
        guard scalars.count > room, room > 1 else { return text }
        return String(String.UnicodeScalarView(scalars[0..<(room - 1)])) + "…"
    }
}
