"""What the view's browser checks share (Tests/view/check_*.py): the ok / FAILED lines, the closing
"N passed, M failed" and its exit status, and waiting for the page to show something."""
import sys
import time

passed = failed = 0


def check(what, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok: {what}")
    else:
        failed += 1
        print(f"FAILED: {what} {detail}")


def wait(condition, seconds=10):
    """The condition's first true value within `seconds`, or None; an exception counts as not yet
    (the page is still loading or drawing)."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            value = condition()
            if value:
                return value
        except Exception:
            pass
        time.sleep(0.05)
    return None


def finish():
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
