import GestureCore

/// "Did you mean" for key names written as other tools spell them: xdotool and X keysyms
/// (`super`, `Control_L`, `Page_Up`, `Return`, `XF86AudioRaiseVolume`), Touchégg and fusuma configs
/// (`ctrl+alt+Right`), libinput-gestures. A name is normalised (case, `_` / `-` / spaces, a `key_`
/// or `XF86` prefix, a `_L` / `_R` suffix or `l` / `left` prefix naming the side), then looked up
/// among the modifiers, a table of other tools' names and the kernel's names spelled without
/// separators; what is still unknown gets the nearest name by edit distance
/// (docs/configuration.md, "Key names").
enum KeyNameHints {
    /// A kernel key name to suggest, with a note when one name is not the whole story.
    struct Hint: Equatable {
        var name: String
        var note: String?
    }

    /// Modifier words (compact, lower case) → the kernel's modifier without its side.
    static let modifiers: [String: String] = [
        "super": "meta", "meta": "meta", "win": "meta", "windows": "meta", "logo": "meta", "mod4": "meta",
        "cmd": "meta", "command": "meta", "hyper": "meta",
        "ctrl": "ctrl", "control": "ctrl", "ctl": "ctrl", "strg": "ctrl",
        "alt": "alt", "option": "alt", "opt": "alt", "mod1": "alt",
        "shift": "shift",
    ]

    /// Other tools' names (compact, lower case, without `xf86`) → the kernel's name.
    static let aliases: [String: Hint] = {
        var table: [String: Hint] = [:]
        func add(_ target: String, _ words: [String], note: String? = nil) {
            for word in words { table[word] = Hint(name: target, note: note) }
        }
        // X keysyms and xdotool names of ordinary keys.
        add("enter", ["return", "ret", "cr"])
        add("esc", ["escape"])
        add("pageup", ["prior", "pgup", "pageu"])
        add("pagedown", ["next", "pgdn", "pgdown", "pagedn"])
        add("delete", ["del"])
        add("insert", ["ins"])
        add("backspace", ["bksp", "bs"])
        add("space", ["spacebar"])
        add("sysrq", ["printscreen", "prtsc", "prtscr", "prtscn", "printscr"])
        add("leftbrace", ["bracketleft"])
        add("rightbrace", ["bracketright"])
        add("dot", ["period", "fullstop"])
        add("grave", ["backtick", "backquote", "quoteleft"])
        add("apostrophe", ["quote", "quoteright"])
        add("rightalt", ["altgr", "isolevel3shift", "modeswitch"])
        add("compose", ["multikey", "contextmenu", "application"])
        add("kpplus", ["plus", "add", "kpadd"], note: "the main keyboard's + is [leftshift, equal]")
        add("kpasterisk", ["asterisk", "multiply", "kpmultiply"], note: "the main keyboard's * is [leftshift, 8]")
        add("kpminus", ["subtract", "kpsubtract"])
        add("kpslash", ["divide", "kpdivide"])
        add("kpdot", ["kpdecimal", "kpdelete"])
        add("minus", ["hyphen", "dash"])
        add("kpenter", ["kpreturn"])
        // XF86 keysyms (written without their XF86 prefix here).
        add("volumeup", ["audioraisevolume", "raisevolume", "volup", "volumeplus"])
        add("volumedown", ["audiolowervolume", "lowervolume", "voldown", "volumeminus"])
        add("mute", ["audiomute", "volumemute"])
        add("micmute", ["audiomicmute"])
        add("playpause", ["audioplay", "play", "audiopause", "mediaplaypause"])
        add("stopcd", ["audiostop", "stop", "mediastop"])
        add("nextsong", ["audionext", "medianext", "mediatracknext"])
        add("previoussong", ["audioprev", "mediaprev", "mediaprevious", "mediatrackprevious"])
        add("brightnessup", ["monbrightnessup"])
        add("brightnessdown", ["monbrightnessdown"])
        add("kbdillumup", ["kbdbrightnessup"])
        add("kbdillumdown", ["kbdbrightnessdown"])
        add("kbdillumtoggle", ["kbdlightonoff"])
        add("screenlock", ["screensaver", "lock", "lockscreen"])
        add("calc", ["calculator"])
        add("computer", ["mycomputer"])
        add("switchvideomode", ["display"])
        add("touchpad_toggle", ["touchpadtoggle"])
        add("refresh", ["reload"])
        add("power", ["poweroff", "powerdown"])
        add("bookmarks", ["favorites"])
        add("homepage", ["browserhome"])
        add("back", ["browserback", "navigateback"])
        add("forward", ["browserforward", "navigateforward"])
        return table
    }()

