/// Which devices share one surface: the pen and the fingers of one panel, which the kernel often
/// splits into sibling devices (Wacom: "Wacom Cintiq 22HDT Pen" and "… Finger", two interfaces of
/// one USB device; I²C panels: "ELAN9008:00 04F3:2A49" and "… Stylus"). The pen's nearness reaches
/// its siblings for palm rejection (docs/input.md, "Pens").
///
/// The key: the physical path the kernel gives (EVIOCGPHYS) up to its last `/input` part
/// (`usb-0000:00:14.0-7/input0` and `…/input1` are one device), when the device has one; else the
/// name without its last word when that word says which part of the panel it is (`Pen`, `Stylus`,
/// `Eraser`, `Finger`, `Touch`, `Touchscreen`; case ignored), else the whole name. A recording has
/// no physical path, so its siblings go by name.
public enum DeviceSiblings {
    static let partWords: Set<String> = ["pen", "stylus", "eraser", "finger", "touch", "touchscreen"]

    public static func key(of description: DeviceDescription) -> String {
        if let phys = description.physicalPath, !phys.isEmpty {
            if let slash = phys.lastIndex(of: "/"), phys[phys.index(after: slash)...].hasPrefix("input") {
                return "phys:" + phys[..<slash]
            }
            return "phys:" + phys
        }
        return "name:" + nameStem(description.name)
    }

    /// The name without a trailing part word ("Wacom DTH2242 Pen" → "Wacom DTH2242").
    public static func nameStem(_ name: String) -> String {
        guard let space = name.lastIndex(of: " ") else { return name }
        let last = name[name.index(after: space)...].lowercased()
        return partWords.contains(last) ? String(name[..<space]) : name
    }
}
