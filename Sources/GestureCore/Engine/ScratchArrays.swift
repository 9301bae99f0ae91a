extension Array {
    /// Empties a scratch array and keeps its storage; an array already empty is left alone (the
    /// standard `removeAll(keepingCapacity:)` costs a call into the generic range replacement even then).
    @inline(__always)
    mutating func clearKeepingCapacity() {
        // A few elements (the usual scratch array) are cheaper to drop one by one than through the
        // generic range replacement `removeAll(keepingCapacity:)` calls.
        if count <= 4 {
            while !isEmpty { removeLast() }
        } else {
            removeAll(keepingCapacity: true)
        }
    }
}

/// A list of plain values rebuilt every frame (a frame's contacts, proposals, seen records). Its
/// storage is reused: `removeAll` keeps the entries and `append` overwrites them in place, so a frame
/// costs one uniqueness check of the storage where an `Array` emptied and refilled costs one to empty
/// it and one more at each appending call site (on the emulated CPU every call site run after a
/// wake-up costs about a microsecond: docs/performance.md). Plain values only (`BitwiseCopyable`): an
/// entry left past `count` holds no reference alive.
struct ScratchList<Element: BitwiseCopyable & Sendable>: Sendable {
    private var storage: [Element] = []
    private(set) var count = 0

    init(capacity: Int = 16) { storage.reserveCapacity(capacity) }

    var indices: Range<Int> { 0..<count }
    var isEmpty: Bool { count == 0 }

    subscript(index: Int) -> Element {
        precondition(index >= 0 && index < count, "scratch list entry \(index) of \(count)")
        return storage[index]
    }

    @inline(__always)
    mutating func removeAll() { count = 0 }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count < storage.count { storage[count] = element } else { storage.append(element) }
        count += 1
    }
}
