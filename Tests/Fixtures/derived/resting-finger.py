#!/usr/bin/env python3
"""Makes one finger of a real multi-finger recording rest: it lands and lifts as recorded but never
moves (its ABS_MT_POSITION_X / Y events after its landing frame are dropped; the single-touch
emulation ABS_X / ABS_Y, while it is the oldest finger down, stays at its landing place).

usage: resting-finger.py IN.evemu N OUT.evemu    (N: the N-th contact to land, from 1)
"""
import sys

src, nth, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
header, rows = [], []
for line in open(src):
    if line.startswith("E: "):
        t, typ, code, value = line.split()[1:5]
        rows.append((t, int(typ, 16), int(code, 16), int(value)))
    else:
        header.append(line)

slot, slot_contact, contacts, order = 0, {}, 0, []
resting, rest_xy, landing_frame = None, [None, None], False
result, emulated = [], {}
for t, typ, code, value in rows:
    keep, v = True, value
    if typ == 3 and code == 0x2F:
        slot = value
    elif typ == 3 and code == 0x39:
        if value >= 0:
            contacts += 1
            slot_contact[slot] = contacts
            order.append(contacts)
            if contacts == nth:
                resting, landing_frame = contacts, True
        else:
            c = slot_contact.pop(slot, None)
            if c in order: order.remove(c)
    elif typ == 3 and code in (0x35, 0x36) and resting is not None and slot_contact.get(slot) == resting:
        if landing_frame:
            rest_xy[code - 0x35] = value
        else:
            keep = False
    elif typ == 3 and code in (0x00, 0x01) and order and order[0] == resting:
        v = rest_xy[code] if rest_xy[code] is not None else value
        keep = emulated.get(code) != v
    if typ == 3 and code in (0x00, 0x01) and keep:
        emulated[code] = v
    if typ == 0 and code == 0:
        landing_frame = False
    if keep:
        result.append(f"E: {t} {typ:04x} {code:04x} {v}\n")

header.insert(1, f"# derived: contact {nth} of {src.split('/')[-1]} rests (lands and lifts as recorded, never moves)\n")
open(out, "w").write("".join(header) + "".join(result))
