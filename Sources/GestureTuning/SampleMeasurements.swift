#if canImport(Glibc)
import Glibc
#endif

/// What the recognizers decide on, measured on one sample (mm, ms, degrees). Pure: computed from
/// the sample's finger tracks alone.
///
/// - A *press* is a group of fingers down together: it starts when the first lands on an empty
///   surface and ends when the last lifts. A double tap is two presses.
/// - The *stroke* is the fingers' common motion while the most fingers are down: the mean of
///   their displacements since that many fingers formed (their centroid's motion, without the
///   jumps of fingers landing or lifting).
public struct SampleMeasurements: Hashable, Sendable {
    public struct Press: Hashable, Sendable {
        /// First finger down, last finger up (ms since the sample's start).
        public var start: Double
        public var end: Double
        /// Where the first finger landed (mm).
        public var x: Double
        public var y: Double
        public var fingers: Int
        /// Farthest any finger of the press moved from where it landed (mm).
        public var movement: Double
        /// From the first finger landing to the last one landing (ms).
        public var landingSpread: Double
        public var duration: Double { end - start }
    }

    /// Most fingers down at once.
    public var fingers: Int
    public var presses: [Press]
    /// From the first finger down to the last finger up (ms).
    public var duration: Double
    /// Farthest any finger moved from where it landed (mm).
    public var movement: Double
    /// Farthest the stroke went (mm), and its net direction at that point (mm, y down).
    public var travel: Double
    public var travelX: Double
    public var travelY: Double
    /// The stroke's distance over time: (ms since the first finger down, mm), non-decreasing.
    public var travelTimeline: [(time: Double, distance: Double)]
    /// How far off the nearest axis the stroke went (degrees, 0…45).
    public var offAxis: Double
    /// The fingers' span when they formed (twice their mean distance from their centroid, mm), and
    /// its largest change since (mm). 0 with one finger.
    public var initialSpan: Double
    public var spanChange: Double
    /// Largest turn of the fingers about their centroid since they formed (degrees). 0 with one finger.
    public var turn: Double
    /// Where the first finger landed, from each edge of the surface (mm).
    public var edgeDistances: [String: Double]
    /// Device noise: the still fingers' jitter (mm). For each finger, the spread (largest distance
    /// from the mean) of its stillest 100 ms; the median over the sample's fingers.
    public var jitter: Double
    public var declaredFuzz: Double

    public static func == (a: Self, b: Self) -> Bool {
        a.fingers == b.fingers && a.presses == b.presses && a.duration == b.duration && a.movement == b.movement
            && a.travel == b.travel && a.offAxis == b.offAxis && a.initialSpan == b.initialSpan
            && a.spanChange == b.spanChange && a.turn == b.turn && a.edgeDistances == b.edgeDistances
            && a.jitter == b.jitter && a.travelTimeline.map(\.time) == b.travelTimeline.map(\.time)
            && a.travelTimeline.map(\.distance) == b.travelTimeline.map(\.distance)
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(fingers); hasher.combine(travel); hasher.combine(duration); hasher.combine(movement)
    }

    /// Milliseconds from the first finger down until the stroke first reached `distance` mm, or nil.
    public func time(toTravel distance: Double) -> Double? {
        let start = presses.first?.start ?? 0
        return travelTimeline.first { $0.distance >= distance }.map { $0.time - start }
    }

    /// Largest gap between one press's end and the next press's start (ms), nil with one press.
    public var largestInterval: Double? {
        guard presses.count > 1 else { return nil }
        return zip(presses, presses.dropFirst()).map { $1.start - $0.end }.max()
    }
    /// Farthest apart two consecutive presses landed (mm), nil with one press.
    public var largestPressDistance: Double? {
        guard presses.count > 1 else { return nil }
        return zip(presses, presses.dropFirst()).map { hypot($1.x - $0.x, $1.y - $0.y) }.max()
    }
    /// Longest press (ms).
    public var longestPress: Double { presses.map(\.duration).max() ?? 0 }
    /// The last press's duration (ms): a long press's hold.
    public var hold: Double { presses.last?.duration ?? 0 }
    /// The last press's movement (mm).
    public var holdMovement: Double { presses.last?.movement ?? 0 }
    /// The device noise used as a floor: the larger of the measured jitter and the declared fuzz.
    public var noise: Double { max(jitter, declaredFuzz) }

