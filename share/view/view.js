// gestured view (docs/view.md): draws what the daemon's protocol lines say. Lines arrive on a
// WebSocket (one JSON line a message); they are queued (bounded) and applied once per animation
// frame, and the page is drawn once per frame from the latest state, so ten fingers at 240 Hz cost
// one drawing a frame. The stream is read-only: the page sends nothing on it. The settings section
// (docs/view.md, "Settings") reads the config with GET settings and saves an edit with POST settings.
"use strict";

const MAX_PENDING = 20000;   // lines waiting for the next frame; beyond: dropped and counted
const TRAIL = 16;            // positions kept per finger
const TIMELINE = 200;        // timeline entries kept
const SVG = "http://www.w3.org/2000/svg";

const state = {
  daemon: null, hello: null, status: null, devices: new Map(), scene: null, desktop: null,
  touches: new Map(), gestures: new Map(), timeline: [], dropped: 0, pageDropped: 0, replay: null,
};
let pending = [];
let dirty = true;

// ---- the stream -----------------------------------------------------------------------------
function connect() {
  const ws = new WebSocket(location.href.replace(/^http/, "ws").replace(/\/(index\.html)?$/, "/stream"));
  ws.onmessage = (m) => {
    if (pending.length >= MAX_PENDING) { state.pageDropped++; return; }
    pending.push(m.data);
  };
  ws.onclose = () => {
    if (!state.replay) setDaemon(false, "the view's server closed the stream (gesturectl view stopped?)");
    setTimeout(connect, 2000);
  };
}

function frame() {
  if (pending.length) {
    const lines = pending; pending = [];
    for (const text of lines) {
      let line; try { line = JSON.parse(text); } catch { continue; }
      try {
        if (state.replay && state.replay.loading) { loadReplayLine(line); continue; }
        apply(line);
      } catch (e) {
        console.error("gestured view: a line could not be applied:", text, e && e.stack ? e.stack : e);
      }
    }
    dirty = true;
  }
  try {
    if (state.replay && state.replay.playing) advanceReplay();
    if (dirty) { dirty = false; draw(); }
  } catch (e) {
    console.error("gestured view: drawing failed:", e && e.stack ? e.stack : e);
  }
  requestAnimationFrame(frame);
}

// ---- applying one line ----------------------------------------------------------------------
function apply(line) {
  switch (line.type) {
    case "hello": state.hello = line; break;
    case "view-daemon": setDaemon(line.connected, line.detail); break;
    case "response":
      if (line.request === "status") state.status = line;
      else if (line.request === "devices") setDevices(line.devices || []);
      else if (line.request === "scene") applyScene(line);
      break;
    case "error": if (line.request === "scene") state.scene = null; break;
    case "request": break;
    case "dropped": state.dropped += line.count || 0; break;
    case "touch": applyTouch(line); break;
    case "gesture": applyGesture(line); break;
    case "explain": applyExplain(line); break;
    case "binding": applyBinding(line); break;
    case "view-replay": beginReplay(line); break;
    default: break;
  }
}

function setDaemon(connected, detail) { state.daemon = { connected, detail }; dirty = true; }

/// The daemon's devices; one that went (an unplugged device, an injected recording that ended)
/// stays, marked gone, with its last touches.
function setDevices(list) {
  const now = new Map(list.map((d) => [d.name, d]));
  for (const [name, d] of state.devices) if (!now.has(name)) now.set(name, Object.assign({}, d, { gone: true }));
  state.devices = now;
}

function touchKey(l) { return (l.device || "") + "#" + l.id; }

