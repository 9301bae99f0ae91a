import GestureCore

/// One finger of a sample, from landing to lift, in millimetres and milliseconds.
public struct FingerTrack: Hashable, Sendable {
    /// Time (ms since the sample's first event) and position (mm on the surface, x to the right,
    /// y downward: the surface's axes in mm, so edges are at 0 and at the surface size).
    public struct Point: Hashable, Sendable {
        public var time: Double
        public var x: Double
        public var y: Double
        public init(time: Double, x: Double, y: Double) { self.time = time; self.x = x; self.y = y }
    }
    public var points: [Point]
    public init(points: [Point]) { self.points = points }
    public var landing: Point { points[0] }
    public var lift: Point { points[points.count - 1] }
}

/// A sample as the recognizers see it: the fingers' tracks on a surface of known size in mm.
public struct SampleTrace: Hashable, Sendable {
    public var deviceKind: DeviceKind
    /// The surface in mm (width, height).
    public var surfaceWidth: Double
    public var surfaceHeight: Double
    /// The device's declared position fuzz, in mm (0 when it declares none or no resolution).
    public var declaredFuzz: Double
    public var fingers: [FingerTrack]

    public init(deviceKind: DeviceKind, surfaceWidth: Double, surfaceHeight: Double, declaredFuzz: Double,
                fingers: [FingerTrack]) {
        self.deviceKind = deviceKind
        self.surfaceWidth = surfaceWidth
        self.surfaceHeight = surfaceHeight
        self.declaredFuzz = declaredFuzz
        self.fingers = fingers
    }

    /// Assembles a recording's touch frames (the same `FrameAssembler` the pipeline uses) into tracks.
    public static func assemble(description: DeviceDescription, events: [RawEvent],
                                surface: SurfaceConfiguration = .init()) -> SampleTrace {
        let ref = DeviceRef(id: 0, name: description.name, kind: description.kind)
        var assembler = FrameAssembler(description: description, device: ref, surface: surface)
        var ids = TouchIDGenerator()
        let origin = events.first?.time ?? .zero
        var order: [TouchID] = []
        var tracks: [TouchID: [FingerTrack.Point]] = [:]
        var width = 0.0, height = 0.0
        func take(_ frame: TouchFrame) {
            let ux = frame.unitsPerMM.x > 0 ? frame.unitsPerMM.x : 1
            let uy = frame.unitsPerMM.y > 0 ? frame.unitsPerMM.y : 1
            width = frame.surfaceSize.x / ux
            height = frame.surfaceSize.y / uy
            let t = frame.time.milliseconds(since: origin)
            for touch in frame.touches where touch.phase != .stationary {
                if tracks[touch.id] == nil { order.append(touch.id); tracks[touch.id] = [] }
                tracks[touch.id]!.append(.init(time: t, x: touch.location.x / ux, y: touch.location.y / uy))
            }
        }
        for event in events {
            if let frame = assembler.feed(event, ids: &ids) { take(frame) }
        }
        for frame in assembler.finish(at: events.last?.time ?? origin, ids: &ids) { take(frame) }
        var fuzz = 0.0
        if let x = description.absInfo[.absMTPositionX] ?? description.absInfo[.absX], x.resolution > 0 {
            fuzz = Double(x.fuzz) / Double(x.resolution)
        }
        return SampleTrace(deviceKind: description.kind, surfaceWidth: width, surfaceHeight: height,
                           declaredFuzz: fuzz, fingers: order.compactMap { tracks[$0] }.filter { !$0.isEmpty }
                               .map { FingerTrack(points: $0) })
    }
}
