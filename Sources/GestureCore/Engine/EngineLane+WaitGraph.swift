/// The waits between recognizers as a graph, for the engine's invariant that no recognizer waits for
/// one that waits for it (docs/recognizers.md, "Arbitration"; checked by the tests, never on the
/// per-frame path). An edge r → q means r cannot succeed before q decides: r's success is held for q
/// (`require-to-fail`, or a keeping region's recognizer q), or r is a pinch or multi-finger pan still
/// deciding that counts q as a rival (`isContested`). A cycle is a set of recognizers none of which
/// can decide while the fingers are down.
extension EngineLane {
    /// The recognizers of a cycle of waits among those still deciding, by id; nil when there is none.
    func waitCycle() -> [String]? {
        var edges = [[Int]](repeating: [], count: slots.count)
        for r in slots.indices where slots[r].state == .possible && !slots[r].touches.isEmpty {
            if slots[r].pending != nil {
                for q in slots[r].requires + slots[r].keptWaits
                where slots[q].state == .possible && !slots[q].touches.isEmpty { edges[r].append(q) }
            }
            let kind = slots[r].kind
            guard slots[r].pending == nil, slots[r].touches.count >= 2, kind == .pan || kind == .pinch else { continue }
            for o in slots.indices where o != r && slots[o].state == .possible && !slots[o].touches.isEmpty
                && isRival(o, of: r, kind) && !waitsForFailure(o, of: r) { edges[r].append(o) }
        }
        // Mutual rivals are no wait (each decides by its own reading of the motion): a cycle needs a
        // held success on it. For each held edge r → q, is r reachable from q?
        for r in slots.indices where slots[r].pending != nil {
            for q in edges[r] where slots[r].requires.contains(q) || slots[r].keptWaits.contains(q) {
                var parent = [Int](repeating: -2, count: slots.count)
                parent[q] = -1
                var queue = [q]
                var k = 0
                while k < queue.count {
                    let a = queue[k]
                    k += 1
                    if a == r {
                        var cycle: [Int] = []
                        var b = r
                        while b >= 0 { cycle.append(b); b = parent[b] }
                        return cycle.reversed().map { slots[$0].regionID + "/" + slots[$0].id }
                    }
                    for b in edges[a] where parent[b] == -2 {
                        parent[b] = a
                        queue.append(b)
                    }
                }
            }
        }
        return nil
    }
}

extension GestureEngine {
    /// A cycle of waits in any lane (see `EngineLane.waitCycle`), nil when there is none.
    func waitCycle() -> [String]? {
        for l in lanes.indices { if let cycle = lanes[l].waitCycle() { return cycle } }
        return nil
    }
}
