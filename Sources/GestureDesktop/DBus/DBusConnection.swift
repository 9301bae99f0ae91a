#if canImport(Glibc)
import Glibc
#endif
import CLibdbus

/// A private connection to the session bus through libdbus-1, driven by the bridge's own poll loop
/// (no main loop, no threads): method calls block for their reply (at most `requestTimeoutMicroseconds`),
/// signals and incoming method calls are queued and taken with `takeMessages()` after the descriptor
/// is readable or a call returned (libdbus queues what it meets while waiting for a reply).
final class DBusConnection {
    /// A message taken off the connection: a signal, or a method call addressed to a name this
    /// connection owns.
    struct Message {
        enum Kind: Equatable { case signal, methodCall, other }
        var kind: Kind
        var sender: String
        var path: String
        var interface: String
        var member: String
        /// The arguments, as `DBusDecoding.json` renders them.
        var arguments: [DesktopJSON]
        /// For a method call: the message, to reply to (released with the message).
        fileprivate var raw: OpaquePointer?
    }

    private var connection: OpaquePointer?
    /// Where it connected, for messages.
    let target: String

    /// `address`: a D-Bus address; nil for the session bus as libdbus finds it
    /// ($DBUS_SESSION_BUS_ADDRESS, else $XDG_RUNTIME_DIR/bus).
    init(address: String?) throws(DesktopSourceError) {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let opened: OpaquePointer?
        if let address {
            target = address
            opened = dbus_connection_open_private(address, &error)
            if let opened, dbus_bus_register(opened, &error) == 0 {
                dbus_connection_close(opened)
                dbus_connection_unref(opened)
                throw DesktopSourceError("the session bus \(address): \(Self.text(error))")
            }
        } else {
            target = "the session bus"
            opened = dbus_bus_get_private(DBUS_BUS_SESSION, &error)
        }
        guard let opened else { throw DesktopSourceError("cannot connect to \(target): \(Self.text(error))") }
        dbus_connection_set_exit_on_disconnect(opened, 0)
        connection = opened
    }

    deinit { close() }

    func close() {
        guard let connection else { return }
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
        self.connection = nil
    }

    var isConnected: Bool { connection.map { dbus_connection_get_is_connected($0) != 0 } ?? false }

    /// The socket to poll for readability.
    var descriptor: Int32? {
        guard let connection else { return nil }
        var fd: Int32 = -1
        return dbus_connection_get_unix_fd(connection, &fd) != 0 ? fd : nil
    }

    static func text(_ error: DBusError) -> String {
        guard dbus_error_is_set([error]) != 0 else { return "failed" }
        let name = error.name.map { String(cString: $0) } ?? ""
        let message = error.message.map { String(cString: $0) } ?? ""
        return name.isEmpty ? message : "\(message) (\(name))"
    }

    /// An argument of a method call.
    enum Argument {
        case string(String)
        case uint32(UInt32)
        case int32(Int32)
        case bool(Bool)
    }

    struct CallFailure: Error, CustomStringConvertible {
        /// The D-Bus error name (org.freedesktop.DBus.Error.ServiceUnknown, …), empty when the call
        /// never reached the bus.
        var name: String
        var description: String
    }

    /// Calls a method and waits for its reply: the reply's arguments.
    func call(_ destination: String, _ path: String, _ interface: String, _ method: String,
              _ arguments: [Argument] = [], timeoutMicroseconds: Int64 = requestTimeoutMicroseconds) throws(CallFailure) -> [DesktopJSON] {
        guard let connection, let message = dbus_message_new_method_call(destination, path, interface, method) else {
            throw CallFailure(name: "", description: "\(destination) \(path) \(interface).\(method): not connected to \(target)")
        }
        defer { dbus_message_unref(message) }
        Self.append(arguments, to: message)
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let timeout = Int32(clamping: timeoutMicroseconds / 1000)
        guard let reply = dbus_connection_send_with_reply_and_block(connection, message, timeout, &error) else {
            throw CallFailure(name: error.name.map { String(cString: $0) } ?? "",
                              description: "\(destination) \(interface).\(method): \(Self.text(error))")
        }
        defer { dbus_message_unref(reply) }
        return DBusDecoding.arguments(of: reply)
    }

