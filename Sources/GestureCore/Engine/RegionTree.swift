/// The region tree, flattened for hit-testing: nodes in depth-first order, each with its
/// parent, children (z-order: later on top) and the recognizers touches hitting it are delivered to.
struct RegionTree: Sendable {
    struct Node: Sendable {
        var id: String
        var frame: RegionFrame
        var parent: Int
        var children: [Int]
        var hidden: Bool
        var interactionEnabled: Bool
        var minimumHitSize: Point?
        var redirect: Int?
        var isControl: Bool
        var publishesTouches: Bool
        var deviceKinds: Set<DeviceKind>
        /// A socket client subscribed to this region's touch stream (see `responder(for:)`).
        var hasSubscriber = false
        /// Recognizers attached to this region, in configuration order.
        var recognizers: [Int] = []
        /// Recognizers a touch hit-tested to this region is delivered to: this region's, then every
        /// ancestor's (nearest first), with the control rule applied.
        var delivery: [Int] = []
        /// What the region follows on the desktop; whether it keeps its gestures; which ancestor
        /// gestures it disables (GestureEngine+Desktop.swift).
        var role = RegionRole.plain
        var keeps = false
        var disables: [String] = []
        /// Per `delivery` entry, how many keeping regions lie between the hit region and the entry's
        /// region (the hit region's own keeping included): an entry of a higher band is an ancestor of
        /// a keeping region that holds the touch (EngineLane+Keeping.swift). Empty when no keeping
        /// region is on the chain, which is the config's tree without desktop or clients.
        var deliveryBands: [UInt8] = []
    }

    /// Some region keeps its gestures (then `requirement` looks at delivery bands).
    var hasKeepingRegions = false

    /// Absolute frames of every node for one surface size.
    struct Layout: Sendable {
        var size: Point
        var frames: [Rect]
        var hitFrames: [Rect]
    }

    /// Mutated only here and in RegionTree+Live.swift (regions attached over the socket).
    var nodes: [Node] = []
    /// A socket client subscribed to every touch (`"touches":["*"]`): a touch with no consumer up
    /// to the root is streamed still, without a `responder` (see `responder(for:)`).
    var streamsEveryTouch = false
    var indexByID: [String: Int] = [:]

    init(root: RegionSpec) {
        add(root, parent: -1)
        for i in nodes.indices {
            // Redirect targets are resolved once every id is known.
            if let target = redirectIDs[i], let t = indexByID[target], t != i { nodes[i].redirect = t }
        }
        redirectIDs = [:]
    }

    var redirectIDs: [Int: String] = [:]

    mutating func add(_ spec: RegionSpec, parent: Int) {
        let index = nodes.count
        nodes.append(Node(id: spec.id, frame: spec.frame, parent: parent, children: [], hidden: spec.hidden,
                          interactionEnabled: spec.interactionEnabled, minimumHitSize: spec.minimumHitSize,
                          redirect: nil, isControl: spec.isControl, publishesTouches: spec.publishesTouches,
                          deviceKinds: spec.deviceKinds, role: spec.role, keeps: spec.keepsGestures,
                          disables: spec.disables))
        if spec.keepsGestures { hasKeepingRegions = true }
        if indexByID[spec.id] == nil { indexByID[spec.id] = index }
        if let r = spec.redirect { redirectIDs[index] = r }
        if parent >= 0 {
            if let position = insertion, position < nodes[parent].children.count {
                nodes[parent].children.insert(index, at: position)
            } else {
                nodes[parent].children.append(index)
            }
        }
        insertion = nil
        for child in spec.children { add(child, parent: index) }
    }

    /// Where `add` puts its next node among its parent's children (nil: on top); used once.
    var insertion: Int?

    /// Attaches recognizers and precomputes each region's delivery list.
    /// `isSingleTap(r)`: a one-finger one-tap recognizer, which a control below its region beats.
    mutating func attach(recognizerRegions: [Int?], isSingleTap: (Int) -> Bool, name: (Int) -> String) {
        for (r, region) in recognizerRegions.enumerated() {
            if let region { nodes[region].recognizers.append(r) }
        }
        for i in nodes.indices { setDelivery(of: i, isSingleTap: isSingleTap, name: name) }
    }

    /// Computes region `i`'s delivery list and its bands.
    mutating func setDelivery(of i: Int, isSingleTap: (Int) -> Bool, name: (Int) -> String) {
        let (list, bands) = deliveryList(of: i, isSingleTap: isSingleTap, name: name)
        nodes[i].delivery = list
        nodes[i].deliveryBands = bands
    }

    /// The recognizers a touch hit-tested to `region` is delivered to: the region's own, then every
    /// ancestor's (nearest first), without single taps above a control nor the gestures a region
    /// below disables; with each entry's band (see `Node.deliveryBands`), empty when no region of the
    /// chain keeps its gestures.
    func deliveryList(of region: Int, isSingleTap: (Int) -> Bool, name: (Int) -> String) -> ([Int], [UInt8]) {
        var list: [Int] = []
        var bands: [UInt8] = []
        var node = region
        var belowControl = false
        var band: UInt8 = 0
        var keeping = false
        var disabled: [String] = []
        while node >= 0 {
            for r in nodes[node].recognizers where !(belowControl && isSingleTap(r)) {
                if !disabled.isEmpty && (disabled.contains("*") || disabled.contains(name(r))) { continue }
                list.append(r)
                bands.append(band)
            }
            if nodes[node].isControl { belowControl = true }
            if nodes[node].keeps {
                keeping = true
                if band < UInt8.max { band += 1 }
            }
            disabled += nodes[node].disables
            node = nodes[node].parent
        }
        return (list, keeping ? bands : [])
    }