function applyTouch(l) {
  const key = touchKey(l);
  let t = state.touches.get(key);
  if (l.phase === "began" || !t) {
    t = { id: l.id, device: l.device || "", trail: [], region: l.region, window: l.window || null, up: false,
          chain: l.chain || null };
    state.touches.set(key, t);
    // A new touch: the gestures of its regions start afresh.
    forgetSettled();
  }
  t.x = l.location.x; t.y = l.location.y; t.time = l.time;
  // A pen's line carries its kind and pressure; a hover (a pen near the glass) is no touch.
  t.kind = l.kind || "finger"; t.pressure = l.pressure;
  t.hovering = l.phase === "hovering" || l.phase === "hover-ended";
  if (l.region) t.region = l.region;
  if (l.window) t.window = l.window;
  if (l.chain) t.chain = l.chain;
  // The hit chain of the began line is the daemon's: its first window, if any, is the touch's.
  if (!t.window && t.chain) t.window = chainWindow(t.chain);
  ensureDevice(t.device, l.location);
  t.trail.push([t.x, t.y, l.pressure]);
  if (t.trail.length > TRAIL) t.trail.shift();
  if (l.phase === "ended" || l.phase === "cancelled" || l.phase === "hover-ended") {
    t.up = true; t.upAt = l.time; t.phase = l.phase;
  }
}

/// Fingers lifted linger briefly (the drawing fades them), then go.
function pruneTouches(now) {
  for (const [k, t] of state.touches) if (t.up && now - t.upAt > 1.0) state.touches.delete(k);
}

function gestureKey(l) { return l.gesture + "@" + (l.region || ""); }

function gestureEntry(l) {
  const key = gestureKey(l);
  let g = state.gestures.get(key);
  if (!g) {
    g = { gesture: l.gesture, region: l.region || "", kind: l.kind || kindOf(l.gesture), state: "possible",
          reason: "", window: l.window || null, time: l.time };
    state.gestures.set(key, g);
  }
  if (l.window) g.window = l.window;
  if (l.kind) g.kind = l.kind;
  return g;
}

function applyGesture(l) {
  const g = gestureEntry(l);
  g.state = l.state; g.time = l.time; g.settledAt = isSettled(l.state) ? l.time : undefined;
  if (l.state !== "changed") {
    addTimeline({ time: l.time, text: `${l.gesture} ${l.state}`, cls: "state-" + l.state,
                  detail: [l.region, l.window ? windowName(l.window) : "", l.fingers ? l.fingers + " fingers" : "",
                           l.direction || ""].filter(Boolean).join(" · ") });
  }
  if (!state.replay && (l.state === "recognized" || l.state === "ended")) {
    addFired(`${l.gesture} ${l.state}` + (l.fingers ? `, ${l.fingers} fingers` : "") + (l.direction ? " " + l.direction : ""),
             "state-" + l.state);
  }
}

function applyExplain(l) {
  const g = gestureEntry(l);
  if (l.routine) { if (!g.reason) g.reason = l.reason || ""; return; }
  g.state = l.to; g.reason = l.reason || ""; g.from = l.from; g.time = l.time;
  g.settledAt = isSettled(l.to) ? l.time : undefined;
  if (l.to === "failed" || l.to === "cancelled") {
    addTimeline({ time: l.time, text: `${l.gesture} ${l.to}`, cls: "state-" + l.to, detail: l.reason || "" });
  }
}

/// A binding command that finished (the daemon's `binding` line): its command and how it ended.
function applyBinding(l) {
  const how = l["timed-out"] ? "timed out" : l.status === 0 ? "exit 0"
    : l.status != null ? "exit " + l.status : "signal " + (l.signal ?? "?");
  addTimeline({ time: null, text: `binding ${l.gesture}: ${l.command}`, cls: l.status === 0 ? "binding-ok" : "binding-failed",
                detail: `${how}, ${l.ms} ms` });
  addFired(`binding ${l.gesture}: ${l.command} (${how}, ${l.ms} ms)`, l.status === 0 ? "binding-ok" : "binding-failed");
}

function isSettled(s) { return s === "failed" || s === "cancelled" || s === "ended" || s === "recognized"; }

/// Settled gestures stay on screen until the next touch begins, so the reason can be read.
function forgetSettled() {
  const down = [...state.touches.values()].some((t) => !t.up);
  if (down) return;
  for (const [k, g] of state.gestures) if (g.settledAt !== undefined || g.state === "possible") state.gestures.delete(k);
}

