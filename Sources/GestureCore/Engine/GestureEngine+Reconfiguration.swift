/// Why a run-time change to the region tree was refused.
public enum RegionChangeError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownRegion(String)
    case duplicateRegion(String)
    case rootRegion
    /// An output or window region: it follows the desktop; nobody attaches to it or changes it.
    case desktopRegion(String)

    public var description: String {
        switch self {
        case .desktopRegion(let id):
            "region '\(id)' follows the desktop (an output or a window): attach under a region of the config"
        case .unknownRegion(let id): "no region '\(id)'"
        case .duplicateRegion(let id): "region id '\(id)' is already in use"
        case .rootRegion: "the root region cannot be changed"
        }
    }
}

/// Regions and recognizers that change while the engine runs (socket clients attaching their own
/// subtrees, docs/protocol.md). Every lane and the template change alike, so region and recognizer
/// indices stay the same everywhere; `configuration` always describes the same tree, so a fresh
/// engine built from it (`compactIfIdle`) behaves the same.
///
/// Timing: a change applies to touches that go down after it. A touch keeps the region it was bound
/// to at touch-down and the recognizers it was delivered to, except those detached: a detached
/// recognizer in progress is cancelled at once (never left open), one still deciding fails.
extension GestureEngine {
    /// Adds `spec` as the topmost child of region `parent`, with `recognizers` on its regions.
    /// Every id in `spec` must be new; recognizer references resolve among `recognizers`.
    /// The subtree's root keeps its gestures (docs/recognizers.md, "A window keeps what it keeps").
    public mutating func attach(_ spec: RegionSpec, under parent: String,
                                recognizers: [RecognizerSpec]) throws(RegionChangeError) {
        guard let p = template.tree.indexByID[parent] else { throw .unknownRegion(parent) }
        guard template.tree.nodes[p].role == .plain else { throw .desktopRegion(parent) }
        var seen = Set<String>()
        for id in spec.allIDs {
            if DesktopRegions.isDesktopRegion(id) { throw .desktopRegion(id) }
            if template.tree.indexByID[id] != nil || !seen.insert(id).inserted { throw .duplicateRegion(id) }
        }
        var spec = spec
        spec.keepsGestures = true
        insert(spec, under: p, at: nil, recognizers: recognizers)
        _ = configuration.root.insert(spec, under: parent)
        configuration.recognizers += recognizers
    }

    /// Adds `spec` under region index `parent` (at `position` among its children; nil: on top) in the
    /// template and every lane.
    mutating func insert(_ spec: RegionSpec, under parent: Int, at position: Int?, recognizers: [RecognizerSpec]) {
        template.attach(spec, under: parent, at: position, recognizers: recognizers)
        for l in lanes.indices { lanes[l].attach(spec, under: parent, at: position, recognizers: recognizers) }
    }

    /// Removes region index `index`'s subtree from the template and every lane, without compacting.
    mutating func remove(regionAt index: Int, at time: Timestamp, _ out: inout [EngineOutput]) {
        var ignored: [EngineOutput] = []
        template.detach(regionAt: index, at: time, &ignored)
        for l in lanes.indices { lanes[l].detach(regionAt: index, at: time, &out) }
        mayHaveDetachedLeftovers = true
    }

    /// Removes the region `id` with everything below it and their recognizers. Deadlines due by
    /// `time` fire first; the outputs include a `cancelled` line for every detached gesture that was
    /// in progress and for touch streams whose responder was detached.
    public mutating func detach(region id: String, at time: Timestamp) throws(RegionChangeError) -> [EngineOutput] {
        guard let index = template.tree.indexByID[id] else { throw .unknownRegion(id) }
        guard index > 0 else { throw .rootRegion }
        guard template.tree.nodes[index].role == .plain else { throw .desktopRegion(id) }
        var out = advance(to: time)
        var ignored: [EngineOutput] = []
        template.detach(regionAt: index, at: time, &ignored)
        for l in lanes.indices { lanes[l].detach(regionAt: index, at: time, &out) }
        if let removed = configuration.root.remove(id) {
            let ids = Set(removed.allIDs)
            configuration.recognizers.removeAll { ids.contains($0.region) }
        }
        updateNextDeadline()
        mayHaveDetachedLeftovers = true
        compactIfIdle()
        return out
    }

