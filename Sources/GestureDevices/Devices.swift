import CLibevdev
import CLibudev
import GestureCore

/// The libevdev / libudev wrapper layer. PLACEHOLDER — replaced by the live device implementation.
public enum LibevdevVersion {
    /// `libevdev_event_type_get_name(EV_ABS)`: proves the C library links.
    public static var absName: String { String(cString: libevdev_event_type_get_name(UInt32(EV_ABS))) }
}