function addTimeline(entry) {
  state.timeline.push(entry);
  if (state.timeline.length > TIMELINE) state.timeline.shift();
}

function kindOf(id) {
  const spec = sceneGestures().find((g) => g.id === id);
  return spec ? spec.kind : "";
}
function sceneGestures() { return (state.scene && state.scene.gestures) || []; }

/// The window of a hit chain (its first `window:ID`), as the desktop describes it.
function chainWindow(chain) {
  const id = chain.find((r) => r.startsWith("window:"));
  return id ? windowOf(id) || { id: id.slice(7) } : null;
}
function windowOf(regionID) {
  const wins = (state.desktop && state.desktop.windows) || [];
  return wins.find((w) => "window:" + w.id === regionID) || null;
}

function windowName(w) {
  return `${w.app || "?"}${w.title ? " “" + w.title + "”" : ""}${w.rule ? " rule " + w.rule : ""}`;
}

// A device known only from its lines (a replay without the daemon's scene): its surface grows to
// hold every touch.
function ensureDevice(name, p) {
  let d = state.devices.get(name);
  if (!d) {
    d = { name, kind: "touchscreen", guessed: true, fromLines: true, surface: { x: 1, y: 1 } };
    state.devices.set(name, d);
  }
  if (d.guessed && p) {
    d.surface = { x: Math.max(d.surface.x, Math.ceil(p.x * 1.1)), y: Math.max(d.surface.y, Math.ceil(p.y * 1.1)) };
  }
}

/// The scene's surfaces (docs/protocol.md, "The scene"): each device's output and its regions'
/// frames as the daemon lays them out. The page draws them; it decides none of it.
function applyScene(line) {
  state.scene = line; state.desktop = line.desktop || null;
  for (const s of line.surfaces || []) {
    const d = state.devices.get(s.device);
    if (d) { d.kind = s.kind; d.guessed = false; d.surface = s.size; }
    else state.devices.set(s.device, { name: s.device, kind: s.kind, fromLines: !!state.replay, surface: s.size });
  }
}

/// The daemon's layout of device `d`'s surface, if the scene has one.
function surfaceLayout(d) {
  return ((state.scene && state.scene.surfaces) || []).find((s) => s.device === d.name) || null;
}

// ---- colours: one per region or window, the same on the finger and on the frame --------------
function colour(key) {
  let h = 0;
  for (let i = 0; i < key.length; i++) h = (h * 31 + key.charCodeAt(i)) >>> 0;
  return `hsl(${h % 360}, 70%, 45%)`;
}
function hitKey(t) { return t.window ? "window:" + t.window.id : (t.region || (t.chain && t.chain[0]) || "?"); }

// ---- drawing ---------------------------------------------------------------------------------
function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function draw() {
  const now = latestTime();
  pruneTouches(now);
  drawDaemon();
  drawSurfaces();
  drawGestures();
  drawTimeline();
  drawDevices();
  drawWindows();
}

function latestTime() {
  let t = 0;
  for (const x of state.touches.values()) t = Math.max(t, x.upAt || x.time || 0);
  return state.replay ? state.replay.position : t;
}

function drawDaemon() {
  const p = document.getElementById("daemon");
  if (state.replay) {
    p.textContent = "replay of " + (state.replay.recordings || []).join(", ");
    p.className = "daemon";
  } else if (!state.daemon || !state.daemon.connected) {
    p.textContent = "daemon: not connected" + (state.daemon ? " — " + state.daemon.detail : "");
    p.className = "daemon down";
  } else {
    const s = state.status || {};
    const d = s.desktop || {};
    p.textContent = `daemon ${s.version || (state.hello && state.hello.version) || ""} · up ${fmtUptime(s.uptime)} · `
      + `${s.devices ?? "?"} devices · ${s.clients ?? "?"} clients · bindings running ${s.bindingsRunning ?? 0}, queued ${s.bindingsQueued ?? 0}`
      + ` · desktop ${d.bridge != null ? (d.backend + ", " + d.windows + " windows") : "none"}`
      + (s.explain === false ? "" : "");
    p.className = "daemon";
  }
  const dr = document.getElementById("dropped");
  const total = state.dropped + state.pageDropped;
  dr.hidden = total === 0;
  dr.textContent = `${total} lines dropped (slow page or client; latest positions kept)`;
}

