// polyforms studio: the page. Plain JavaScript, no build step, no libraries.
// The board is drawn from the cells and polygons the server gives (/api/grid), so
// squares, triangles and hexagons are drawn alike; every run is a job whose state
// the server pushes as it changes (/api/jobs/ID/events, server-sent events), and a
// reloaded page finds its runs again (/api/jobs).
"use strict";

const fragment = new URLSearchParams(location.hash.slice(1));
const token = fragment.get("token") || "";
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const PRESETS = {
  square: ["6x10", "5x12", "4x15", "3x20", "8x8"],
  triangle: ["6x6", "4x9", "3x12", "2x18"],
  hex: ["4x7", "2x14", "4x4", "5x5"],
};
const DEFAULT_SET = { square: "pentominoes", triangle: "hexiamonds", hex: "tetrahexes", cube: "soma" };
// A count the server's short estimate forecasts as longer than this asks first.
const ASK_SECONDS = 10;

const state = {
  info: null,
  lattice: "square", rows: 6, cols: 10,
  layers: 1, shapes: [], // a box of cubes: its layers and own pieces (solids.js)
  grid: [],            // [{key, cell, points}]
  on: new Set(),       // keys of the board's cells
  undo: [], redo: [],
  job: null,           // the run being followed
  source: null,        // its event stream
  custom: [],          // drawn pieces: [{name, cells}]
  heat: false,         // a by-open map is on the board
  listing: null,       // {distinct, offset, limit}
  polygons: new Map(), // key -> polygon element
};

