"""`gesturectl view --replay` in headless chromium (Tests/view/run.sh): the replay controls, the
whole recording at first, scrubbing back to before the pan, playing at 4× to its end, the
snapshot's window. Prints ok/FAILED lines and "N passed, M failed"; a screenshot view-replay.png."""
import argparse
import sys
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from checks import check, chromium, finish, screenshot_and_console

args = argparse.ArgumentParser()
args.add_argument("--url", required=True)
args.add_argument("--out", required=True)
opts = args.parse_args()
def wait(condition, seconds=10):
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    return condition()


driver = chromium()


def page():
    return driver.execute_script("""return {
        controls: !document.getElementById('replay').hidden,
        fingers: document.querySelectorAll('svg g.touch').length,
        labels: [...document.querySelectorAll('svg g.touch')].map(g => g.textContent),
        pan: (document.querySelector("#gestures tr[data-gesture='viewer-pan']") || {dataset: {}}).dataset.state || null,
        window: !!document.querySelector('svg rect[data-window]'),
        clock: document.getElementById('clock').textContent,
        play: document.getElementById('play').textContent}""")


try:
    driver.get(opts.url)
    opened = wait(lambda: (p := page())["controls"] and p["pan"] == "ended" and p)
    check("the replay opens on the whole recording: controls, the pan ended", bool(opened), str(page()))
    check("the snapshot's window is drawn", page()["window"], str(page()))
    check("fingers are drawn", page()["fingers"] >= 2, str(page()))
    check("each finger names the window its began line's chain names", page()["labels"]
          and all("view-app" in t for t in page()["labels"]), str(page()))
    # Scrub to the start: nothing has happened yet.
    driver.execute_script("const s = document.getElementById('scrub'); s.value = 0; s.dispatchEvent(new Event('input'));")
    # The first frame's fingers are down; the pan begins later.
    start = wait(lambda: (p := page())["pan"] is None and p["clock"].startswith("0.000 s") and p)
    check("scrubbed to the start: the pan has not begun", bool(start), str(page()))
    Select(driver.find_element(By.ID, "speed")).select_by_value("4")
    driver.find_element(By.ID, "play").send_keys("\n")   # the keyboard works the controls
    playing = wait(lambda: (p := page())["play"].endswith("pause") and p, 3)
    check("play (from the keyboard) runs the clock", bool(playing), str(page()))
    done = wait(lambda: (p := page())["pan"] == "ended" and p["play"].endswith("play") and p, 10)
    check("played at 4× to the end: the pan ended again", bool(done), str(page()))
    screenshot_and_console(driver, opts.out + "/view-replay.png")
finally:
    driver.quit()
finish()
