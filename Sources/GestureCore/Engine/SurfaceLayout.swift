/// A device's surface as the engine lays it out (docs/protocol.md, "The scene"): the desktop output
/// its touches are bound to, and its regions as the hit test sees them, each with its frame in
/// surface units and in the output's logical pixels. The engine's own decisions, so a picture of the
/// daemon's world (the view, a replay's SVG) draws them instead of deciding again.
public struct SurfaceLayout: Hashable, Sendable {
    /// One region as laid out on the surface.
    public struct Region: Hashable, Sendable {
        public var id: String
        /// The parent's id; nil for the root.
        public var parent: String?
        /// 0 for the root, 1 for its children…
        public var depth: Int
        public var role: RegionRole
        /// The frame in surface units (the device's `surface` size).
        public var frame: Rect
        /// The frame in the logical pixels of the surface's output; nil when the surface has none.
        public var outputFrame: Rect?
        /// False when the config says `interactive: false` (drawn, never hit).
        public var interactive: Bool
        /// Hidden, or inside a hidden region: never hit (a picture may show it apart, or not at all).
        public var hidden: Bool
    }

    public var device: String
    public var kind: DeviceKind
    /// The surface's size in its own units.
    public var size: Point
    /// The desktop output the device's touches hit the windows of (`GestureEngine.output(forDevice:)`):
    /// none for a touchpad, and none without a bridge.
    public var output: String?
    /// The regions of this surface, each parent before its children and siblings bottom-most first
    /// (the order to draw them in): regions of other device kinds and the other outputs' regions are
    /// left out, as the hit test leaves them out; hidden ones are in, marked `hidden`.
    public var regions: [Region]
}

extension GestureEngine {
    /// How device `id` (named `name`, of `kind`, with a surface of `size`) is laid out now: its
    /// output and its regions' frames, as its next touch is hit-tested.
    public func surfaceLayout(device id: Int, name: String, kind: DeviceKind, size: Point) -> SurfaceLayout {
        let tree = template.tree
        let outputName = kind == .touchpad ? nil : output(forDevice: id)
        let outputIndex = outputName.flatMap { tree.indexByID[DesktopRegions.outputPrefix + $0] } ?? -1
        let o = outputName.flatMap { desktop?.output(named: $0) }
        let layout = tree.layout(for: size)
        func inOutput(_ r: Rect) -> Rect? {
            guard let o, size.x > 0, size.y > 0 else { return nil }
            let sx = o.width / size.x, sy = o.height / size.y
            return Rect(x: r.minX * sx, y: r.minY * sy, width: r.width * sx, height: r.height * sy)
        }
        var regions: [SurfaceLayout.Region] = []
        func visit(_ i: Int, depth: Int, hidden: Bool) {
            let node = tree.nodes[i]
            let hidden = hidden || node.hidden
            if node.role == .output && i != outputIndex { return }
            if !node.deviceKinds.isEmpty && !node.deviceKinds.contains(kind) { return }
            let frame = layout.frames[i]
            regions.append(.init(id: node.id, parent: node.parent >= 0 ? tree.nodes[node.parent].id : nil, depth: depth,
                                 role: node.role, frame: frame, outputFrame: inOutput(frame),
                                 interactive: node.interactionEnabled, hidden: hidden))
            for c in node.children { visit(c, depth: depth + 1, hidden: hidden) }
        }
        if !tree.nodes.isEmpty { visit(0, depth: 0, hidden: false) }
        return SurfaceLayout(device: name, kind: kind, size: size, output: outputName, regions: regions)
    }
}

extension GestureEngine {
    /// The hit chain touch `id` of device `device` is bound to (its region first, then the ancestors
    /// up to the root), while the engine still holds the touch; nil when it holds none such.
    public func touchChain(_ id: TouchID, device: Int) -> [String]? {
        guard let lane = laneDevices.firstIndex(of: device) else { return nil }
        let ri = lanes[lane].recordIndex(id)
        return ri >= 0 ? lanes[lane].chainNames(of: ri) : nil
    }
}