    /// Changes a region's frame, visibility or interactivity for touches that go down from now on.
    public mutating func updateRegion(_ id: String, frame: RegionFrame? = nil, hidden: Bool? = nil,
                                      interactive: Bool? = nil) throws(RegionChangeError) {
        guard let index = template.tree.indexByID[id] else { throw .unknownRegion(id) }
        guard index > 0 || frame == nil else { throw .rootRegion }
        guard template.tree.nodes[index].role == .plain else { throw .desktopRegion(id) }
        template.updateRegion(index, frame: frame, hidden: hidden, interactive: interactive)
        for l in lanes.indices { lanes[l].updateRegion(index, frame: frame, hidden: hidden, interactive: interactive) }
        _ = configuration.root.update(id) { region in
            if let frame { region.frame = frame }
            if let hidden { region.hidden = hidden }
            if let interactive { region.interactionEnabled = interactive }
        }
    }

    /// The regions a socket client subscribed to the touches of: touch consumers in the responder
    /// chain (with `publish-touches`). Applies to touches that go down from now on.
    public mutating func setTouchSubscribers(_ ids: Set<String>) {
        template.tree.setSubscribers(ids)
        for l in lanes.indices { lanes[l].tree.setSubscribers(ids) }
    }

    /// Whether a region with this id exists now.
    public func hasRegion(_ id: String) -> Bool { template.tree.indexByID[id] != nil }

    /// Whether detached regions or recognizers are still held (as unreachable leftovers).
    public var hasDetachedLeftovers: Bool {
        template.slots.count != configuration.recognizers.count + desktopRecognizerCount
            || template.tree.indexByID.count != template.tree.nodes.count
    }

    /// Rebuilds the engine from `configuration` when detached leftovers exist and no device has a
    /// touch down or a recognizer waiting: the same behaviour with nothing left over. True if rebuilt.
    /// The daemon asks at every loop turn: inlinable, so the usual answer (nothing detached) costs
    /// the caller no call.
    @discardableResult @inlinable
    public mutating func compactIfIdle() -> Bool {
        guard mayHaveDetachedLeftovers else { return false }
        return compactIfIdleNow()
    }

    @usableFromInline
    mutating func compactIfIdleNow() -> Bool {
        guard hasDetachedLeftovers else {
            mayHaveDetachedLeftovers = false
            return false
        }
        guard lanes.allSatisfy(\.isIdle) else { return false }
        let subscribers = template.tree.subscriberIDs
        var fresh = GestureEngine(configuration: configuration)
        fresh.explains = explains
        fresh.restoreDesktop(desktopState)
        fresh.setTouchSubscribers(subscribers)
        self = fresh
        return true
    }
}

extension RegionSpec {
    /// This region's id and every descendant's, depth-first.
    public var allIDs: [String] { [id] + children.flatMap(\.allIDs) }

    /// Appends `child` as the last child of the region `parent`; false when there is none.
    public mutating func insert(_ child: RegionSpec, under parent: String) -> Bool {
        if id == parent {
            children.append(child)
            return true
        }
        for i in children.indices where children[i].insert(child, under: parent) { return true }
        return false
    }

    /// Removes the descendant `target` and returns it.
    public mutating func remove(_ target: String) -> RegionSpec? {
        if let i = children.firstIndex(where: { $0.id == target }) { return children.remove(at: i) }
        for i in children.indices {
            if let found = children[i].remove(target) { return found }
        }
        return nil
    }

    /// Applies `change` to the region `target`; false when there is none.
    public mutating func update(_ target: String, _ change: (inout RegionSpec) -> Void) -> Bool {
        if id == target {
            change(&self)
            return true
        }
        for i in children.indices where children[i].update(target, change) { return true }
        return false
    }
}

extension GestureEngine {
    /// Recognizers the engine holds, detached leftovers included (what the arbitration scans).
    public var recognizerSlotCount: Int { template.slots.count }
}
