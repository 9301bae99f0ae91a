import GestureCore
import GestureConfig
import GestureRecording
import GestureDevices
import Logging

/// The daemon runtime. PLACEHOLDER.
public enum DaemonVersion {
    public static let version = "0.1.0"
    public static let protocolVersion = 1
}