async function api(path, body) {
  const options = { headers: { "X-Studio-Token": token } };
  if (body !== undefined) {
    options.method = "POST";
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const value = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(value.error || response.statusText);
  return value;
}

const keyOf = (cell) => cell.join(",");
const number = (n) => Number(n).toLocaleString("en-US");

function puzzle() {
  const cells = state.grid.filter((c) => state.on.has(c.key)).map((c) => c.cell);
  return {
    format: "polyforms-studio", version: 1,
    lattice: state.lattice, rows: state.rows, cols: state.cols, cells,
    pieces: $("pieces").value,
    rotations: $("rotations").checked, reflections: $("reflections").checked,
    copies: Number($("copies").value) || 1, counts: $("counts").value.trim(),
    optional: $("optional").checked,
    open: Number($("open").value) || 0,
    // A box has its own fields (solids.js); pieces are drawn on the plane lattices.
    ...(state.lattice === "cube" ? Solids.fields() : { custom: state.custom }),
  };
}

// -- share: the puzzle in the URL fragment ---------------------------------------
// Beside the token, "puzzle=" holds the puzzle as base64url JSON, its board a bit
// mask over the drawing grid's cells (a 100 x 100 board: under 2 KB), rewritten on
// every change (replaceState: no history entry per click) and read on load.

function base64url(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
function unbase64url(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function shareText() {
  const { cells, ...rest } = puzzle();
  const mask = new Uint8Array(Math.ceil(state.grid.length / 8));
  state.grid.forEach((c, i) => { if (state.on.has(c.key)) mask[i >> 3] |= 1 << (i & 7); });
  return base64url(new TextEncoder().encode(JSON.stringify({ ...rest, mask: base64url(mask) })));
}

let shareTimer = null;
function share() {
  if (!document.body.dataset.ready) return; // not while the page loads its puzzle
  clearTimeout(shareTimer);
  shareTimer = setTimeout(() => {
    history.replaceState(null, "", `#token=${encodeURIComponent(token)}&puzzle=${shareText()}`);
  }, 100);
}

async function sharedPuzzle(text) {
  let value;
  try {
    value = JSON.parse(new TextDecoder().decode(unbase64url(text)));
  } catch {
    throw new Error("the puzzle in the address is damaged");
  }
  if (!value || typeof value !== "object" || typeof value.mask !== "string") {
    throw new Error("the puzzle in the address is damaged");
  }
  const grid = await gridOf(value.lattice, value.rows, value.cols, value.layers);
  const mask = unbase64url(value.mask);
  const { mask: _, ...rest } = value;
  return { ...rest, cells: grid.cells.map(([cell]) => cell).filter((_, i) => (mask[i >> 3] >> (i & 7)) & 1) };
}

// -- the board ------------------------------------------------------------------

// A box of cubes is drawn as its layers side by side (/api/box, solids.js).
const gridOf = (lattice, rows, cols, layers) => lattice === "cube"
  ? api("/api/box", { rows, cols, layers }) : api("/api/grid", { lattice, rows, cols });

let gridTicket = 0;
async function setGrid(lattice, rows, cols, cells, layers = 1) {
  const ticket = ++gridTicket;
  const grid = await gridOf(lattice, rows, cols, layers);
  if (ticket !== gridTicket) return; // a later board was asked for meanwhile
  // The piece editor draws on the plane lattices; a box takes solid sets.
  $("editor").hidden = lattice === "cube";
  if (lattice === "cube") {
    if (state.lattice !== "cube") setCustom([]);
  } else if (lattice !== state.lattice || !state.editor) {
    await setEditor(lattice);
  }
  if (ticket !== gridTicket) return;
  Object.assign(state, { lattice, rows, cols, layers });
  Solids.showControls();
  if (typeof fillPrintFormats === "function") fillPrintFormats(); // print.js: by lattice
  state.grid = grid.cells.map(([cell, points]) => ({ key: keyOf(cell), cell, points }));
  state.on = new Set(cells ? cells.map(keyOf) : state.grid.map((c) => c.key));
  state.undo = []; state.redo = [];
  $("lattice").value = lattice; $("rows").value = rows; $("cols").value = cols;
  fillPieceSets();
  fillPresets();
  drawBoard();
  share();
}

function drawBoard() {
  const board = $("board");
  board.replaceChildren();
  state.heat = false;
  $("legend").textContent = "";
  $("export-heat").hidden = true;
  state.polygons.clear();
  let right = 0, bottom = 0;
  for (const c of state.grid) for (const [x, y] of c.points) { right = Math.max(right, x); bottom = Math.max(bottom, y); }
  const room = Math.max(320, Math.min(900, $("work").clientWidth - 4));
  const scale = Math.max(4, Math.min(44, room / (right + 0.4), 560 / (bottom + 0.4)));
  board.setAttribute("width", Math.ceil((right + 0.4) * scale));
  board.setAttribute("height", Math.ceil((bottom + 0.4) * scale));
  const fragment = document.createDocumentFragment();
  for (const c of state.grid) {
    const polygon = document.createElementNS(SVG, "polygon");
    polygon.setAttribute("points", c.points.map(([x, y]) => `${(x + 0.2) * scale},${(y + 0.2) * scale}`).join(" "));
    polygon.dataset.key = c.key;
    if (state.on.has(c.key)) polygon.classList.add("on");
    state.polygons.set(c.key, polygon);
    fragment.appendChild(polygon);
  }
  board.appendChild(fragment);
  state.scale = scale;
  showBoardInfo();
}

function showBoardInfo() {
  $("board-info").textContent = state.lattice === "cube" ? Solids.boardInfo()
    : `${number(state.on.size)} cells on a ${state.rows} × ${state.cols} ${state.lattice} grid`;
  $("open").max = state.on.size;
}

function remember() {
  state.undo.push(new Set(state.on));
  if (state.undo.length > 200) state.undo.shift();
  state.redo = [];
}

function setOn(next) {
  for (const [key, polygon] of state.polygons) polygon.classList.toggle("on", next.has(key));
  state.on = next;
  clearHeat();
  showBoardInfo();
  share();
}

let painting = null; // {adding, changed}
function cellAt(event) {
  const target = document.elementFromPoint(event.clientX, event.clientY);
  return target && target.tagName === "polygon" && target.dataset.key ? target : null;
}
function paint(polygon) {
  const key = polygon.dataset.key;
  if (state.on.has(key) === painting.adding) return;
  if (!painting.changed) { remember(); painting.changed = true; clearHeat(); }
  if (painting.adding) state.on.add(key); else state.on.delete(key);
  polygon.classList.toggle("on", painting.adding);
  showBoardInfo();
  share();
}
$("board").addEventListener("pointerdown", (event) => {
  const polygon = cellAt(event);
  if (!polygon) return;
  event.preventDefault();
  painting = { adding: !state.on.has(polygon.dataset.key), changed: false };
  paint(polygon);
});
$("board").addEventListener("pointermove", (event) => {
  if (!painting || !event.buttons) return;
  const polygon = cellAt(event);
  if (polygon) paint(polygon);
});
window.addEventListener("pointerup", () => { painting = null; });

function undo() { if (state.undo.length) { state.redo.push(new Set(state.on)); setOn(state.undo.pop()); } }
function redo() { if (state.redo.length) { state.undo.push(new Set(state.on)); setOn(state.redo.pop()); } }

// -- heat map (by open) ------------------------------------------------------------

function clearHeat() {
  if (!state.heat) return; // a click on a large board repaints its one cell only
  state.heat = false;
  for (const polygon of state.polygons.values()) polygon.style.fill = "";
  for (const text of $("board").querySelectorAll("text")) text.remove();
  $("legend").textContent = "";
  $("export-heat").hidden = true;
}

function heatColour(value, most) {
  if (!value) return "#e4e4e4";
  const t = most ? value / most : 0;
  return `hsl(${Math.round(55 - 55 * t)}, 90%, ${Math.round(80 - 35 * t)}%)`;
}

function showHeat(result) {
  clearHeat();
  state.heat = true;
  const most = Math.max(0, ...result.heat.map(([, v]) => v));
  const centres = new Map(state.grid.map((c) => [c.key, c.points]));
  for (const [cell, value] of result.heat) {
    const key = keyOf(cell);
    const polygon = state.polygons.get(key);
    if (!polygon) continue;
    polygon.style.fill = heatColour(value, most);
    if (state.scale >= 22) {
      const points = centres.get(key);
      const x = points.reduce((s, p) => s + p[0], 0) / points.length;
      const y = points.reduce((s, p) => s + p[1], 0) / points.length;
      const text = document.createElementNS(SVG, "text");
      text.setAttribute("x", (x + 0.2) * state.scale);
      text.setAttribute("y", (y + 0.2) * state.scale);
      text.textContent = value;
      $("board").appendChild(text);
    }
  }
  $("legend").textContent = `heat: tilings with the cell open, 0 (grey) to ${number(most)} (red)`;
}

// -- runs ----------------------------------------------------------------------------

function busy(running) {
  $("stop").disabled = !running;
  for (const id of ["estimate", "count-all", "count-distinct", "list", "by-open"]) $(id).disabled = running;
}

function showResult(html) { $("result").innerHTML = html; }
function showError(message) {
  const span = document.createElement("span");
  span.className = "error";
  span.textContent = message;
  $("result").replaceChildren(span);
}

async function run(kind, params) {
  showResult("");
  try {
    const job = await api("/api/jobs", { kind, puzzle: puzzle(), params });
    follow(job);
  } catch (error) {
    showError(error.message);
  }
}

function closeStream() {
  if (state.source) { state.source.close(); state.source = null; }
}

// Follow a run by its event stream: the server sends the run's state each time it
// changes and closes the stream with the last one, which holds the result.
function follow(job) {
  closeStream();
  state.job = job;
  busy(true);
  $("status").textContent = `${job.kind}: running…`;
  showProgress(job);
  const source = new EventSource(`/api/jobs/${job.id}/events?token=${encodeURIComponent(token)}`);
  state.source = source;
  source.onmessage = (event) => {
    if (state.source !== source) return;
    const now = JSON.parse(event.data);
    if (now.state === "running") { showProgress(now); return; }
    closeStream();
    finish(now);
  };
  source.onerror = () => {
    // The stream broke (the server stopped or restarted): ask once where the run is.
    if (state.source !== source) return;
    closeStream();
    api(`/api/jobs/${job.id}`).then((now) => (now.state === "running" ? follow(now) : finish(now)))
      .catch((error) => { state.job = null; busy(false); showError(error.message); });
  };
}

function showProgress(job) {
  $("status").textContent = `${job.kind}: running… ${job.seconds.toFixed(1)} s${progressText(job.progress)}`;
  if (job.progress) { $("bar").hidden = false; $("bar").value = job.progress.fraction; }
}

function progressText(progress) {
  if (!progress) return "";
  const eta = progress.eta === null ? "" : `, about ${duration(progress.eta)} to go`;
  const done = progress.total > 1 ? ` (${number(progress.done)} of ${number(progress.total)} ${progress.unit})` : "";
  return ` · ${(100 * progress.fraction).toFixed(1)} %${eta}${done}`;
}
function duration(seconds) {
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 2 * 86400) return `${(seconds / 3600).toFixed(1)} h`;
  if (seconds < 2 * 31557600) return `${number(Math.round(seconds / 86400))} days`;
  return `${number(Math.round(seconds / 31557600))} years`;
}

// A count forecast as long: the forecast and the question whether to go on.
function askToGoOn(job) {
  const { forecast } = job.result;
  const tilings = forecast.tilings === null ? "an unknown number of" : `about ${number(Math.round(forecast.tilings))}`;
  const bound = forecast.memoized ? "at most " : "about ";
  const box = document.createElement("div");
  box.id = "ask";
  box.textContent = `This count may take ${bound}${duration(forecast.seconds)} (${tilings} tilings). `;
  const go = document.createElement("button");
  go.id = "go-on";
  go.textContent = "Go on";
  go.onclick = () => run("count", { distinct: job.params.distinct, ask_over: null });
  const cancel = document.createElement("button");
  cancel.id = "cancel";
  cancel.textContent = "Cancel";
  cancel.onclick = () => showResult("");
  box.append(go, " ", cancel);
  $("result").replaceChildren(box);
}

function finish(job) {
  if (state.job && state.job.id === job.id) closeStream();
  state.job = null;
  busy(false);
  $("bar").hidden = true;
  $("status").textContent = `${job.kind}: ${job.state} in ${job.seconds.toFixed(2)} s`;
  if (job.state === "error") return showError(job.error);
  if (job.state !== "done") return;
  const result = job.result;
  if (result.impossible) return showError(`no tiling: ${result.impossible}`);
  if (job.kind === "count" && result.forecast) {
    $("status").textContent = "count: forecast";
    askToGoOn(job);
  } else if (job.kind === "count") {
    const what = job.params.distinct ? "distinct tilings" : "tilings";
    showResult(`<span class="number" id="total">${number(result.total)}</span> ${what}`);
  } else if (job.kind === "estimate") {
    const tilings = result.tilings === null ? "unknown" : `about ${number(Math.round(result.tilings))}`;
    showResult(`${tilings} tilings; the count's search: about ${number(Math.round(result.nodes))} nodes, ` +
      `${result.seconds < 1 ? "under a second" : `about ${number(Math.round(result.seconds))} s`}` +
      (result.memoized ? " (an upper bound: the count memoizes)" : ""));
  } else if (job.kind === "list") {
    showPictures(job.params, result);
  } else if (job.kind === "by-open") {
    showHeat(result);
    state.heatSvg = result.svg;
    $("export-heat").hidden = !result.svg;
    showResult(escapeText(result.summary));
  }
}

function escapeText(text) {
  const span = document.createElement("span");
  span.textContent = text;
  return span.innerHTML;
}

function showPictures(params, result) {
  state.listing = params;
  state.page = { params, result };
  const pictures = $("pictures");
  pictures.replaceChildren();
  result.svgs.forEach((svg, i) => {
    const figure = document.createElement("figure");
    figure.innerHTML = svg; // drawn by the library: our own SVG, no user text in it
    const caption = document.createElement("figcaption");
    caption.textContent = `#${number(params.offset + i + 1)}`;
    figure.appendChild(caption);
    pictures.appendChild(figure);
  });
  const first = params.offset + 1, last = params.offset + result.svgs.length;
  $("pager").hidden = false;
  $("page").textContent = result.svgs.length
    ? `${params.distinct ? "distinct tilings" : "tilings"} ${number(first)}–${number(last)}`
    : "no tilings here";
  $("prev").disabled = params.offset === 0;
  $("next").disabled = !result.more;
  showResult(`${result.svgs.length ? `${number(last)} shown so far` : "none"}${result.more ? ", more follow" : ""}`);
  Solids.showPackings(result); // packings of cubes: the 3D view (solids.js)
}

function listPage(offset) {
  const limit = state.info ? Math.min(12, state.info.max_page) : 12;
  const palette = $("colour-blind").checked ? "colour-blind" : "default";
  run("list", { distinct: $("distinct").checked, offset: Math.max(0, offset), limit, palette });
}

function download(text, name, type) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

function exportPage(format) {
  if (!state.page) return;
  const { params, result } = state.page;
  const last = params.offset + result.svgs.length;
  const types = { jsonl: "application/jsonl", svg: "image/svg+xml", txt: "text/plain" };
  // svg: the page's tilings as one sheet (the listing's "sheet").
  download(result[format === "svg" ? "sheet" : format], `tilings-${params.offset + 1}-${last}.${format}`,
    types[format]);
}
$("export-txt").onclick = () => exportPage("txt");
$("export-jsonl").onclick = () => exportPage("jsonl");
$("export-sheet").onclick = () => exportPage("svg");
$("export-heat").onclick = () => state.heatSvg && download(state.heatSvg, "open-map.svg", "image/svg+xml");
$("colour-blind").onchange = () => { if (state.listing) listPage(state.listing.offset); };

$("estimate").onclick = () => run("estimate", {});
$("count-all").onclick = () => run("count", { distinct: false, ask_over: ASK_SECONDS });
$("count-distinct").onclick = () => run("count", { distinct: true, ask_over: ASK_SECONDS });
$("list").onclick = () => listPage(0);
$("prev").onclick = () => state.listing && listPage(state.listing.offset - state.listing.limit);
$("next").onclick = () => state.listing && listPage(state.listing.offset + state.listing.limit);
$("by-open").onclick = () => {
  if (!(Number($("open").value) > 0)) $("open").value = 1;
  run("by-open", {});
};
$("stop").onclick = async () => {
  const job = state.job;
  if (!job) return;
  try { finish(await api(`/api/jobs/${job.id}/stop`, {})); } catch (error) { showError(error.message); }
};

// -- the controls ------------------------------------------------------------------

function fillPieceSets() {
  const select = $("pieces");
  const before = select.value;
  select.replaceChildren();
  for (const [name, lattice] of Object.entries(state.lattice === "cube" ? Solids.sets() : state.info.sets)) {
    if (lattice !== state.lattice) continue;
    select.appendChild(new Option(name, name));
  }
  const only = new Option("(drawn pieces only)", "");
  only.disabled = !state.custom.length;
  select.appendChild(only);
  const names = [...select.options].map((o) => o.value);
  const keep = names.includes(before) && (before !== "" || state.custom.length);
  select.value = keep ? before : DEFAULT_SET[state.lattice];
}

function fillPresets() {
  const box = $("presets");
  box.replaceChildren();
  for (const preset of PRESETS[state.lattice]) {
    const button = document.createElement("button");
    button.textContent = preset;
    button.dataset.preset = preset;
    button.onclick = () => {
      const [rows, cols, layers] = preset.split("x").map(Number);
      setGrid(state.lattice, rows, cols, undefined, layers).catch((e) => showError(e.message));
    };
    box.appendChild(button);
  }
}

$("lattice").onchange = () => {
  const [rows, cols, layers] = PRESETS[$("lattice").value][0].split("x").map(Number);
  setGrid($("lattice").value, rows, cols, undefined, layers).catch((e) => showError(e.message));
};
$("resize").onclick = () => setGrid(state.lattice, Number($("rows").value), Number($("cols").value),
  undefined, Number($("layers").value)).catch((e) => showError(e.message));
$("fill").onclick = () => { remember(); setOn(new Set(state.grid.map((c) => c.key))); };
$("clear").onclick = () => { remember(); setOn(new Set()); };
$("undo").onclick = undo;
$("redo").onclick = redo;
document.addEventListener("keydown", (event) => {
  if (!(event.ctrlKey || event.metaKey) || event.target.tagName === "INPUT") return;
  if (event.key === "z" && !event.shiftKey) { event.preventDefault(); undo(); }
  if (event.key === "y" || (event.key === "z" && event.shiftKey)) { event.preventDefault(); redo(); }
});

async function load(value) {
  const checked = await api("/api/puzzle", value);
  state.shapes = checked.shapes || [];
  await setGrid(checked.lattice, checked.rows, checked.cols, checked.cells, checked.layers);
  setCustom(checked.custom || []);
  $("pieces").value = checked.pieces;
  $("rotations").checked = checked.rotations;
  $("reflections").checked = checked.reflections;
  $("copies").value = checked.copies;
  $("counts").value = checked.counts || "";
  $("optional").checked = checked.optional;
  $("open").value = checked.open;
}

$("save").onclick = async () => {
  try { const saved = await api("/api/save", puzzle()); $("status").textContent = `saved to ${saved.saved}`; }
  catch (error) { showError(error.message); }
};
$("download").onclick = () => {
  const blob = new Blob([JSON.stringify(puzzle(), null, 1)], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = "puzzle.json";
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
};
$("open-file").onchange = async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  try { await load(JSON.parse(await file.text())); $("status").textContent = `opened ${file.name}`; }
  catch (error) { showError(`${file.name}: ${error.message}`); }
  event.target.value = "";
};

for (const id of ["pieces", "rotations", "reflections", "copies", "counts", "optional", "open"]) {
  $(id).addEventListener("change", share);
}

// A reloaded page (the same token) shows the last finished listing and the last
// other finished result the server kept, then follows a run still going.
async function findRuns() {
  const { jobs } = await api("/api/jobs");
  const finished = jobs.filter((job) => job.state === "done");
  const lastList = finished.filter((job) => job.kind === "list").pop();
  const lastOther = finished.filter((job) => job.kind !== "list").pop();
  for (const job of [lastList, lastOther]) {
    if (job) finish(await api(`/api/jobs/${job.id}`));
  }
  const running = jobs.filter((job) => job.state === "running").pop();
  if (running) follow(running);
}

async function start() {
  if (!token) { showError("no token: open the address the polyforms studio command printed"); return; }
  try {
    state.info = await api("/api/info");
    await Solids.start();
    $("file").textContent = state.info.file || "";
    $("save").disabled = !state.info.file;
    const shared = fragment.get("puzzle");
    let problem = null;
    if (shared) {
      try { await load(await sharedPuzzle(shared)); } catch (error) { problem = `shared puzzle: ${error.message}`; }
    }
    if (!shared || problem) {
      if (state.info.puzzle) await load(state.info.puzzle);
      else await setGrid("square", 6, 10);
    }
    await findRuns();
    document.body.dataset.ready = "1";
    if (problem) showError(problem); else share();
  } catch (error) {
    showError(error.message);
  }
}
// After every script of the page (pieces.js) has run.
document.addEventListener("DOMContentLoaded", start);
