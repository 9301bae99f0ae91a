import Synchronization

/// A string kept once for the life of the process and passed around by address, so copying one
/// costs no reference counting. The names every gesture event carries (recognizer, device, region)
/// are of this kind: a frame's events are copied and dropped several times between the recognizer
/// and the socket, and with plain strings each copy was a retain and each drop a release of three
/// buffers (docs/performance.md, "Names without reference counting").
///
/// Equal strings give equal values (one table for the process), so equality and hashing go by
/// address. The table only grows, so what it keeps is bounded by what names can be:
/// - a name `N:rest`, N a number written plainly (the daemon qualifies the ids a client attaches as
///   "client number:id"), is kept as N and the interned `rest`: a client that connects again and
///   attaches the same ids adds nothing;
/// - recognizer and region ids come from the configuration and from clients' attachments, device
///   names from the kernel; a device plugged in again, a config reloaded, reuse their entries;
/// - the daemon refuses attachments that would take the table past `InternedString.limit`
///   (docs/protocol.md, "Regions and gestures of apps").
public struct InternedString: Hashable, Sendable, Comparable, CustomStringConvertible, BitwiseCopyable,
                              ExpressibleByStringLiteral {
    private let storage: Unmanaged<Storage>
    /// N + 1 for a name `N:rest` kept as `rest`; 0 for a name kept whole.
    private let prefix: UInt32

    public init(_ string: String) {
        let (prefix, entry) = Self.split(string)
        storage = Self.table.withLock { $0.intern(entry) }
        self.prefix = prefix
    }
    public init(stringLiteral value: String) { self.init(value) }

    /// The string. Reading it costs a retain of its buffer (and building it, for `N:rest`).
    public var string: String {
        let rest = storage._withUnsafeGuaranteedRef { $0.string }
        return prefix == 0 ? rest : String(prefix - 1) + ":" + rest
    }
    public var description: String { string }

    public static func == (a: Self, b: Self) -> Bool {
        a.storage.toOpaque() == b.storage.toOpaque() && a.prefix == b.prefix
    }
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.toOpaque())
        hasher.combine(prefix)
    }
    /// By the strings (for sorted listings), not by address.
    public static func < (a: Self, b: Self) -> Bool { a.string < b.string }

    public static let empty = InternedString("")

    /// How many strings the table may keep before the daemon refuses names it has not seen (a
    /// client attaching ever new ids): some 100 bytes each, a few MB in all.
    public static let limit = 32_768

    /// Strings the table keeps (a name `N:rest` is kept as `rest`).
    public static var count: Int { table.withLock { $0.entries.count } }

    /// Whether the table keeps `string` itself as an entry (not split: for tests and diagnostics).
    public static func keeps(_ string: String) -> Bool { table.withLock { $0.entries[string] != nil } }

    /// How many of `strings` the table does not keep yet (interning them would add that many).
    public static func unseen(_ strings: some Sequence<String>) -> Int {
        let entries = Set(strings.map { split($0).entry })
        return table.withLock { table in entries.count { table.entries[$0] == nil } }
    }

    /// The prefix and the table's entry of `string`: for `N:rest` with N a plainly written number (no
    /// sign, no leading zero, below 10⁹), N + 1 and rest; for any other string, 0 and the string.
    private static func split(_ string: String) -> (prefix: UInt32, entry: String) {
        let utf8 = string.utf8
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")) else { return (0, string) }
        let digits = utf8[..<colon]
        guard (1...9).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) }),
              digits.count == 1 || digits.first != UInt8(ascii: "0") else { return (0, string) }
        let number = digits.reduce(UInt32(0)) { $0 * 10 + UInt32($1 - 0x30) }
        return (number + 1, String(string[string.index(after: colon)...]))
    }

    /// Immutable once made, and never freed: shared between threads without further care.
    private final class Storage: Sendable {
        let string: String
        init(_ string: String) { self.string = string }
    }

    private struct Table: ~Copyable {
        var entries: [String: Unmanaged<Storage>] = [:]

        mutating func intern(_ string: String) -> Unmanaged<Storage> {
            if let found = entries[string] { return found }
            let made = Unmanaged.passRetained(Storage(string))  // the one reference, never released
            entries[string] = made
            return made
        }
    }

    private static let table = Mutex(Table())
}