    /// Characters as xdotool and editors write them → the key that types them.
    static let symbols: [String: Hint] = [
        "+": Hint(name: "kpplus", note: "the main keyboard's + is [leftshift, equal]"), "-": Hint(name: "minus"),
        "*": Hint(name: "kpasterisk", note: "the main keyboard's * is [leftshift, 8]"), "=": Hint(name: "equal"),
        ",": Hint(name: "comma"), ".": Hint(name: "dot"), "/": Hint(name: "slash"), ";": Hint(name: "semicolon"),
        "'": Hint(name: "apostrophe"), "`": Hint(name: "grave"), "[": Hint(name: "leftbrace"),
        "]": Hint(name: "rightbrace"), "\\": Hint(name: "backslash"),
    ]

    /// The kernel names spelled compact (lower case, no `_`), for `Page_Up` → `pageup`.
    private static let compactNames: [String: String] = {
        var table: [String: String] = [:]
        for name in KeyNames.all where table[compact(name)] == nil { table[compact(name)] = name }
        return table
    }()

    /// Every word the tables know, compact, with what it stands for: the edit-distance fallback's candidates.
    private static let candidates: [(word: String, hint: Hint)] = {
        var list: [(word: String, hint: Hint)] = compactNames.map { ($0.key, Hint(name: $0.value)) }
        list += aliases.map { ($0.key, $0.value) }
        for (word, base) in modifiers {
            list.append((word, Hint(name: "left" + base)))
            list.append(("left" + word, Hint(name: "left" + base)))
            list.append(("right" + word, Hint(name: "right" + base)))
        }
        return list.sorted { $0.word < $1.word }
    }()

    /// Lower case without `_`, `-` and spaces.
    static func compact(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" && $0 != " " })
    }

    /// The kernel name meant by `written` (which is not one), or nil when nothing is close. A kernel
    /// name spelled another way comes first, then modifiers, then other tools' names, then the
    /// nearest by edit distance.
    static func hint(for written: String) -> Hint? {
        var lower = written.lowercased().trimmingSpaces
        if let hint = symbols[lower] { return hint }
        for prefix in ["key_", "xf86_", "xf86"] where lower.hasPrefix(prefix) && lower.count > prefix.count {
            lower.removeFirst(prefix.count)
        }
        // A kernel name spelled another way (`Page_Up`, `XF86Back`) is that name.
        let whole = compact(lower)
        if let name = compactNames[whole] { return Hint(name: name) }
        // The side of a modifier: Super_L, Control-R, left_super, leftsuper, lctrl, rshift.
        var side: String?
        var word = whole
        for (suffix, name) in [("_l", "left"), ("-l", "left"), (" l", "left"), ("_r", "right"), ("-r", "right"), (" r", "right")]
        where lower.hasSuffix(suffix) && modifiers[compact(String(lower.dropLast(suffix.count)))] != nil {
            side = name
            word = compact(String(lower.dropLast(suffix.count)))
        }
        for name in ["left", "right"] where side == nil && word.hasPrefix(name) && modifiers[String(word.dropFirst(name.count))] != nil {
            side = name
            word.removeFirst(name.count)
        }
        for (letter, name) in [("l", "left"), ("r", "right")]
        where side == nil && word.hasPrefix(letter) && modifiers[String(word.dropFirst())] != nil && modifiers[word] == nil {
            side = name
            word.removeFirst()
        }
        if let base = modifiers[word] { return Hint(name: (side ?? "left") + base) }
        if let hint = aliases[word] { return hint }
        // Edit distance over everything known, on the compact spelling (a single character is
        // near every letter and digit: no guess).
        guard word.count > 1 else { return nil }
        let limit = max(1, min(3, word.count / 3))
        var best: (hint: Hint, distance: Int)?
        for candidate in candidates {
            let distance = NameSuggestion.editDistance(Array(word), Array(candidate.word))
            if distance <= limit, distance < (best?.distance ?? Int.max) { best = (candidate.hint, distance) }
        }
        return best?.hint
    }

    /// `ctrl+alt+Right` → `[leftctrl, leftalt, right]`, when every part is a key or has a hint.
    static func combination(for written: String) -> String? {
        let parts = written.split(separator: "+", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
        guard parts.count > 1 else { return nil }
        var names: [String] = []
        for part in parts {
            if let code = KeyNames.code(for: part) {
                names.append(KeyNames.name(of: code))
            } else if let hint = hint(for: part) {
                names.append(hint.name)
            } else {
                return nil
            }
        }
        return "[" + names.joined(separator: ", ") + "]"
    }
}
