# `gesturectl tune`'s part of evaluate.py (Tests/vm/tune.sh wrote tune-checks.txt): run inside
# evaluate.py, whose `out` and `check` it uses. Each line is one check.


def check_tune():
    print("\n== gesturectl tune through the kernel (Tests/vm/tune.sh) ==")
    try:
        with open(os.path.join(out, "tune-checks.txt")) as f:
            lines = [line.rstrip("\n") for line in f if line.strip()]
    except OSError:
        lines = []
    check("tune: the case ran", bool(lines), "no tune-checks.txt")
    for line in lines:
        status, name, detail = (line.split("|", 2) + ["", ""])[:3]
        check("tune: " + name, status == "ok", detail)


check_tune()
