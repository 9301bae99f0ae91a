/// Run-time changes to the region tree: subtrees attached and detached by socket clients, frames
/// moved, touch subscribers. Indices of existing nodes never change (touches and recognizers refer
/// to them): an attached subtree is appended, a detached one is unlinked from its parent and left
/// as an unreachable tombstone until the engine is rebuilt (`GestureEngine.compactIfIdle`).
extension RegionTree {
    /// Appends `spec` as the last (topmost) child of `parent`, or at `position` among its
    /// children; returns the new nodes' indices. Redirects resolve among every live id.
    mutating func append(_ spec: RegionSpec, under parent: Int, at position: Int? = nil) -> Range<Int> {
        let start = nodes.count
        insertion = position
        add(spec, parent: parent)
        for i in start..<nodes.count {
            if let target = redirectIDs[i], let t = indexByID[target], t != i { nodes[i].redirect = t }
        }
        redirectIDs = [:]
        return start..<nodes.count
    }

    /// `root` and every node below it (depth-first).
    func subtree(_ root: Int) -> [Int] {
        var out = [root]
        var k = 0
        while k < out.count {
            out.append(contentsOf: nodes[out[k]].children)
            k += 1
        }
        return out
    }

    /// Unlinks the subtree at `root` (never the tree's root): it is no longer hit, its ids are free.
    /// Returns the removed indices.
    mutating func remove(subtree root: Int) -> [Int] {
        guard root > 0 else { return [] }
        let removed = subtree(root)
        let parent = nodes[root].parent
        if parent >= 0 { nodes[parent].children.removeAll { $0 == root } }
        for i in removed {
            if indexByID[nodes[i].id] == i { indexByID[nodes[i].id] = nil }
            nodes[i].hidden = true
            nodes[i].recognizers = []
            nodes[i].delivery = []
            nodes[i].deliveryBands = []
            nodes[i].redirect = nil
        }
        // Live regions redirecting into the removed subtree hit themselves again.
        let gone = Set(removed)
        for i in nodes.indices where nodes[i].redirect.map(gone.contains) == true { nodes[i].redirect = nil }
        return removed
    }

    /// Nodes reachable from the root (tombstones excluded).
    var liveCount: Int { subtree(0).count }

    /// The responder chain for touch streams: the first region from `region` up to the root whose
    /// touches have a consumer (`publish-touches`, or a client subscribed to them), or nil.
    func responder(for region: Int) -> Int? {
        var i = region
        while i >= 0 {
            if nodes[i].publishesTouches || nodes[i].hasSubscriber { return i }
            i = nodes[i].parent
        }
        return nil
    }

    /// Marks exactly the regions with these ids as having a touch subscriber; `"*"` (a client
    /// subscribed to every touch) makes no region a consumer but has every touch streamed
    /// (`streamsEveryTouch`).
    mutating func setSubscribers(_ ids: Set<String>) {
        for i in nodes.indices { nodes[i].hasSubscriber = ids.contains(nodes[i].id) }
        streamsEveryTouch = ids.contains("*")
    }

    /// Ids of the regions with a touch subscriber (and `"*"` when every touch is streamed).
    var subscriberIDs: Set<String> {
        var ids = Set(nodes.indices.lazy.filter { self.nodes[$0].hasSubscriber }.map { self.nodes[$0].id })
        if streamsEveryTouch { ids.insert("*") }
        return ids
    }
}