function fmtUptime(s) {
  if (s == null) return "?";
  if (s < 60) return s.toFixed(1) + " s";
  if (s < 3600) return Math.floor(s / 60) + " min " + Math.floor(s % 60) + " s";
  return Math.floor(s / 3600) + " h " + Math.floor((s % 3600) / 60) + " min";
}

const figures = new Map();

function drawSurfaces() {
  const screens = document.getElementById("screens"), pads = document.getElementById("pads");
  const seen = new Set();
  for (const d of state.devices.values()) {
    seen.add(d.name);
    const parent = d.kind === "touchpad" ? pads : screens;
    let fig = figures.get(d.name);
    if (!fig) {
      fig = document.createElement("figure");
      fig.className = "surface";
      fig.dataset.device = d.name;
      const cap = document.createElement("figcaption");
      fig.appendChild(cap);
      const svg = el("svg", { role: "img", tabindex: "0" }, fig);
      svg.setAttribute("aria-label", "surface of " + d.name);
      figures.set(d.name, fig);
    }
    if (fig.parentNode !== parent) {
      parent.querySelectorAll("p.muted").forEach((p) => p.remove());
      parent.appendChild(fig);
    }
    drawSurface(fig, d);
  }
  for (const [name, fig] of figures) if (!seen.has(name)) { fig.remove(); figures.delete(name); }
}

function drawSurface(fig, d) {
  const layout = surfaceLayout(d);
  const size = layout ? layout.size : d.surface;
  const w = size ? size.x : 100, h = size ? size.y : 100;
  const output = layout && layout.output;
  fig.dataset.output = output || "";
  fig.querySelector("figcaption").textContent = `${d.name} — ${d.kind}, ${fmt(w)} × ${fmt(h)}`
    + (output ? ` (output ${output})` : d.guessed ? " (size from its touches)" : "") + (d.gone ? " — gone" : "");
  const svg = fig.querySelector("svg");
  const unit = Math.max(w, h) / 400;   // one "pixel" of a 400 px wide drawing
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.replaceChildren();
  el("rect", { x: 0, y: 0, width: w, height: h, class: "output", "stroke-width": unit * 1.5 }, svg);
  // The regions as the daemon laid them out on this surface, bottom-most first: the config's, and
  // the windows of the device's output.
  for (const r of layout ? layout.regions : []) {
    const [x, y, rw, rh] = r.frame;
    if (r.depth === 0 || r.role === "output" || r.hidden) continue;
    if (r.role === "window") {
      const win = windowOf(r.id) || { id: r.id.slice(7) };
      const c = colour("window:" + win.id);
      el("rect", { x, y, width: rw, height: rh, class: "window", fill: c, stroke: c,
                   "stroke-width": unit * 1.5, "data-window": win.id }, svg);
      label(svg, x + unit * 5, y + unit * 16, windowName(win), unit, "window-label");
    } else {
      el("rect", { x, y, width: rw, height: rh, class: "region", "stroke-width": unit, "data-region": r.id }, svg);
      label(svg, x + unit * 4, y + unit * 14, r.id, unit, "region-label");
    }
  }
  // Fingers with their trails, coloured by what they hit.
  for (const t of state.touches.values()) {
    if (t.device !== d.name) continue;
    const c = colour(hitKey(t));
    const g = el("g", { class: "touch", "data-touch": t.id, "data-region": t.region || "",
                        "data-window": t.window ? t.window.id : "", opacity: t.up ? 0.35 : 1 }, svg);
    if (t.kind === "finger") {
      el("polyline", { points: t.trail.map((p) => p[0] + "," + p[1]).join(" "), class: "trail", stroke: c,
                       "stroke-width": unit * 2.5 }, g);
      el("circle", { cx: t.x, cy: t.y, r: unit * 9, class: "finger", fill: c, "stroke-width": unit }, g);
    } else {
      drawPen(g, t, c, unit);
    }
    const hit = t.window ? windowName(t.window) : t.region || (t.chain && t.chain[0]) || "no region known";
    const pen = t.kind === "finger" ? "" : t.hovering ? ` ${t.kind} hovering`
      : ` ${t.kind}` + (t.pressure != null ? ` ${t.pressure.toFixed(2)}` : "");
    label(g, t.x + unit * 12, t.y - unit * 10, `${t.id}${pen}: ${hit}`, unit, "finger-label");
  }
}

