import GestureCore

/// Places text labels near their anchor without overlapping each other, trying a few positions
/// around it and keeping inside `bounds`.
struct LabelPlacer {
    private(set) var placed: [Rect] = []
    let bounds: Rect

    init(bounds: Rect) { self.bounds = bounds }

    /// Reserves an area labels must avoid (a marker).
    mutating func block(_ rect: Rect) { placed.append(rect) }

    /// The baseline origin for a label of `width` × `height` px near `anchor`.
    mutating func place(near anchor: Point, width: Double, height: Double, clearance: Double = 8) -> Point {
        let c = clearance
        let offsets: [Point] = [
            Point(x: c, y: -c), Point(x: c, y: c + height), Point(x: -c - width, y: -c), Point(x: -c - width, y: c + height),
            Point(x: -width / 2, y: -c - 2), Point(x: -width / 2, y: c + height + 2),
            Point(x: c, y: -c - height - 4), Point(x: c, y: c + 2 * height + 4),
            Point(x: -c - width, y: -c - height - 4), Point(x: -c - width, y: c + 2 * height + 4),
            Point(x: c + 14, y: height / 2), Point(x: -c - 14 - width, y: height / 2),
        ]
        var fallback: Point?
        for offset in offsets {
            let origin = anchor + offset
            let box = Rect(x: origin.x - 1, y: origin.y - height, width: width + 2, height: height + 2)
            let inside = box.minX >= bounds.minX && box.maxX <= bounds.maxX && box.minY >= bounds.minY && box.maxY <= bounds.maxY
            if fallback == nil && inside { fallback = origin }
            if inside && !placed.contains(where: { $0.intersects(box) }) {
                placed.append(box)
                return origin
            }
        }
        let origin = fallback ?? anchor + offsets[0]
        placed.append(Rect(x: origin.x, y: origin.y - height, width: width, height: height))
        return origin
    }
}

extension Rect {
    func intersects(_ other: Rect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }
}

/// A "nice" step (1, 2 or 5 × 10ⁿ) at least `minimum`.
func niceStep(atLeast minimum: Double) -> Double {
    guard minimum.isFinite, minimum > 0 else { return 1 }
    var magnitude = 1.0
    while magnitude * 10 <= minimum { magnitude *= 10 }
    while magnitude > minimum { magnitude /= 10 }
    for factor in [1.0, 2, 5, 10] where magnitude * factor >= minimum { return magnitude * factor }
    return magnitude * 10
}

extension Page {
    /// One device's surface in mm: grid, region frames, touch paths with their markers and 100 ms
    /// ticks, gesture locations, and the failed recognizers where the fingers were. When everything
    /// happened in a small part of the surface (a tap), a magnified detail of that part follows.
    mutating func surface(_ index: Int) {
        let device = picture.devices[index]
        y += 34
        let size = device.sizeMM
        svg.text(Page.margin, y, "\(device.name) — \(device.kind.rawValue) — surface \(ValueText.number(size.x)) × \(ValueText.number(size.y)) mm",
                 size: 15, weight: "bold")
        y += 16
        svg.text(Page.margin, y, "recording: " + device.source, size: 12, fill: "#555555")
        let whole = Rect(x: 0, y: 0, width: max(1, size.x), height: max(1, size.y))
        let detail = detailView(index, within: whole)
        y += 24
        field(index, view: whole, maxHeight: 520, marking: detail)
        if let detail {
            y += 30
            svg.text(Page.margin, y, "Detail: \(ValueText.number(detail.width)) × \(ValueText.number(detail.height)) mm around the touches",
                     size: 13, weight: "bold")
            y += 24
            field(index, view: detail, maxHeight: 420, marking: nil)
        }
    }

    /// The part of the surface worth magnifying: where the touches, gestures and failures are, padded,
    /// when that is less than a third of the surface each way; nil otherwise.
    func detailView(_ index: Int, within whole: Rect) -> Rect? {
        let device = picture.devices[index]
        var points = picture.tracks.filter { $0.device == index }.flatMap { $0.points.map { device.mm($0.location) } }
        points += picture.spans.filter { $0.device == index }.flatMap { $0.events.compactMap { $0.location.map(device.mm) } }
        points += picture.hovers.filter { $0.device == index }.flatMap { $0.points.map { device.mm($0.location) } }
        guard let first = points.first else { return nil }
        var lo = first, hi = first
        for p in points {
            lo = Point(x: min(lo.x, p.x), y: min(lo.y, p.y))
            hi = Point(x: max(hi.x, p.x), y: max(hi.y, p.y))
        }
        guard hi.x - lo.x < whole.width / 3, hi.y - lo.y < whole.height / 3 else { return nil }
        // At least 24 mm across (a fingertip is about 10 mm), with the surface's proportions at most 3:1.
        let w = max(24, (hi.x - lo.x) * 1.5 + 10), h = max(16, (hi.y - lo.y) * 1.5 + 10, w / 3)
        let c = Point(x: (lo.x + hi.x) / 2, y: (lo.y + hi.y) / 2)
        let x = min(max(whole.minX, c.x - w / 2), whole.maxX - min(w, whole.width))
        let y = min(max(whole.minY, c.y - h / 2), whole.maxY - min(h, whole.height))
        return Rect(x: x, y: y, width: min(w, whole.width), height: min(h, whole.height))
    }

