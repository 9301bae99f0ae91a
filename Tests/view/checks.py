"""What the view's browser checks share (Tests/view/check_*.py): the ok / FAILED lines, the closing
"N passed, M failed" and its exit status, waiting for the page to show something, and the headless
chromium they drive."""
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


def chromium():
    """Debian's chromium, headless, through its chromedriver."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def screenshot_and_console(driver, path):
    """Saves the page's screenshot at `path` and checks the browser console logged no error."""
    driver.save_screenshot(path)
    errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    check("the page logged no error", not errors, "\n".join(errors))