/// A pen (docs/view.md): hovering, a dotted trace and a dashed ring; touching, a line as wide as the
/// pressure and a small dot; an eraser's line hollow and its mark a square.
function drawPen(g, t, c, unit) {
  g.classList.add(t.hovering ? "pen-hover" : t.kind);
  if (t.hovering) {
    el("polyline", { points: t.trail.map((p) => p[0] + "," + p[1]).join(" "), class: "hover-trail", stroke: c,
                     "stroke-width": unit }, g);
    el("circle", { cx: t.x, cy: t.y, r: unit * 7, class: "hover-ring", stroke: c, "stroke-width": unit * 1.5 }, g);
    return;
  }
  for (let i = 1; i < t.trail.length; i++) {
    const [x0, y0] = t.trail[i - 1], [x1, y1, p] = t.trail[i];
    const w = unit * (1 + 7 * Math.min(1, Math.max(0, p ?? 0.3)));
    el("line", { x1: x0, y1: y0, x2: x1, y2: y1, class: "pen-line", stroke: c, "stroke-width": w }, g);
    if (t.kind === "eraser") el("line", { x1: x0, y1: y0, x2: x1, y2: y1, class: "pen-line", stroke: "#fff", "stroke-width": w * 0.45 }, g);
  }
  if (t.kind === "eraser") el("rect", { x: t.x - unit * 5, y: t.y - unit * 4, width: unit * 10, height: unit * 8, class: "pen-mark", fill: c, "stroke-width": unit }, g);
  else el("circle", { cx: t.x, cy: t.y, r: unit * 4, class: "pen-mark", fill: c, "stroke-width": unit }, g);
}

function label(parent, x, y, text, unit, cls) {
  const t = el("text", { x, y, class: cls, "font-size": unit * 12 }, parent);
  t.textContent = text;
  return t;
}

function fmt(n) { return Number.isInteger(n) ? String(n) : n.toFixed(1); }

function waitsFor(g) {
  if (g.state !== "possible") return "";
  const spec = sceneGestures().find((s) => s.id === g.gesture);
  if (!spec || !spec["require-to-fail"] || !spec["require-to-fail"].length) return "";
  const open = spec["require-to-fail"].filter((id) => {
    const other = [...state.gestures.values()].find((x) => x.gesture === id);
    return !other || other.state !== "failed";
  });
  return open.length ? open.join(", ") + " to fail" : "";
}

function drawGestures() {
  const body = document.querySelector("#gestures tbody");
  const rows = [...state.gestures.values()].sort((a, b) => (a.region + a.gesture).localeCompare(b.region + b.gesture));
  body.replaceChildren(...rows.map((g) => {
    const tr = document.createElement("tr");
    tr.dataset.gesture = g.gesture;
    tr.dataset.state = g.state;
    const cells = [g.gesture + (g.kind ? ` (${g.kind})` : ""), g.window ? windowName(g.window) : g.region, g.state,
                   g.reason || "", waitsFor(g)];
    cells.forEach((text, i) => {
      const td = document.createElement("td");
      td.textContent = text;
      if (i === 2) td.className = "state state-" + g.state;
      if (i === 3) td.className = "reason";
      tr.appendChild(td);
    });
    return tr;
  }));
}

