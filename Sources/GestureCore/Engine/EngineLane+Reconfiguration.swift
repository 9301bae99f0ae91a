/// Run-time changes to one lane (see `GestureEngine+Reconfiguration.swift`). Existing region and
/// recognizer indices never change, so touches bound at touch-down keep their region and the
/// recognizers they were delivered to; only new touches see a change.
extension EngineLane {
    /// Appends `spec` as the topmost child of region `parent` with `recognizers` on its regions.
    /// References (`require-to-fail`, `simultaneous-with`) resolve among `recognizers` only.
    mutating func attach(_ spec: RegionSpec, under parent: Int, at position: Int? = nil,
                         recognizers specs: [RecognizerSpec]) {
        let added = tree.append(spec, under: parent, at: position)
        let first = slots.count
        for spec in specs {
            let region = spec.enabled ? tree.indexByID[spec.region] : nil
            slots.append(Self.makeSlot(spec, region: region))
            logics.append(spec.kind, spec.parameters)
            applyDeviceKind(slots.count - 1)
            frameTouches.append([])
            marks.append(0)
            if let region { tree.nodes[region].recognizers.append(slots.count - 1) }
        }
        let n = slots.count
        if n != first {
            var matrix = [Bool](repeating: false, count: n * n)
            for i in 0..<first {
                for j in 0..<first where simultaneous[i * first + j] { matrix[i * n + j] = true }
            }
            var ids: [String: Int] = [:]
            for r in first..<n where ids[slots[r].id] == nil { ids[slots[r].id] = r }
            Self.relate(specs, from: first, ids: ids, slots: &slots, simultaneous: &matrix)
            simultaneous = matrix
        }
        let singleTaps = slots.map(\.isSingleTap)
        let names = slots.map(\.id)
        for i in added { tree.setDelivery(of: i, isSingleTap: { singleTaps[$0] }, name: { names[$0] }) }
        layouts.removeAll()
    }

    /// Resolves the references of `specs`, the recognizers of slots `first`... (`ids`: which slot an id
    /// names): each `simultaneous-with` pair is marked both ways in `simultaneous` (slots × slots), each
    /// `require-to-fail` links the two slots.
    static func relate(_ specs: [RecognizerSpec], from first: Int, ids: [String: Int], slots: inout [Slot],
                       simultaneous: inout [Bool]) {
        let n = slots.count
        for (k, spec) in specs.enumerated() {
            let i = first + k
            for other in spec.simultaneousWith {
                guard let j = ids[other] else { continue }
                simultaneous[i * n + j] = true
                simultaneous[j * n + i] = true
            }
            for other in spec.requireToFail {
                guard let j = ids[other], j != i else { continue }
                slots[i].requires.append(j)
                slots[j].requiredBy.append(i)
            }
        }
    }

    /// Removes the subtree at region `root` and its recognizers. A recognizer in progress is
    /// cancelled (one still deciding fails), so no gesture is left open; touches bound to the removed
    /// regions keep their region and go on to the ancestors' recognizers; a touch stream whose
    /// responder was removed gets `cancelled`.
    mutating func detach(regionAt root: Int, at time: Timestamp, _ out: inout [EngineOutput]) {
        let removed = Set(tree.subtree(root))
        if time > now { now = time }
        var dead = Set<Int>()
        for r in slots.indices where slots[r].region >= 0 && removed.contains(slots[r].region) { dead.insert(r) }
        for r in dead.sorted() {
            let state = slots[r].state
            if state.isInProgress {
                transition(r, .cancel, .regionDetached, &out)
            } else if state == .possible && !slots[r].touches.isEmpty {
                transition(r, .fail, .regionDetached, &out)
            }
            if slots[r].state != .possible { transition(r, .reset, .regionDetached, &out) }
            if slots[r].pending != nil {
                slots[r].pending = nil
                pendingCount -= 1
            }
            slots[r].touches.removeAll()
            slots[r].active = 0
            slots[r].device = nil
            slots[r].pendingEnded = false
            slots[r].settleUntil = nil
            slots[r].region = -1
            logics.reset(r)
        }
        let removedIDs = Set(removed.map { tree.nodes[$0].id })
        for ri in records.indices {
            if !dead.isEmpty { records[ri].recognizers.removeAll(where: dead.contains) }
            guard let responder = records[ri].responderID, removedIDs.contains(responder), !records[ri].closed else { continue }
            if records[ri].beganDelivered { out.append(touchEvent(ri, .cancelled, at: records[ri].lastLocation)) }
            records[ri].closed = true
            records[ri].beganHeld = false
            records[ri].endedHeld = false
        }
        _ = tree.remove(subtree: root)
        layouts.removeAll()
        recomputeDeadline()
    }

    /// New frame, visibility or interactivity of a region, for touches that go down from now on.
    mutating func updateRegion(_ index: Int, frame: RegionFrame?, hidden: Bool?, interactive: Bool?) {
        if let frame { tree.nodes[index].frame = frame }
        if let hidden { tree.nodes[index].hidden = hidden }
        if let interactive { tree.nodes[index].interactionEnabled = interactive }
        layouts.removeAll()
    }
}
