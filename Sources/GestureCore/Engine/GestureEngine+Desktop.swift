/// What the engine keeps of the desktop (`GestureEngine.setDesktop`).
struct DesktopState: Sendable {
    struct PlacedWindow: Sendable {
        var output: String
        /// The window rule it was placed with (index in `windowRules`), nil when none matched.
        var rule: Int?
        var recognizers: Int
    }

    var desktop: Desktop?
    /// Output names that have a region, bottom-most first.
    var outputs: [String] = []
    /// Window id → how its region was made.
    var placed: [String: PlacedWindow] = [:]
    /// Recognizers the window regions hold (so detached leftovers are told from live ones).
    var recognizerCount = 0
    /// Outputs given to devices by the config (`surfaces[].output`), by device id.
    var deviceOutputs: [Int: String] = [:]

    /// The output touchscreen `id`'s touches hit the regions of, or nil.
    func output(forDevice id: Int) -> String? {
        guard let desktop else { return nil }
        if let name = deviceOutputs[id] { return desktop.output(named: name) == nil ? nil : name }
        return desktop.defaultTouchscreenOutput
    }
}

/// The desktop as the view tree (docs/desktop.md): under the root, below the config's own children,
/// one region per output (`output:NAME`, the whole surface); under each, one region per window
/// (`window:ID`, its frame as a share of the output), bottom-most first, so a touch where windows
/// overlap hits the one on top. A window's region keeps its gestures, carries the gestures of the
/// first window rule that matches it (each window its own instances) and disables the screen
/// gestures the rule lists. A window no rule matches is a region all the same, with no gestures:
/// it shields the windows below it.
///
/// A new snapshot changes only what changed: a window still there with the same output and rule
/// keeps its region and recognizers (a gesture in progress on it goes on; its frame and stacking
/// follow the snapshot for touches that go down from now on); a window gone, moved to another
/// output or matched by another rule loses its region as a detached one does (a gesture in
/// progress is cancelled).
///
/// A touchscreen lane hits only the regions of the output it is bound to (`surfaces[].output`, by
/// default `Desktop.defaultTouchscreenOutput`); a touchpad touch that hits only the root is bound to
/// the focused window (or the one under the pointer, `TouchpadWindow.pointer`).
extension GestureEngine {
    /// The desktop the regions follow now, nil without a bridge.
    public var desktop: Desktop? { desktopState.desktop }

    /// Makes the desktop's outputs and windows the regions under the root (nil: none, as without a
    /// bridge). Deadlines due by `time` fire first; the outputs include a `cancelled` line for every
    /// gesture in progress on a window region that went.
    public mutating func setDesktop(_ desktop: Desktop?, at time: Timestamp) -> [EngineOutput] {
        var out = advance(to: time)
        applyDesktop(desktop, at: time, &out)
        updateNextDeadline()
        compactIfIdle()
        return out
    }

    /// The output a device's touches are bound to: the one the config names for it, or by default
    /// (nil: none given).
    public mutating func setOutput(_ name: String?, forDevice id: Int) {
        desktopState.deviceOutputs[id] = name
        for l in lanes.indices where laneDevices[l] == id { bindDesktop(lane: l) }
    }

    /// The output touchscreen `id`'s touches hit the regions of, or nil.
    public func output(forDevice id: Int) -> String? { desktopState.output(forDevice: id) }

    /// The hit-test chain at `point` (logical pixels) of output `name`, windows included; nil when
    /// the desktop has no such output.
    public func hitTest(output name: String, at point: Point) -> [String]? {
        guard let o = desktopState.desktop?.output(named: name),
              let index = template.tree.indexByID[DesktopRegions.outputPrefix + name] else { return nil }
        return template.hitChain(point, surfaceSize: Point(x: o.width, y: o.height), deviceKind: .touchscreen,
                                 output: index)
    }

    /// The window a region follows and the id of the rule it matched, when `region` is a window's.
    public func window(forRegion region: String) -> (window: DesktopWindow, rule: String?)? {
        guard region.hasPrefix(DesktopRegions.windowPrefix), let desktop = desktopState.desktop else { return nil }
        let id = String(region.dropFirst(DesktopRegions.windowPrefix.count))
        guard let w = desktop.windows.first(where: { $0.id == id }) else { return nil }
        let rule = desktopState.placed[id]?.rule.map { configuration.windowRules[$0].id }
        return (w, rule)
    }

    /// How lines name the windows of the desktop now, with the rules they match (empty without a
    /// desktop): the line writers look a line's region up in it when they write the line.
    public var windowNames: WindowNames { WindowNames(desktop: desktopState.desktop, rules: configuration.windowRules) }

    /// Recognizers held by window regions now.
    var desktopRecognizerCount: Int { desktopState.recognizerCount }

    /// After a rebuild (`compactIfIdle`): the desktop of the engine replaced, placed again.
    mutating func restoreDesktop(_ state: DesktopState) {
        desktopState.deviceOutputs = state.deviceOutputs
        var ignored: [EngineOutput] = []
        applyDesktop(state.desktop, at: template.now, &ignored)
    }