    /// Draws the part `view` (mm) of device `index`'s surface at the top of the remaining page.
    mutating func field(_ index: Int, view: Rect, maxHeight: Double, marking detail: Rect?) {
        let device = picture.devices[index]
        let tracks = picture.tracks.filter { $0.device == index }
        let left = Page.margin + 38
        let top = y
        let scale = min((Page.contentWidth - 46) / view.width, maxHeight / view.height)
        let w = view.width * scale, h = view.height * scale
        func px(_ p: Point) -> (Double, Double) {
            let mm = device.mm(p)
            return (left + (mm.x - view.minX) * scale, top + (mm.y - view.minY) * scale)
        }
        func pxMM(_ mm: Point) -> (Double, Double) { (left + (mm.x - view.minX) * scale, top + (mm.y - view.minY) * scale) }

        // Grid and axes, labelled in mm from the surface's corner.
        svg.rect(left, top, w, h, fill: "#fcfcfc", stroke: "#888888", strokeWidth: 1)
        let step = niceStep(atLeast: 48 / scale)
        let decimals = step < 1 ? 1 : 0
        var v = (view.minX / step).rounded(.down) * step + step
        while v < view.maxX {
            let gx = left + (v - view.minX) * scale
            svg.line(gx, top, gx, top + h, stroke: "#ebebeb")
            // No label crowding the end labels.
            if gx - left > 30 && left + w - gx > 48 {
                svg.text(gx, top - 6, ValueText.number(v, decimals: decimals), size: 10, fill: "#666666", anchor: "middle")
            }
            v += step
        }
        svg.text(left, top - 6, ValueText.number(view.minX, decimals: decimals), size: 10, fill: "#666666", anchor: "middle")
        svg.text(left + w, top - 6, "\(ValueText.number(view.maxX, decimals: decimals)) mm", size: 10, fill: "#666666", anchor: "end")
        v = (view.minY / step).rounded(.down) * step + step
        while v < view.maxY {
            let gy = top + (v - view.minY) * scale
            svg.line(left, gy, left + w, gy, stroke: "#ebebeb")
            if gy - top > 16 && top + h - gy > 16 {
                svg.text(left - 5, gy + 3.5, ValueText.number(v, decimals: decimals), size: 10, fill: "#666666", anchor: "end")
            }
            v += step
        }
        svg.text(left - 5, top + 8, ValueText.number(view.minY, decimals: decimals), size: 10, fill: "#666666", anchor: "end")
        svg.text(left - 5, top + h, ValueText.number(view.maxY, decimals: decimals), size: 10, fill: "#666666", anchor: "end")
        svg.text(left - 5, top + h + 12, "mm", size: 10, fill: "#666666", anchor: "end")

        var labels = LabelPlacer(bounds: Rect(x: left + 2, y: top + 2, width: w - 4, height: h - 4))
        var requests: [(anchor: Point, text: String, colour: String, size: Double, bold: Bool)] = []
        svg.beginClip(left, top, w, h)

        // Region frames (the root is the surface's own outline).
        for region in device.regions {
            let (x0, y0) = px(region.frame.origin)
            let (x1, y1) = px(Point(x: region.frame.maxX, y: region.frame.maxY))
            let colour = region.hidden ? "#b9b0d6" : "#6a51a3"
            if region.depth > 0 {
                svg.rect(x0, y0, x1 - x0, y1 - y0, stroke: colour, strokeWidth: 1.5, dash: "6 3")
            }
            let lx = max(x0, left) + 4, ly = max(y0, top) + 13
            // A window by its name, the title cut to the frame's visible width.
            let room = min(x1, left + w) - lx - 4
            let name = region.window?.label { SVGWriter.textWidth($0, size: 11) * 1.08 <= room } ?? region.id
            let label = name + (region.hidden ? " (hidden)" : "")
            labels.block(Rect(x: lx - 1, y: ly - 11, width: SVGWriter.textWidth(label, size: 11) + 2, height: 13))
            svg.text(lx, ly, label, size: 11, fill: colour, weight: "bold", halo: true)
        }
        if let detail {
            let (x0, y0) = pxMM(detail.origin)
            svg.rect(x0, y0, detail.width * scale, detail.height * scale, stroke: "#444444", strokeWidth: 1, dash: "2 2")
            requests.append((Point(x: x0 + detail.width * scale, y: y0), "detail below", "#444444", 10, false))
        }

        // Failures first, so the touches' markers stay visible on top; grouped within 3 mm.
        var groups: [(at: (Double, Double), numbers: [Int])] = []
        let near = 3 * scale
        for failure in picture.failures where failure.device == index {
            guard let location = failure.location else { continue }
            let p = px(location)
            if let g = groups.firstIndex(where: { abs($0.at.0 - p.0) < near && abs($0.at.1 - p.1) < near }) {
                groups[g].numbers.append(failure.number)
            } else {
                groups.append((p, [failure.number]))
            }
        }
        for group in groups {
            svg.cross(group.at.0, group.at.1, size: 16, stroke: failureRed, width: 2.5)
            labels.block(Rect(x: group.at.0 - 8, y: group.at.1 - 8, width: 16, height: 16))
            requests.append((Point(x: group.at.0, y: group.at.1), Self.numberRanges("F", group.numbers), failureRed, 11, false))
        }

        // A pen hovering: a thin dotted trace, a dashed ring where it came in range.
        for hover in picture.hovers where hover.device == index {
            let (hx, hy) = px(hover.points[0].location)
            svg.polyline(hover.points.map { px($0.location) }, stroke: hoverInk, width: 1.2, dash: "1 3")
            svg.hoverRing(hx, hy, r: 7, stroke: hoverInk)
            labels.block(Rect(x: hx - 7, y: hy - 7, width: 14, height: 14))
            let began = ValueText.milliseconds(picture.ms(hover.points[0].time))
            requests.append((Point(x: hx, y: hy), "\(hover.type.rawValue) hovering H\(hover.id) @\(began) ms", hoverInk, 10, false))
        }

        // Touch paths, ticks every 100 ms, begin and end markers; a pen's path as wide as its pressure.
        for track in tracks {
            let colour = colour(of: track)
            // Forwarded devices: a touch the desktop got at once is solid, one held back and written
            // late is dotted, one a gesture took from the desktop is dashed.
            let dash: String? = switch track.forwarding {
            case .heldThenReleased?: "2 4"
            case .cancelled?: "9 5"
            case .forwarded?, nil: nil
            }
            let path = track.points.map { px($0.location) }
            if track.type != .finger && track.pressures.count == track.points.count && dash == nil {
                svg.pressureStroke(path, pressures: track.pressures, stroke: colour, width: Self.penWidth,
                                   hollow: track.type == .eraser)
            } else {
                svg.polyline(path, stroke: colour, width: 2.5, dash: dash, opacity: 0.85)
            }
            var t = track.began.adding(milliseconds: 100)
            while t < track.end {
                let (x, y) = px(interpolated(track, at: t))
                svg.circle(x, y, r: 2.4, fill: "#ffffff", stroke: colour, strokeWidth: 1.5)
                t = t.adding(milliseconds: 100)
            }
            let (bx, by) = px(track.points[0].location)
            let (ex, ey) = px(track.points[track.points.count - 1].location)
            // The begin mark (a finger's dot, a pen's nib, an eraser's block), then the end marker
            // around it (a tap ends where it began).
            switch track.type {
            case .finger: svg.circle(bx, by, r: 5, fill: colour, stroke: "#ffffff", strokeWidth: 1.5)
            case .pen: svg.nib(bx, by, size: 14, fill: colour, stroke: "#ffffff", strokeWidth: 1.2)
            case .eraser: svg.rect(bx - 6, by - 4, 12, 8, fill: colour, stroke: "#ffffff", strokeWidth: 1.2)
            }
            switch track.endPhase {
            case .cancelled?: svg.cross(ex, ey, size: 12, stroke: colour, width: 2)
            case .ended?: svg.square(ex, ey, size: 13, fill: "none", stroke: colour)
            default: break
            }
            labels.block(Rect(x: bx - 6, y: by - 6, width: 12, height: 12))
            labels.block(Rect(x: ex - 5, y: ey - 5, width: 10, height: 10))
            let began = ValueText.milliseconds(picture.ms(track.began))
            let desktop = switch track.forwarding {
            case .forwarded?: ", forwarded"
            case .heldThenReleased(let t)?: ", held, sent @\(ValueText.milliseconds(picture.ms(t))) ms"
            case .cancelled(let t)?: ", cancelled @\(ValueText.milliseconds(picture.ms(t))) ms"
            case nil: ""
            }
            requests.append((Point(x: bx, y: by), "T\(track.id)\(Self.penNote(track)) @\(began) ms\(desktop)", colour, 11, true))
        }

        // Gestures: a continuous one's centroid path, its start (hollow) and end (filled).
        for span in picture.spans where span.device == index {
            let located = span.events.compactMap { e in e.location.map { px($0) } }
            guard let end = located.last else { continue }
            if located.count > 1 {
                svg.polyline(located, stroke: gestureInk, width: 1.5, dash: "5 3", opacity: 0.8)
                svg.diamond(located[0].0, located[0].1, size: 10, fill: "none", stroke: gestureInk)
            }
            // A hollow diamond around the fingers' markers, so both stay visible.
            let faded = span.last.state == .cancelled
            svg.diamond(end.0, end.1, size: 22, fill: "none", stroke: faded ? "#999999" : gestureInk, strokeWidth: 2.2)
            labels.block(Rect(x: end.0 - 11, y: end.1 - 11, width: 22, height: 22))
            // Its most telling value: taps, direction, translation, scale or turn.
            let value = span.last.valueParts(unitsPerMM: device.unitsPerMM, velocities: false)
                .first { !$0.hasPrefix("at ") }.map { " · " + $0 } ?? ""
            requests.append((Point(x: end.0, y: end.1), "G\(span.number) \(span.first.gesture)\(value)", gestureInk, 12, true))
        }
        svg.endGroup()

        // Labels last, on top of everything, for anchors inside the view.
        for request in requests where request.anchor.x >= left && request.anchor.x <= left + w
            && request.anchor.y >= top && request.anchor.y <= top + h {
            let lw = SVGWriter.textWidth(request.text, size: request.size) * (request.bold ? 1.08 : 1)
            let at = labels.place(near: request.anchor, width: lw, height: request.size)
            svg.text(at.x, at.y, request.text, size: request.size, fill: request.colour,
                     weight: request.bold ? "bold" : nil, halo: true)
        }
        y = top + h + 8
    }

