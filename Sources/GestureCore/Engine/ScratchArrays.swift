extension Array {
    /// Empties a scratch array and keeps its storage; an array already empty is left alone (the
    /// standard `removeAll(keepingCapacity:)` costs a call into the generic range replacement even then).
    @inline(__always)
    mutating func clearKeepingCapacity() {
        if !isEmpty { removeAll(keepingCapacity: true) }
    }
}
