"""Drives `gesturectl view`'s page in headless chromium (Tests/view/run.sh): every check prints
ok/FAILED, the run ends with "N passed, M failed" and a screenshot (view.png) in --out."""
import argparse
import json
import shlex
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from checks import check, finish, wait

args = argparse.ArgumentParser()
args.add_argument("--url", required=True)
args.add_argument("--out", required=True)
args.add_argument("--trigger", required=True, help="a subscriber that starts the injected recording")
args.add_argument("--socket", required=True)
opts = args.parse_args()

def daemon(request):
    """One request to the daemon; its response line."""
    s = socket.socket(socket.AF_UNIX)
    s.connect(opts.socket)
    f = s.makefile("rw")
    f.readline()  # hello
    f.write(json.dumps({"request": request}) + "\n")
    f.flush()
    while True:
        line = json.loads(f.readline())
        if line.get("type") in ("response", "error"):
            s.close()
            return line


base = opts.url.rsplit("/", 2)[0] + "/"
# No token: refused before anything is served (and from a foreign Origin too).
try:
    urllib.request.urlopen(base, timeout=5)
    check("a URL without the token is refused", False, "(served)")
except urllib.error.HTTPError as e:
    check("a URL without the token is refused", e.code == 403, f"({e.code})")
try:
    urllib.request.urlopen(urllib.request.Request(opts.url, headers={"Origin": "http://evil.example"}), timeout=5)
    check("a foreign Origin is refused", False, "(served)")
except urllib.error.HTTPError as e:
    check("a foreign Origin is refused", e.code == 403, f"({e.code})")

chrome = webdriver.ChromeOptions()
chrome.set_capability("goog:loggingPrefs", {"browser": "ALL"})
chrome.binary_location = "/usr/bin/chromium"
for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000", "--disable-dev-shm-usage"):
    chrome.add_argument(flag)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=chrome)
try:
    driver.get(base)
    check("the browser is refused without the token", "refused" in driver.find_element(By.TAG_NAME, "body").text)

    driver.get(opts.url)
    status = wait(lambda: "daemon " in driver.find_element(By.ID, "daemon").text
                  and "not connected" not in driver.find_element(By.ID, "daemon").text
                  and driver.find_element(By.ID, "daemon").text)
    check("the daemon's status shows", bool(status), driver.find_element(By.ID, "daemon").text)

    scene = daemon("scene")
    window = scene["desktop"]["windows"][0] if scene.get("desktop") else None
    check("the daemon's scene has sway's window", window is not None and window["app"] == "view-app", json.dumps(scene))

    # Start the recording now that the page listens: the second subscriber.
    trigger = subprocess.Popen(shlex.split(opts.trigger), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        # Read the drawing in one script call: the page redraws every frame, so element
        # references would go stale.
        def fingers():
            return driver.execute_script("""return [...document.querySelectorAll('svg g.touch')].map(g => ({
                window: g.dataset.window, region: g.dataset.region, label: g.textContent}))""")

        got = wait(lambda: (f := fingers()) and len(f) >= 2 and f, 20) or fingers()
        check("two fingers appear on the touchscreen's surface", len(got) >= 2, str(got))
        check("each finger names the window it hit",
              window is not None and got and all(f["window"] == window["id"] for f in got), str(got))
        check("the finger's label names the window and its rule",
              got and all("view-app" in f["label"] and "rule viewer" in f["label"] for f in got), str(got))

        def drawn_window():
            return driver.execute_script("""const r = document.querySelector(`svg rect[data-window='${arguments[0]}']`);
                return r && ['x', 'y', 'width', 'height'].map(k => Number(r.getAttribute(k)))""", window["id"])

        rect = wait(drawn_window) if window else None
        want = [window["x"], window["y"], window["width"], window["height"]] if window else None
        check("sway's window is drawn where it is", rect is not None and rect == want, f"{rect} != {want}")
        check("sway put it where the test moved it (600 × 400 at 300, 40, title bar included)",
              window is not None and 290 <= window["x"] <= 310 and 30 <= window["y"] <= 50
              and 595 <= window["width"] <= 610 and 395 <= window["height"] <= 430, json.dumps(window))

        def row(gesture):
            return driver.execute_script("""const r = document.querySelector(`#gestures tr[data-gesture='${arguments[0]}']`);
                return r && {state: r.dataset.state, text: r.textContent,
                             reason: r.querySelector('td.reason').textContent}""", gesture)

        ended = wait(lambda: (r := row("viewer-pan")) and r["state"] == "ended" and r, 20)
        check("the window's pan went through to ended", bool(ended), str(row("viewer-pan")))
        timeline = driver.find_element(By.ID, "timeline").text
        check("the timeline shows the pan's began and ended",
              "viewer-pan began" in timeline and "viewer-pan ended" in timeline, timeline[:400])
        ran = wait(lambda: "binding viewer-pan: exit 4" in (t := driver.find_element(By.ID, "timeline").text) and t, 20) or ""
        check("the timeline shows the binding that ran, its command and exit status",
              "binding viewer-pan: exit 4" in ran and "exit 4, " in ran, (ran or driver.find_element(By.ID, "timeline").text)[:400])
        failed_tap = wait(lambda: (r := row("viewer-tap")) and r["state"] == "failed" and r)
        reason = failed_tap["reason"] if failed_tap else ""
        check("the failed tap shows its reason", "2 fingers > 1" in reason or "moved" in reason, repr(reason))
        devices = wait(lambda: "Wacom ISDv4 E6 Finger" in (t := driver.find_element(By.ID, "devices").text) and t) or ""
        check("the injected device is listed", "Wacom ISDv4 E6 Finger" in devices and "injected" in devices, devices)
    finally:
        trigger.terminate()
    driver.save_screenshot(opts.out + "/view.png")
    # The refused request without the token is the test's own.
    errors = [e["message"] for e in driver.get_log("browser")
              if e["level"] == "SEVERE" and not e["message"].startswith(base + " ")]
    check("the page logged no error", not errors, "\n".join(errors))
finally:
    driver.quit()

finish()