function drawTimeline() {
  const ol = document.getElementById("timeline");
  ol.replaceChildren(...state.timeline.slice().reverse().map((e) => {
    const li = document.createElement("li");
    li.className = e.cls;
    li.textContent = `${e.time != null ? e.time.toFixed(3) + " s " : ""}${e.text}${e.detail ? " — " + e.detail : ""}`;
    return li;
  }));
}

function drawDevices() {
  const ul = document.getElementById("devices");
  ul.replaceChildren(...[...state.devices.values()].map((d) => {
    const li = document.createElement("li");
    const how = d.injected ? "injected recording" : d.clone ? "forwarded to " + d.clone : d.fromLines ? "known from the recording's lines" : "read by the daemon";
    li.textContent = `${d.name} — ${d.kind}${d.surface ? ", " + fmt(d.surface.x) + " × " + fmt(d.surface.y) : ""} — ${how}${d.gone ? " (gone)" : ""}`;
    return li;
  }));
}

function drawWindows() {
  const ul = document.getElementById("windows");
  const wins = (state.desktop && state.desktop.windows) || [];
  if (!wins.length) { ul.replaceChildren(Object.assign(document.createElement("li"), { textContent: "no desktop bridge (gesturectl desktop)", className: "muted" })); return; }
  ul.replaceChildren(...wins.map((w) => {
    const li = document.createElement("li");
    li.dataset.window = w.id;
    li.textContent = `${windowName(w)} — ${w.output} ${fmt(w.x)},${fmt(w.y)} ${fmt(w.width)}×${fmt(w.height)}`;
    return li;
  }));
}

// ---- replay: the page plays the recording's lines on its own clock ---------------------------
function beginReplay(l) {
  state.replay = { recordings: l.recordings || [], lines: [], loading: true, playing: false, position: 0,
                   start: 0, end: 0, speed: 1, applied: 0, wall: 0 };
  document.getElementById("replay").hidden = false;
  document.getElementById("replay-name").textContent = (l.recordings || []).join(", ") + (l.desktop ? " over " + l.desktop : "");
}

function loadReplayLine(l) {
  const r = state.replay;
  if (l.type === "view-replay-end") {
    r.loading = false;
    const times = r.lines.filter((x) => typeof x.time === "number").map((x) => x.time);
    r.start = times.length ? Math.min(...times) : 0;
    r.end = times.length ? Math.max(...times) : 0;
    // Everything without a time (the desktop) applies at once.
    for (const x of r.lines) if (typeof x.time !== "number") apply(x);
    seek(r.end);   // open on the whole recording; play starts it over
    return;
  }
  r.lines.push(l);
}

function seek(t) {
  const r = state.replay;
  state.touches.clear(); state.gestures.clear(); state.timeline = [];
  r.applied = 0;
  r.position = t;
  applyUpTo(t);
  updateReplayControls();
  dirty = true;
}

function applyUpTo(t) {
  const r = state.replay;
  while (r.applied < r.lines.length) {
    const l = r.lines[r.applied];
    if (typeof l.time === "number" && l.time > t) break;
    if (typeof l.time === "number") apply(l);
    r.applied++;
  }
}

function advanceReplay() {
  const r = state.replay;
  const now = performance.now();
  const t = Math.min(r.end, r.position + (now - r.wall) / 1000 * r.speed);
  r.wall = now;
  r.position = t;
  applyUpTo(t);
  if (t >= r.end) { r.playing = false; }
  updateReplayControls();
  dirty = true;
}

function updateReplayControls() {
  const r = state.replay;
  const span = Math.max(1e-9, r.end - r.start);
  document.getElementById("scrub").value = String(Math.round((r.position - r.start) / span * 1000));
  document.getElementById("clock").textContent = `${(r.position - r.start).toFixed(3)} s of ${(r.end - r.start).toFixed(3)} s`;
  const play = document.getElementById("play");
  play.textContent = r.playing ? "⏸ pause" : "▶ play";
  play.setAttribute("aria-label", r.playing ? "Pause" : "Play");
}