    /// A pen's line width (px) at `pressure` (0…1): 1 px at a touch of the glass, 8 px pressed hard.
    static func penWidth(_ pressure: Double) -> Double { 1 + 7 * min(1, max(0, pressure)) }

    /// " pen, pressure ≤ 0.42, tilt 61°" for a pen's track (its highest pressure, its altitude at
    /// touch-down in degrees from the glass); "" for a finger.
    static func penNote(_ track: ReplayPicture.Track) -> String {
        guard track.type != .finger else { return "" }
        var note = " " + track.type.rawValue
        if let most = track.pressures.max() { note += ", pressure ≤ " + ValueText.number(most, decimals: 2) }
        if let altitude = track.altitudeAngle { note += ", tilt " + ValueText.number(altitude * 180 / .pi, decimals: 0) + "°" }
        return note
    }

    /// The track's position at `time`, linearly between its samples.
    func interpolated(_ track: ReplayPicture.Track, at time: Timestamp) -> Point {
        var previous = track.points[0]
        for p in track.points {
            if p.time >= time {
                let span = Double(p.time.microseconds - previous.time.microseconds)
                guard span > 0 else { return p.location }
                let f = Double(time.microseconds - previous.time.microseconds) / span
                return previous.location + (p.location - previous.location) * f
            }
            previous = p
        }
        return previous.location
    }

    /// "F1–F4, F9" for [1, 2, 3, 4, 9]; long lists end in "…".
    static func numberRanges(_ prefix: String, _ numbers: [Int]) -> String {
        var parts: [String] = []
        var i = 0
        while i < numbers.count {
            var j = i
            while j + 1 < numbers.count && numbers[j + 1] == numbers[j] + 1 { j += 1 }
            parts.append(j == i ? "\(prefix)\(numbers[i])" : "\(prefix)\(numbers[i])–\(prefix)\(numbers[j])")
            i = j + 1
        }
        return parts.count > 3 ? parts.prefix(3).joined(separator: ", ") + ", …" : parts.joined(separator: ", ")
    }
}