    mutating func applyDesktop(_ new: Desktop?, at time: Timestamp, _ out: inout [EngineOutput]) {
        let rules = configuration.windowRules
        let kept = Set(new?.outputs.map(\.name) ?? [])
        for name in desktopState.outputs where !kept.contains(name) {
            if let i = template.tree.indexByID[DesktopRegions.outputPrefix + name] { remove(regionAt: i, at: time, &out) }
            for (id, placed) in desktopState.placed where placed.output == name {
                desktopState.recognizerCount -= placed.recognizers
                desktopState.placed[id] = nil
            }
        }
        desktopState.outputs.removeAll { !kept.contains($0) }
        var wanted: [String: (window: DesktopWindow, rule: Int?)] = [:]
        for w in new?.windows ?? [] where wanted[w.id] == nil && kept.contains(w.output) {
            wanted[w.id] = (w, WindowRule.firstMatch(rules, for: w))
        }
        for (id, placed) in desktopState.placed {
            if let w = wanted[id], w.window.output == placed.output, w.rule == placed.rule { continue }
            if let i = template.tree.indexByID[DesktopRegions.windowPrefix + id] { remove(regionAt: i, at: time, &out) }
            desktopState.recognizerCount -= placed.recognizers
            desktopState.placed[id] = nil
        }
        desktopState.desktop = new
        if let new {
            for o in new.outputs where !desktopState.outputs.contains(o.name) {
                var spec = RegionSpec(id: DesktopRegions.outputPrefix + o.name)
                spec.role = .output
                insert(spec, under: 0, at: desktopState.outputs.count, recognizers: [])
                desktopState.outputs.append(o.name)
            }
            for o in new.outputs { placeWindows(of: o, new, rules) }
        }
        for l in lanes.indices { bindDesktop(lane: l) }
    }

    /// Places (or moves) the windows of output `o` and stacks them.
    private mutating func placeWindows(of o: DesktopOutput, _ desktop: Desktop, _ rules: [WindowRule]) {
        guard let parent = template.tree.indexByID[DesktopRegions.outputPrefix + o.name] else { return }
        var order: [Int] = []
        for w in desktop.windows(on: o.name) {
            let frame = Self.frame(of: w, on: o)
            if let index = template.tree.indexByID[w.regionID] {
                if template.tree.nodes[index].frame != frame {
                    template.updateRegion(index, frame: frame, hidden: nil, interactive: nil)
                    for l in lanes.indices { lanes[l].updateRegion(index, frame: frame, hidden: nil, interactive: nil) }
                }
            } else {
                let rule = WindowRule.firstMatch(rules, for: w)
                var spec = RegionSpec(id: w.regionID, frame: frame)
                spec.role = .window
                spec.keepsGestures = true
                spec.disables = rule.map { rules[$0].disable } ?? []
                var recognizers: [RecognizerSpec] = []
                if let rule {
                    for g in rules[rule].gestures {
                        var g = g
                        g.region = w.regionID
                        recognizers.append(g)
                    }
                }
                insert(spec, under: parent, at: nil, recognizers: recognizers)
                desktopState.placed[w.id] = .init(output: o.name, rule: rule, recognizers: recognizers.count)
                desktopState.recognizerCount += recognizers.count
            }
            if let index = template.tree.indexByID[w.regionID], !order.contains(index) { order.append(index) }
        }
        if template.tree.nodes[parent].children != order {
            template.tree.nodes[parent].children = order
            template.layouts.removeAll()
            for l in lanes.indices {
                lanes[l].tree.nodes[parent].children = order
                lanes[l].layouts.removeAll()
            }
        }
    }

    /// A window's frame as shares of its output, so it lands right whatever the touch surface's units.
    public static func frame(of w: DesktopWindow, on o: DesktopOutput) -> RegionFrame {
        func share(_ v: Double, _ of: Double) -> Length { .percent(of > 0 ? v / of * 100 : 0) }
        return RegionFrame(x: share(w.x, o.width), y: share(w.y, o.height),
                           width: share(w.width, o.width), height: share(w.height, o.height))
    }

    /// Binds lane `l` to its output (touchscreens) or window (touchpads).
    mutating func bindDesktop(lane l: Int) {
        (lanes[l].boundOutput, lanes[l].touchpadWindow) = Self.desktopBinding(
            desktopState, template.tree, configuration.touchpadWindow, kind: lanes[l].deviceKind, device: laneDevices[l])
    }

    /// The region index of the output a lane of device `device` hits (touchscreens), and of the
    /// window its touches go to when they hit only the root (touchpads); -1: none. Static, so the
    /// engine's frame path can ask it without a call on the engine.
    @inline(never)
    static func desktopBinding(_ state: DesktopState, _ tree: RegionTree, _ touchpadWindow: TouchpadWindow,
                               kind: DeviceKind, device: Int) -> (output: Int, touchpadWindow: Int) {
        guard let desktop = state.desktop else { return (-1, -1) }
        if kind == .touchpad {
            var window = desktop.windows.first { $0.focused }
            if touchpadWindow == .pointer, let p = desktop.pointer,
               let under = desktop.window(at: Point(x: p.x, y: p.y), on: p.output) {
                window = under
            }
            return (-1, window.flatMap { tree.indexByID[$0.regionID] } ?? -1)
        }
        if let name = state.output(forDevice: device), let index = tree.indexByID[DesktopRegions.outputPrefix + name] {
            return (index, -1)
        }
        return (-1, -1)
    }
}