function setupReplayControls() {
  document.getElementById("play").addEventListener("click", () => {
    const r = state.replay; if (!r || r.loading) return;
    if (!r.playing && r.position >= r.end) seek(r.start);
    r.playing = !r.playing; r.wall = performance.now();
    updateReplayControls();
  });
  document.getElementById("scrub").addEventListener("input", (e) => {
    const r = state.replay; if (!r || r.loading) return;
    r.playing = false;
    seek(r.start + (r.end - r.start) * Number(e.target.value) / 1000);
  });
  document.getElementById("speed").addEventListener("change", (e) => {
    if (state.replay) state.replay.speed = Number(e.target.value);
  });
}

// ---- settings: the config's gestures and bindings, edited and saved ----------------------------
const settings = { data: null, editing: null };
const FIRED = 12;

/// A gesture that completed, or a binding that ran, in the settings' "What fired" list.
function addFired(text, cls) {
  const list = document.getElementById("fired");
  if (!list) return;
  const li = document.createElement("li");
  li.textContent = text; li.className = cls || "";
  list.prepend(li);
  while (list.children.length > FIRED) list.lastChild.remove();
}

function settingsURL() { return location.href.replace(/\/(index\.html)?$/, "/settings"); }

async function loadSettings() {
  try {
    const reply = await fetch(settingsURL(), { cache: "no-store" });
    settings.data = await reply.json();
  } catch (e) {
    settings.data = { editable: false, reason: "cannot read the settings: " + e };
  }
  drawSettings();
}

function keysText(keys) { return (keys || []).map((c) => c.join("+")).join(", "); }
function parseKeys(text) {
  return text.split(",").map((c) => c.split(/[+\s]+/).filter((k) => k)).filter((c) => c.length);
}

function drawSettings() {
  const d = settings.data || {};
  document.getElementById("settings-file").textContent = d.file ? d.file : "";
  const reason = document.getElementById("settings-reason");
  reason.hidden = !!d.editable && !d.error;
  reason.textContent = d.editable ? (d.error ? "the file does not load now:\n" + d.error : "") : (d.reason || "");
  document.getElementById("binding-form").hidden = !d.editable;
  const body = document.querySelector("#bindings tbody");
  body.replaceChildren();
  const bindings = d.bindings || [];
  for (const g of d.gestures || []) {
    const mine = bindings.filter((b) => b.gesture === g.id);
    for (const b of mine.length ? mine : [null]) {
      const tr = document.createElement("tr");
      const where = g.rule ? "window rule " + g.rule : (g.region || "screen");
      const detail = [g.fingers ? g.fingers + " fingers" : "", (g.directions || []).join(" ")].filter((x) => x).join(", ");
      const what = b ? [b.command ? "command: " + b.command : "", b.keys ? "keys: " + keysText(b.keys) : "", b.other || ""]
        .filter((x) => x).join("; ") : "—";
      for (const text of [g.id, g.kind + (detail ? " (" + detail + ")" : ""), where, what]) {
        const td = document.createElement("td"); td.textContent = text; tr.append(td);
      }
      const td = document.createElement("td");
      if (b && d.editable) {
        const edit = document.createElement("button");
        edit.type = "button"; edit.textContent = "change"; edit.dataset.binding = b.index;
        edit.addEventListener("click", () => editBinding(b));
        td.append(edit);
      }
      tr.append(td); body.append(tr);
    }
  }
  const select = document.getElementById("b-gesture");
  const chosen = select.value;
  select.replaceChildren();
  for (const g of d.gestures || []) select.append(new Option(g.id, g.id));
  select.append(new Option("new gesture…", ""));
  if ([...select.options].some((o) => o.value === chosen)) select.value = chosen;
  const rules = document.getElementById("g-rule");
  rules.replaceChildren(new Option("", ""));
  for (const r of d.rules || []) rules.append(new Option(r, r));
  const regions = document.getElementById("region-names");
  regions.replaceChildren();
  for (const r of sceneRegionIds()) regions.append(new Option(r));
  showNewGesture();
}

