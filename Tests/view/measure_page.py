"""How the page keeps up with ten fingers at 240 Hz (docs/view.md, "Cost"), reported, not asserted:
2,400 synthetic touch lines a second are queued into the open page for --seconds, and the page's
animation frames (interval, time spent applying and drawing) are measured in headless chromium.
Usage: measure_page.py --url URL (a `gesturectl view --no-open` URL; no daemon needed)."""
import argparse
import json

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

args = argparse.ArgumentParser()
args.add_argument("--url", required=True)
args.add_argument("--seconds", type=float, default=5)
args.add_argument("--fingers", type=int, default=10)
args.add_argument("--hz", type=float, default=240)
opts = args.parse_args()

chrome = webdriver.ChromeOptions()
chrome.binary_location = "/usr/bin/chromium"
for flag in ("--headless=new", "--no-sandbox", "--window-size=1400,1000", "--disable-dev-shm-usage"):
    chrome.add_argument(flag)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=chrome)
driver.set_script_timeout(opts.seconds + 30)
try:
    driver.get(opts.url)
    result = driver.execute_async_script("""
        const [seconds, fingers, hz, done] = arguments;
        const intervals = [], work = [], backlog = [];
        const original = draw;
        draw = function () { const s = performance.now(); original(); work.push(performance.now() - s); };
        let sent = 0;
        const t0 = performance.now();
        let last = t0;
        function feed() {
          const due = Math.floor((performance.now() - t0) / 1000 * hz);
          for (; sent < due; sent++) {
            for (let f = 0; f < fingers; f++) {
              pending.push(JSON.stringify({type: "touch", phase: sent === 0 ? "began" : "moved", id: f + 1,
                location: {x: 20 + f * 25 + (sent % 50), y: 100 + 60 * Math.sin(sent / 30 + f)},
                region: "screen", device: "synthetic", time: sent / hz}));
            }
          }
          backlog.push(pending.length);
        }
        const timer = setInterval(feed, 4);
        function tick(now) {
          intervals.push(now - last); last = now;
          if (now - t0 < seconds * 1000) requestAnimationFrame(tick);
          else { clearInterval(timer); done({intervals, work, backlog, lines: sent * fingers,
                                              dropped: state.pageDropped}); }
        }
        requestAnimationFrame(tick);
    """, opts.seconds, opts.fingers, opts.hz)
finally:
    driver.quit()


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))] if values else 0


iv, work = result["intervals"][1:], result["work"]
print(json.dumps({
    "lines_per_second": round(result["lines"] / opts.seconds),
    "frames": len(iv), "frame_interval_ms": {"p50": round(pct(iv, .5), 1), "p95": round(pct(iv, .95), 1),
                                             "max": round(max(iv), 1)},
    "draw_ms": {"p50": round(pct(work, .5), 2), "p95": round(pct(work, .95), 2), "max": round(max(work), 2)},
    "queued_lines_max": max(result["backlog"]), "dropped_by_page": result["dropped"]}))
