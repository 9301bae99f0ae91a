import GestureCore

/// One device's recorded stream: its description and its events in order.
public struct Recording: Sendable {
    public var description: DeviceDescription
    public var events: [RawEvent]
    /// Things the reader had to guess (no description, inferred ranges...), for stderr.
    public var warnings: [String]
    /// The file the events came from.
    public var source: String

    public init(description: DeviceDescription, events: [RawEvent], warnings: [String] = [], source: String) {
        self.description = description
        self.events = events
        self.warnings = warnings
        self.source = source
    }
}

/// A malformed recording: names the file and line and says what was expected.
public struct RecordingError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    public var line: Int?
    public var message: String
    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }
    /// `file:line: message`
    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}

/// PLACEHOLDER CONTRACT — replaced by the recording parsers.
public enum RecordingLoader {
    /// Loads an evemu file (with or without header; a `<Device>.desc` beside `<Device>.<label>.events` is
    /// found automatically) or a `libinput record` YAML file (one recording per device).
    public static func load(path: String, descriptionPath: String? = nil) throws(RecordingError) -> [Recording] {
        throw RecordingError(file: path, line: nil, message: "recording parsers not implemented yet")
    }
}