    func layout(for size: Point) -> Layout {
        var frames = [Rect](repeating: Rect(x: 0, y: 0, width: 0, height: 0), count: nodes.count)
        var hits = frames
        for i in nodes.indices {
            // Depth-first order: a parent is always laid out before its children.
            let parent = nodes[i].parent >= 0 ? frames[nodes[i].parent] : Rect(x: 0, y: 0, width: size.x, height: size.y)
            let f = nodes[i].frame
            let rect = Rect(x: parent.minX + f.x.resolve(in: parent.width), y: parent.minY + f.y.resolve(in: parent.height),
                            width: f.width.resolve(in: parent.width), height: f.height.resolve(in: parent.height))
            frames[i] = rect
            var hit = rect
            if let minimum = nodes[i].minimumHitSize {
                let w = max(rect.width, minimum.x)
                let h = max(rect.height, minimum.y)
                let c = rect.center
                hit = Rect(x: c.x - w / 2, y: c.y - h / 2, width: w, height: h)
            }
            hits[i] = hit
        }
        return Layout(size: size, frames: frames, hitFrames: hits)
    }

    /// The region a new touch at `point` is bound to (after redirect), or nil when nothing is hit.
    /// Of the output regions, only `output`'s is hit (-1: none of them).
    func hit(_ point: Point, layout: Layout, deviceKind: DeviceKind, output: Int = -1) -> Int? {
        guard !nodes.isEmpty, let found = hit(node: 0, onSurface(point, layout), layout, deviceKind, output) else { return nil }
        if let target = nodes[found].redirect { return target }
        return found
    }

    /// How far beyond its axis range a device may report a touch and still be on its surface, as a
    /// share of the surface's width or height. Firmware overshoots the advertised range by a little
    /// (a Synaptics pad 0.3 mm past its y maximum; semi-mt pads a mm below zero); such a touch is
    /// taken at the nearest point of the surface, as libinput keeps it, instead of reaching nothing.
    static let overshootTolerance = 0.02

    /// `p` moved onto the surface when it lies just beyond an edge (`overshootTolerance`).
    private func onSurface(_ p: Point, _ layout: Layout) -> Point {
        let size = layout.size
        guard size.x > 0, size.y > 0 else { return p }
        func clamp(_ v: Double, _ length: Double) -> Double {
            let slack = length * RegionTree.overshootTolerance
            if v < 0 && v >= -slack { return 0 }
            if v > length && v <= length + slack { return length }
            return v
        }
        return Point(x: clamp(p.x, size.x), y: clamp(p.y, size.y))
    }

    /// Frames are half-open (a point on a shared edge belongs to the frame to its right or below), so
    /// the surface's own right and bottom edges (the axis maximum, and the overshoot clamped onto it)
    /// would belong to no frame but the root's. A frame that reaches such an edge takes it, as the
    /// frames at the left and top edges take theirs: every edge behaves as the left one.
    static func onClosedFarEdge(_ p: Point, _ r: Rect, _ size: Point) -> Bool {
        guard size.x > 0, size.y > 0 else { return false }
        // Shares of the surface resolve to frames a rounding error off its edge.
        let ex = size.x * 1e-9, ey = size.y * 1e-9
        func inside(_ v: Double, _ lo: Double, _ hi: Double, _ length: Double, _ e: Double) -> Bool {
            if v >= lo && v < hi { return true }
            return v >= length - e && v <= length + e && hi >= length - e && lo < hi
        }
        return inside(p.x, r.minX, r.maxX, size.x, ex) && inside(p.y, r.minY, r.maxY, size.y, ey)
    }

    /// The region a new touch is bound to: hit-tested (of the output regions, only `output`'s), and
    /// for a touchpad touch that hits only the root, `touchpadWindow` (the window region it is bound
    /// to, GestureEngine+Desktop.swift; -1: none).
    func hitRegion(_ point: Point, layout: Layout, deviceKind: DeviceKind, output: Int, touchpadWindow: Int) -> Int? {
        let found = hit(point, layout: layout, deviceKind: deviceKind, output: deviceKind == .touchpad ? -1 : output)
        if found == 0 && deviceKind == .touchpad && touchpadWindow > 0 { return touchpadWindow }
        return found
    }

    private func hit(node i: Int, _ p: Point, _ layout: Layout, _ kind: DeviceKind, _ output: Int) -> Int? {
        // The node's fields where they lie: a copy of the node retains and releases each of its arrays.
        if nodes[i].hidden || !nodes[i].interactionEnabled { return nil }
        if nodes[i].role == .output && i != output { return nil }
        if !nodes[i].deviceKinds.isEmpty && !nodes[i].deviceKinds.contains(kind) { return nil }
        let r = layout.hitFrames[i]
        if i == 0 {
            // The root covers the whole surface, far edges included (everything when the surface size
            // is unknown).
            if layout.size.x > 0 && layout.size.y > 0 {
                guard p.x >= r.minX, p.x <= r.maxX, p.y >= r.minY, p.y <= r.maxY else { return nil }
            }
        } else if !r.contains(p) && !Self.onClosedFarEdge(p, r, layout.size) {
            return nil
        }
        let children = nodes[i].children
        var c = children.count - 1
        while c >= 0 {
            if let h = hit(node: children[c], p, layout, kind, output) { return h }
            c -= 1
        }
        return i
    }

    /// Hit region then its ancestors up to the root.
    func chain(from region: Int) -> [Int] {
        var out: [Int] = []
        var i = region
        while i >= 0 {
            out.append(i)
            i = nodes[i].parent
        }
        return out
    }
}
