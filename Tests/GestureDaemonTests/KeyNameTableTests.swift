import Testing
import GestureConfig
import GestureDevices

/// The config's key table (generated from linux/input-event-codes.h by scripts/generate-key-names)
/// agrees with libevdev's own table of the kernel's names.
@Suite struct KeyNameTableTests {
    @Test func everyNameMeansWhatLibevdevSaysItMeans() {
        let entries = KeyNames.kernelEntries
        #expect(entries.count > 500)
        var newerThanLibevdev: [String] = []
        for (name, code) in entries {
            if let libevdev = VirtualKeyboard.libevdevCode(named: name) {
                #expect(libevdev == code, "\(name): table \(code), libevdev \(libevdev)")
            } else if let canonical = VirtualKeyboard.libevdevName(of: code) {
                // An alias the header defines (KEY_SCREENLOCK is KEY_COFFEE); libevdev knows only the
                // first name, which the table must give the same code.
                #expect(KeyNames.kernelEntries.contains { $0.name == canonical && $0.code == code }, "\(name) / \(canonical)")
            } else {
                newerThanLibevdev.append(name)
            }
        }
        // Keys added to the kernel after this libevdev was built: a handful at most.
        #expect(newerThanLibevdev.count < 10, "\(newerThanLibevdev)")
    }
}
