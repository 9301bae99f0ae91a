import CLibdbus

/// A D-Bus message's arguments as JSON values, the way `busctl --json` prints them: numbers and
/// booleans as themselves, strings, object paths and signatures as strings, structs and arrays as
/// arrays, dictionaries as objects (keys as strings), a variant as `{"type": signature, "data": value}`.
/// Captured `busctl --json=short call …` replies are therefore the readers' test transcripts.
enum DBusDecoding {
    /// Nesting beyond this is left out (D-Bus itself allows 64).
    static let maximumDepth = 64

    /// The arguments of a message serialised as the bus carries it (`dbus_message_marshal`'s bytes, a
    /// captured message); nil when libdbus cannot read the bytes as a message.
    static func arguments(ofMarshalled bytes: [UInt8]) -> [DesktopJSON]? {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let message = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { dbus_message_demarshal($0.baseAddress, Int32($0.count), &error) }
        }
        guard let message else { return nil }
        defer { dbus_message_unref(message) }
        return arguments(of: message)
    }

    static func arguments(of message: OpaquePointer) -> [DesktopJSON] {
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(message, &iterator) != 0 else { return [] }
        var values: [DesktopJSON] = []
        repeat {
            values.append(value(&iterator, depth: 0))
        } while dbus_message_iter_next(&iterator) != 0
        return values
    }

    private static func value(_ iterator: inout DBusMessageIter, depth: Int) -> DesktopJSON {
        let type = dbus_message_iter_get_arg_type(&iterator)
        func basic<T: BitwiseCopyable>(_ initial: T) -> T {
            var v = initial
            withUnsafeMutableBytes(of: &v) { dbus_message_iter_get_basic(&iterator, $0.baseAddress) }
            return v
        }
        switch UInt8(truncatingIfNeeded: type) {
        case UInt8(ascii: "y"): return .number(Double(basic(UInt8(0))))
        case UInt8(ascii: "b"): return .bool(basic(dbus_bool_t(0)) != 0)
        case UInt8(ascii: "n"): return .number(Double(basic(Int16(0))))
        case UInt8(ascii: "q"): return .number(Double(basic(UInt16(0))))
        case UInt8(ascii: "i"): return .number(Double(basic(Int32(0))))
        case UInt8(ascii: "u"): return .number(Double(basic(UInt32(0))))
        case UInt8(ascii: "x"): return .number(Double(basic(Int64(0))))
        case UInt8(ascii: "t"): return .number(Double(basic(UInt64(0))))
        case UInt8(ascii: "d"): return .number(basic(Double(0)))
        case UInt8(ascii: "h"): return .number(Double(basic(Int32(0))))
        case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
            var pointer: UnsafePointer<CChar>? = nil
            dbus_message_iter_get_basic(&iterator, &pointer)
            return .string(pointer.map { String(cString: $0) } ?? "")
        case UInt8(ascii: "v"):
            guard depth < maximumDepth else { return .null }
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            let signature = dbus_message_iter_get_signature(&inner)
            defer { dbus_free(signature) }
            return .object([("type", .string(signature.map { String(cString: $0) } ?? "")),
                            ("data", value(&inner, depth: depth + 1))])
        case UInt8(ascii: "a"):
            guard depth < maximumDepth else { return .null }
            let isDictionary = dbus_message_iter_get_element_type(&iterator) == Int32(UInt8(ascii: "e"))
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            var items: [DesktopJSON] = []
            var fields: [(String, DesktopJSON)] = []
            while dbus_message_iter_get_arg_type(&inner) != 0 {  // 0: DBUS_TYPE_INVALID, past the last
                if isDictionary {
                    var entry = DBusMessageIter()
                    dbus_message_iter_recurse(&inner, &entry)
                    let key = value(&entry, depth: depth + 1)
                    dbus_message_iter_next(&entry)
                    let item = value(&entry, depth: depth + 1)
                    let name: String
                    switch key {
                    case .string(let s): name = s
                    case .number(let n): name = n == n.rounded() && abs(n) < 9e15 ? String(Int(n)) : String(n)
                    case .bool(let b): name = String(b)
                    default: name = ""
                    }
                    fields.append((name, item))
                } else {
                    items.append(value(&inner, depth: depth + 1))
                }
                dbus_message_iter_next(&inner)
            }
            return isDictionary ? .object(fields) : .array(items)
        case UInt8(ascii: "r"), UInt8(ascii: "("):
            guard depth < maximumDepth else { return .null }
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            var items: [DesktopJSON] = []
            while dbus_message_iter_get_arg_type(&inner) != 0 {  // 0: DBUS_TYPE_INVALID, past the last
                items.append(value(&inner, depth: depth + 1))
                dbus_message_iter_next(&inner)
            }
            return .array(items)
        default:
            return .null
        }
    }
}
