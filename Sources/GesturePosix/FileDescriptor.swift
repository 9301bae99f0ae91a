/// An open file descriptor owned by gestured. A thin wrapper so descriptors are not confused with
/// other integers (counts, ids); `rawValue` is the C value.
public struct FileDescriptor: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public var description: String { "fd \(rawValue)" }
}