function sceneRegionIds() {
  const out = [];
  const walk = (n) => { if (!n) return; if (n.id) out.push(n.id); for (const c of n.children || []) walk(c); };
  const r = state.scene && state.scene.regions;
  if (Array.isArray(r)) r.forEach(walk); else walk(r);
  return out;
}

function showNewGesture() {
  document.getElementById("new-gesture").hidden = document.getElementById("b-gesture").value !== "";
}

function editBinding(b) {
  settings.editing = b ? b.index : null;
  document.getElementById("binding-legend").textContent = b ? `Change binding ${b.index + 1} (line ${b.line})` : "Add a binding";
  document.getElementById("b-gesture").value = b ? b.gesture : document.getElementById("b-gesture").value;
  document.getElementById("b-command").value = b && b.command ? b.command : "";
  document.getElementById("b-keys").value = b ? keysText(b.keys) : "";
  showNewGesture();
}

/// Key-name completion: the datalist offers the names that complete the last key being typed.
function completeKeys() {
  const input = document.getElementById("b-keys");
  const text = input.value;
  const cut = Math.max(text.lastIndexOf("+"), text.lastIndexOf(","), text.lastIndexOf(" ")) + 1;
  const head = text.slice(0, cut), word = text.slice(cut).toLowerCase();
  const names = ((settings.data && settings.data.keyNames) || []).filter((n) => n.startsWith(word)).slice(0, 60);
  const list = document.getElementById("key-names");
  list.replaceChildren(...names.map((n) => new Option(head + n)));
}

async function saveBinding(event) {
  event.preventDefault();
  const d = settings.data || {};
  const error = document.getElementById("settings-error"), saved = document.getElementById("settings-saved");
  error.hidden = true; saved.textContent = "saving…";
  const gestureId = document.getElementById("b-gesture").value;
  const request = { version: d.version, binding: {
    gesture: gestureId, command: document.getElementById("b-command").value,
    keys: parseKeys(document.getElementById("b-keys").value) } };
  if (settings.editing !== null) request.binding.index = settings.editing;
  if (gestureId === "") {
    const id = document.getElementById("g-id").value.trim();
    const fingers = document.getElementById("g-fingers").value;
    request.gesture = { id, kind: document.getElementById("g-kind").value,
      direction: document.getElementById("g-direction").value,
      region: document.getElementById("g-region").value.trim(), rule: document.getElementById("g-rule").value };
    if (fingers !== "") request.gesture.fingers = Number(fingers);
    request.binding.gesture = id;
  }
  let reply, answer;
  try {
    reply = await fetch(settingsURL(), { method: "POST", headers: { "Content-Type": "application/json" },
                                         body: JSON.stringify(request) });
    answer = await reply.json();
  } catch (e) {
    answer = { error: "the save did not reach the view: " + e };
  }
  if (reply && reply.ok) {
    saved.textContent = `saved ${answer.saved} (the old file is ${answer.backup}); `
      + (answer.reloaded ? "the daemon reloaded it" : "the daemon refused the reload: " + answer.reload);
    editBinding(null);
    document.getElementById("b-command").value = ""; document.getElementById("b-keys").value = "";
    await loadSettings();
    if (gestureId === "") document.getElementById("b-gesture").value = request.gesture.id;
    showNewGesture();
  } else {
    saved.textContent = "";
    error.textContent = "not saved: " + (answer.error || "error") + (answer.lines && answer.lines.length
      ? "\n" + (answer.note || "") + "\n" + answer.lines.join("\n") : "");
    error.hidden = false;
  }
}

function setupSettings() {
  document.getElementById("binding-form").addEventListener("submit", saveBinding);
  document.getElementById("b-gesture").addEventListener("change", showNewGesture);
  document.getElementById("b-keys").addEventListener("input", completeKeys);
  document.getElementById("b-keys").addEventListener("focus", completeKeys);
  document.getElementById("b-new").addEventListener("click", () => editBinding(null));
  loadSettings();
}

setupReplayControls();
setupSettings();
connect();
requestAnimationFrame(frame);
