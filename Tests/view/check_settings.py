"""The view's settings section in headless chromium (Tests/view/run.sh, docs/view.md "Settings"):
a refused save (an unknown key name) shows the config loader's file:line:column error and leaves
the daemon's config file byte-identical; a binding added for a new gesture, its key typed with the
page's key-name completion, is written with every line of the old file (comments included) kept,
FILE.bak holds the old file, and the daemon runs the new one. Prints ok/FAILED and "N passed, M failed"."""
import argparse
import json
import os
import socket
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

import checks
from checks import check, finish

args = argparse.ArgumentParser()
args.add_argument("--url", required=True)
args.add_argument("--out", required=True)
args.add_argument("--config", required=True, help="the daemon's config file (the page edits it)")
args.add_argument("--socket", required=True)
opts = args.parse_args()

def wait(condition, seconds=15):
    return checks.wait(condition, seconds)


def status():
    s = socket.socket(socket.AF_UNIX)
    s.connect(opts.socket)
    f = s.makefile("rw")
    f.readline()
    f.write(json.dumps({"request": "status"}) + "\n")
    f.flush()
    while True:
        line = json.loads(f.readline())
        if line.get("type") in ("response", "error"):
            s.close()
            return line


def read(path):
    with open(path, "rb") as f:
        return f.read()


chrome = webdriver.ChromeOptions()
chrome.binary_location = "/usr/bin/chromium"
for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1400", "--disable-dev-shm-usage"):
    chrome.add_argument(flag)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=chrome)
try:
    driver.get(opts.url)
    rows = wait(lambda: driver.find_element(By.CSS_SELECTOR, "#bindings tbody").text)
    check("the settings list the config's gestures with their bindings",
          rows and "viewer-pan" in rows and "exit 4" in rows and "window rule viewer" in rows, repr(rows))
    check("the settings name the daemon's config file",
          driver.find_element(By.ID, "settings-file").text == opts.config, driver.find_element(By.ID, "settings-file").text)

    before = read(opts.config)
    # A refused save: a key name that is not the kernel's.
    Select(driver.find_element(By.ID, "b-gesture")).select_by_value("tap")
    driver.find_element(By.ID, "b-keys").send_keys("leftlat+right")
    driver.find_element(By.ID, "b-save").click()
    error = wait(lambda: driver.find_element(By.ID, "settings-error").is_displayed()
                 and driver.find_element(By.ID, "settings-error").text)
    check("a refused save shows the loader's file:line:column error",
          error and (opts.config + ":") in error and "unknown key 'leftlat'" in error and "did you mean 'leftalt'?" in error,
          repr(error))
    check("a refused save leaves the file byte-identical", read(opts.config) == before)
    check("a refused save writes no backup", not os.path.exists(opts.config + ".bak"))

    # A binding for a new gesture, its key completed from the page's key names.
    driver.find_element(By.ID, "b-keys").clear()
    Select(driver.find_element(By.ID, "b-gesture")).select_by_value("")
    check("a new gesture's fields show", driver.find_element(By.ID, "g-id").is_displayed())
    driver.find_element(By.ID, "g-id").send_keys("swipe-3-left")
    Select(driver.find_element(By.ID, "g-kind")).select_by_visible_text("swipe")
    driver.find_element(By.ID, "g-fingers").send_keys("3")
    Select(driver.find_element(By.ID, "g-direction")).select_by_visible_text("left")
    driver.find_element(By.ID, "b-command").send_keys("swaymsg workspace next")
    driver.find_element(By.ID, "b-keys").send_keys("leftmeta+pagedo")
    offered = wait(lambda: [o.get_attribute("value") for o in driver.find_elements(By.CSS_SELECTOR, "#key-names option")])
    check("key names are completed", offered == ["leftmeta+pagedown"], repr(offered))
    driver.find_element(By.ID, "b-keys").send_keys("wn")
    driver.find_element(By.ID, "b-save").click()
    saved = wait(lambda: "saved" in driver.find_element(By.ID, "settings-saved").text
                 and driver.find_element(By.ID, "settings-saved").text)
    check("the save is confirmed and the daemon reloaded it", saved and "the daemon reloaded it" in saved, repr(saved))
    check("the error is gone after a good save", not driver.find_element(By.ID, "settings-error").is_displayed())
    after = read(opts.config).decode()
    old_lines = before.decode().split("\n")
    new_lines = after.split("\n")
    kept = [line for line in new_lines if line in old_lines]
    check("every line of the old file is kept, comments and order included", kept == old_lines,
          "\n" + after)
    check("the new gesture and binding are in the file",
          '- { id: "swipe-3-left", kind: "swipe", fingers: 3, directions: ["left"] }' in after
          and '- { gesture: "swipe-3-left", command: "swaymsg workspace next", keys: [["leftmeta", "pagedown"]] }' in after,
          "\n" + after)
    check("the old file is kept as .bak", read(opts.config + ".bak") == before)
    check("the daemon runs the new config", "swipe-3-left" in (status().get("gestures") or []))
    listed = wait(lambda: "swipe-3-left" in driver.find_element(By.CSS_SELECTOR, "#bindings tbody").text)
    check("the page lists the new binding", listed)
    driver.save_screenshot(os.path.join(opts.out, "view-settings.png"))
finally:
    driver.quit()

finish()
