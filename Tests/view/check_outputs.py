"""The page draws the daemon's decisions (Tests/view/run.sh): a replay over a laptop whose external
monitor comes first and has the focus, and whose built-in panel (eDP-1) has neither. The daemon binds
the touchscreen to the panel (Desktop.defaultTouchscreenOutput); the page must show the panel, its
window where the scene's `surfaces` put it, and each finger on the window its began line's `chain`
names — never the focused monitor's window. Prints ok/FAILED lines and "N passed, M failed"; a
screenshot view-outputs.png."""
import argparse

from checks import check, chromium, finish, screenshot_and_console, wait

args = argparse.ArgumentParser()
args.add_argument("--url", required=True)
args.add_argument("--out", required=True)
opts = args.parse_args()

driver = chromium()


def page():
    return driver.execute_script("""
        const fig = document.querySelector('#screens figure.surface');
        const win = (id) => { const r = fig && fig.querySelector(`svg rect[data-window='${id}']`);
                              return r ? ['x', 'y', 'width', 'height'].map(k => Number(r.getAttribute(k))) : null; };
        return {
            output: fig ? fig.dataset.output : null,
            caption: fig ? fig.querySelector('figcaption').textContent : null,
            viewBox: fig ? fig.querySelector('svg').getAttribute('viewBox') : null,
            panelWindow: win('11'),
            monitorWindow: win('10'),
            fingers: fig ? [...fig.querySelectorAll('g.touch')].map(g => ({window: g.dataset.window, label: g.textContent})) : [],
        };""")


try:
    driver.get(opts.url)
    shown = wait(lambda: (p := page())["output"] and p["fingers"] and p)
    check("the touchscreen is drawn", bool(shown), str(page()))
    p = page()
    check("on the output the daemon bound it to (eDP-1), not the focused first one",
          p["output"] == "eDP-1" and "(output eDP-1)" in (p["caption"] or ""), str(p))
    check("its surface is the panel's size from the scene", p["viewBox"] == "0 0 1280 800", str(p))
    check("the panel's window is drawn where the scene's surfaces put it",
          p["panelWindow"] == [0, 100, 1280, 700], str(p))
    check("the focused monitor's window is not drawn on it", p["monitorWindow"] is None, str(p))
    check("each finger is on the window its began line's chain names",
          p["fingers"] and all(f["window"] == "11" and "editor" in f["label"] for f in p["fingers"]), str(p))
    screenshot_and_console(driver, opts.out + "/view-outputs.png")
finally:
    driver.quit()
finish()