    private static func append(_ arguments: [Argument], to message: OpaquePointer) {
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(message, &iterator)
        for argument in arguments {
            switch argument {
            case .string(let value):
                value.withCString { pointer in
                    var p: UnsafePointer<CChar>? = pointer
                    _ = dbus_message_iter_append_basic(&iterator, Int32(UInt8(ascii: "s")), &p)
                }
            case .uint32(var value): _ = dbus_message_iter_append_basic(&iterator, Int32(UInt8(ascii: "u")), &value)
            case .int32(var value): _ = dbus_message_iter_append_basic(&iterator, Int32(UInt8(ascii: "i")), &value)
            case .bool(let value):
                var b: dbus_bool_t = value ? 1 : 0
                _ = dbus_message_iter_append_basic(&iterator, Int32(UInt8(ascii: "b")), &b)
            }
        }
    }

    /// Asks the bus to route the signals a match rule describes to this connection.
    func addMatch(_ rule: String) throws(DesktopSourceError) {
        guard let connection else { throw DesktopSourceError("\(target): not connected") }
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        dbus_bus_add_match(connection, rule, &error)
        if dbus_error_is_set(&error) != 0 { throw DesktopSourceError("\(target): match \(rule): \(Self.text(error))") }
    }

    /// Whether a bus name has an owner now.
    func hasOwner(_ name: String) -> Bool {
        guard let connection else { return false }
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        return dbus_bus_name_has_owner(connection, name, &error) != 0
    }

    /// Takes a well-known name (replacing nobody: a name someone else owns is an error).
    func requestName(_ name: String) throws(DesktopSourceError) {
        guard let connection else { throw DesktopSourceError("\(target): not connected") }
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let result = dbus_bus_request_name(connection, name, UInt32(DBUS_NAME_FLAG_DO_NOT_QUEUE), &error)
        guard result == DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER || result == DBUS_REQUEST_NAME_REPLY_ALREADY_OWNER else {
            throw DesktopSourceError("\(target): cannot own \(name): \(dbus_error_is_set(&error) != 0 ? Self.text(error) : "another program owns it")")
        }
    }

    /// Reads what the socket holds (without blocking) and returns every complete message queued,
    /// signals and method calls; replies to method calls this connection did not wait for are
    /// dropped. Throws when the bus closed the connection.
    func takeMessages(read: Bool) throws(DesktopSourceError) -> [Message] {
        guard let connection else { throw DesktopSourceError("\(target): not connected") }
        if read { _ = dbus_connection_read_write(connection, 0) }
        var messages: [Message] = []
        while let raw = dbus_connection_pop_message(connection) {
            defer { dbus_message_unref(raw) }
            let kind: Message.Kind
            switch dbus_message_get_type(raw) {
            case DBUS_MESSAGE_TYPE_SIGNAL: kind = .signal
            case DBUS_MESSAGE_TYPE_METHOD_CALL: kind = .methodCall
            default: kind = .other
            }
            if kind == .signal, dbus_message_is_signal(raw, DBUS_INTERFACE_LOCAL, "Disconnected") != 0 {
                throw DesktopSourceError("\(target): the bus closed the connection")
            }
            guard kind != .other else { continue }
            func string(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
            var message = Message(kind: kind, sender: string(dbus_message_get_sender(raw)), path: string(dbus_message_get_path(raw)),
                                  interface: string(dbus_message_get_interface(raw)), member: string(dbus_message_get_member(raw)),
                                  arguments: DBusDecoding.arguments(of: raw))
            if kind == .methodCall {
                reply(to: raw)
                message.raw = nil
            }
            messages.append(message)
        }
        if dbus_connection_get_is_connected(connection) == 0 { throw DesktopSourceError("\(target): the bus closed the connection") }
        return messages
    }

    /// Whether messages wait in libdbus's queue (read while waiting for a reply).
    var hasQueuedMessages: Bool {
        guard let connection else { return false }
        return dbus_connection_get_dispatch_status(connection) == DBUS_DISPATCH_DATA_REMAINS
    }

    /// An empty reply to a method call, so its caller does not wait for its timeout.
    private func reply(to call: OpaquePointer) {
        guard let connection, dbus_message_get_no_reply(call) == 0, let reply = dbus_message_new_method_return(call) else { return }
        _ = dbus_connection_send(connection, reply, nil)
        dbus_message_unref(reply)
        dbus_connection_flush(connection)
    }
}

extension DBusConnection.Message {
    /// A message as it would be taken off the bus (for the sources' tests: no connection behind it).
    init(_ kind: Kind, member: String, arguments: [DesktopJSON] = [], sender: String = ":1.1", path: String = "/",
         interface: String = "") {
        self.init(kind: kind, sender: sender, path: path, interface: interface, member: member, arguments: arguments, raw: nil)
    }
}