    public init(_ trace: SampleTrace) {
        let fingers = trace.fingers
        presses = SampleMeasurements.presses(fingers)
        self.fingers = SampleMeasurements.mostFingers(fingers)
        let first = fingers.map(\.landing.time).min() ?? 0
        duration = (fingers.map(\.lift.time).max() ?? 0) - first
        let changeTimes = Set(fingers.flatMap { [$0.landing.time, $0.lift.time] })
        movement = fingers.map { SampleMeasurements.movement($0, rebasingAt: changeTimes) }.max() ?? 0
        declaredFuzz = trace.declaredFuzz
        jitter = SampleMeasurements.median(fingers.map(SampleMeasurements.stillestSpread))
        let stroke = SampleMeasurements.stroke(fingers, count: SampleMeasurements.mainFingers(fingers))
        travel = stroke.travel
        travelX = stroke.x
        travelY = stroke.y
        travelTimeline = stroke.timeline
        let major = max(abs(stroke.x), abs(stroke.y)), minor = min(abs(stroke.x), abs(stroke.y))
        offAxis = major > 0 ? atan2(minor, major) * 180 / .pi : 0
        initialSpan = stroke.initialSpan
        spanChange = stroke.spanChange
        turn = stroke.turn
        if let landing = fingers.min(by: { $0.landing.time < $1.landing.time })?.landing {
            edgeDistances = ["left": landing.x, "right": trace.surfaceWidth - landing.x,
                             "top": landing.y, "bottom": trace.surfaceHeight - landing.y]
        } else {
            edgeDistances = [:]
        }
    }

    /// Farthest a finger got from where it started, started again wherever a finger landed or
    /// lifted (sensors re-fit their contacts then: the motion of that report is not the finger's,
    /// and the recognizers ignore it too).
    static func movement(_ finger: FingerTrack, rebasingAt changes: Set<Double> = []) -> Double {
        var origin = finger.landing
        var most = 0.0
        for point in finger.points {
            if changes.contains(point.time) { origin = point; continue }
            most = max(most, hypot(point.x - origin.x, point.y - origin.y))
        }
        return most
    }

