/// A window keeps what it keeps (docs/recognizers.md): for a touch hit-tested into a keeping
/// region K (a window region, or the root of a client's attachment), every recognizer on K's
/// subtree has priority over the recognizers of K's ancestors whose finger ranges overlap its own.
/// The ancestor's success waits for it to fail, as if the ancestor listed it in `require-to-fail`
/// (UIKit: `gestureRecognizer(_:shouldRequireFailureOf:)` answering true for the subview's
/// recognizer). An ancestor edge pan is exempt, the other way round: the window's recognizer waits
/// for it, so the screen's edge swipes still start from the edge.
///
/// The waits are taken when a touch is bound (`Slot.keptWaits`, per sequence) from the hit region's
/// delivery bands (`RegionTree.Node.deliveryBands`); regions that keep nothing have no bands, and
/// nothing here runs for them.
extension EngineLane {
    /// Adds the waits the touch just bound to region `region` brings to the recognizers it was
    /// delivered to (`delivered`: the record's list when it was filtered, else the region's).
    mutating func bindKeptWaits(_ region: Int, _ delivered: [Int]?) {
        let list = tree.nodes[region].delivery
        let bands = tree.nodes[region].deliveryBands
        for a in list.indices {
            let r = list[a]
            if let delivered, !delivered.contains(r) { continue }
            for b in list.indices where bands[b] != bands[a] {
                let q = list[b]
                if let delivered, !delivered.contains(q) { continue }
                guard q != r, !slots[r].keptWaits.contains(q) else { continue }
                let waits = bands[a] > bands[b]
                    // r is an ancestor's: it waits for the kept q, unless r is an edge pan.
                    ? slots[r].kind != .edgePan && slots[r].fingerRange.overlaps(slots[q].fingerRange)
                    // r is kept: it waits for an ancestor's edge pan that holds its touch.
                    : slots[q].kind == .edgePan
                if waits { slots[r].keptWaits.append(q) }
            }
        }
    }

    /// Explains why `r`'s success is held: the kept recognizer it waits for.
    mutating func explainKeptWait(_ r: Int, _ out: inout [EngineOutput]) {
        guard let q = slots[r].keptWaits.first(where: { slots[$0].state == .possible && !slots[$0].touches.isEmpty })
        else { return }
        let region = slots[q].region >= 0 ? tree.nodes[slots[q].region] : nil
        let text: String
        if slots[q].kind == .edgePan && slots[r].kind != .edgePan && (region?.keeps ?? false) == false {
            text = "waiting for \(slots[q].regionID)'s \(slots[q].id) to fail (the screen's edge swipes start from the edge)"
        } else {
            let who = region?.role == .window ? "the window" : "the region"
            text = "waiting for \(slots[q].regionID)'s \(slots[q].id) to fail (\(who) keeps its gestures)"
        }
        out.append(.explain(ExplainEvent(gesture: slots[r].id, region: slots[r].regionID, from: .possible, to: .possible,
                                         time: now, reason: text)))
    }
}
