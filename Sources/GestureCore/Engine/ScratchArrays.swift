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