    /// The finger count the sample spends the most time at (ties: the higher): the count of its stroke.
    static func mainFingers(_ fingers: [FingerTrack]) -> Int {
        var time: [Int: Double] = [:]
        var down = 0
        var last = 0.0
        for change in changes(fingers) {
            if down > 0 { time[down, default: 0] += change.time - last }
            down += change.delta
            last = change.time
        }
        return time.max { $0.value != $1.value ? $0.value < $1.value : $0.key < $1.key }?.key ?? mostFingers(fingers)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// The spread of a finger's stillest 100 ms (its whole life when shorter).
    static func stillestSpread(_ finger: FingerTrack) -> Double {
        let points = finger.points
        var best = Double.infinity
        var end = 0
        for start in points.indices {
            while end < points.count - 1 && points[end].time - points[start].time < 100 { end += 1 }
            if points[end].time - points[start].time < 100 && start > 0 { break }
            let window = points[start...end]
            let mx = window.map(\.x).reduce(0, +) / Double(window.count)
            let my = window.map(\.y).reduce(0, +) / Double(window.count)
            best = min(best, window.map { hypot($0.x - mx, $0.y - my) }.max() ?? 0)
        }
        return best.isFinite ? best : 0
    }

    /// Events of landing (+1) and lifting (-1), in time order (a lift before a landing at the same time).
    static func changes(_ fingers: [FingerTrack]) -> [(time: Double, delta: Int, finger: Int)] {
        var result: [(time: Double, delta: Int, finger: Int)] = []
        for (i, f) in fingers.enumerated() {
            result.append((f.landing.time, 1, i))
            result.append((f.lift.time, -1, i))
        }
        return result.sorted { $0.time != $1.time ? $0.time < $1.time : ($0.delta != $1.delta ? $0.delta < $1.delta : $0.finger < $1.finger) }
    }

    static func mostFingers(_ fingers: [FingerTrack]) -> Int {
        var down = 0, most = 0
        for change in changes(fingers) {
            down += change.delta
            most = max(most, down)
        }
        return most
    }

    static func presses(_ fingers: [FingerTrack]) -> [Press] {
        var result: [Press] = []
        var down = 0
        var members: [Int] = []
        for change in changes(fingers) {
            if change.delta > 0 {
                down += 1
                members.append(change.finger)
            } else {
                down -= 1
                if down == 0 {
                    let group = members.map { fingers[$0] }
                    let landings = group.map(\.landing)
                    let firstLanding = landings.min { $0.time < $1.time }!
                    let times = Set(group.flatMap { [$0.landing.time, $0.lift.time] })
                    result.append(Press(start: firstLanding.time, end: change.time, x: firstLanding.x, y: firstLanding.y,
                                        fingers: mostFingers(group),
                                        movement: group.map { movement($0, rebasingAt: times) }.max() ?? 0,
                                        landingSpread: (landings.map(\.time).max() ?? 0) - firstLanding.time))
                    members = []
                }
            }
        }
        return result
    }

    /// The position of a finger at a time (its last point at or before it).
    static func position(_ finger: FingerTrack, at time: Double) -> FingerTrack.Point? {
        guard finger.landing.time <= time, finger.lift.time >= time else { return nil }
        return finger.points.last { $0.time <= time }
    }

    struct Stroke {
        var travel = 0.0, x = 0.0, y = 0.0
        var timeline: [(time: Double, distance: Double)] = []
        var initialSpan = 0.0, spanChange = 0.0, turn = 0.0
    }

    /// The stroke over the spans of time when `count` fingers are down: each span measured from
    /// where its fingers were when it formed; the farthest of them.
    static func stroke(_ fingers: [FingerTrack], count: Int) -> Stroke {
        var result = Stroke()
        guard count > 0 else { return result }
        let times = Set(fingers.flatMap { $0.points.map(\.time) }).sorted()
        var formation: (members: [Int], start: [FingerTrack.Point], centroid: (Double, Double), span: Double, angles: [Double])?
        var turned: [Double] = []
        var best = 0.0
        var spanSet = false
        for time in times {
            let members = fingers.indices.filter { i in
                fingers[i].landing.time <= time && fingers[i].lift.time >= time
            }
            guard members.count == count else { formation = nil; continue }
            let now = members.map { position(fingers[$0], at: time)! }
            let cx = now.map(\.x).reduce(0, +) / Double(count), cy = now.map(\.y).reduce(0, +) / Double(count)
            let span = 2 * now.map { hypot($0.x - cx, $0.y - cy) }.reduce(0, +) / Double(count)
            let angles = now.map { atan2($0.y - cy, $0.x - cx) }
            if formation == nil || formation!.members != members {
                formation = (members, now, (cx, cy), span, angles)
                turned = [Double](repeating: 0, count: count)
                if !spanSet { result.initialSpan = span; spanSet = true }
                result.timeline.append((time, best))
                continue
            }
            let f = formation!
            let dx = cx - f.centroid.0, dy = cy - f.centroid.1
            let distance = hypot(dx, dy)
            if distance > result.travel { result.travel = distance; result.x = dx; result.y = dy }
            best = max(best, distance)
            result.timeline.append((time, best))
            result.spanChange = max(result.spanChange, abs(span - f.span))
            if count >= 2 {
                for k in 0..<count {
                    var d = angles[k] - f.angles[k]
                    while d > .pi { d -= 2 * .pi }
                    while d < -.pi { d += 2 * .pi }
                    turned[k] = d
                }
                let mean = turned.reduce(0, +) / Double(count)
                result.turn = max(result.turn, abs(mean) * 180 / .pi)
            }
        }
        return result
    }
}
