import GesturePosix

/// Values by file descriptor, in an array indexed by the descriptor's number: the loop looks up the
/// device behind a ready fd once per input frame, and descriptors are small, dense numbers, so no
/// hashing is needed.
struct DescriptorTable<Value> {
    private var slots: [Value?] = []

    subscript(fd: FileDescriptor) -> Value? {
        get {
            let i = Int(fd.rawValue)
            return i >= 0 && i < slots.count ? slots[i] : nil
        }
        set {
            let i = Int(fd.rawValue)
            precondition(i >= 0, "a negative file descriptor in the descriptor table")
            if i >= slots.count {
                guard newValue != nil else { return }
                slots.append(contentsOf: repeatElement(nil, count: i + 1 - slots.count))
            }
            slots[i] = newValue
        }
    }

    mutating func removeAll() { slots.removeAll() }
}
