// polyforms studio: boxes of cubes. The board of a box is its layers side by side
// (/api/box), drawn, painted, undone and shared by studio.js as any board; this file
// adds the layer controls, the solid piece sets, the 3D view of a listed packing
// (view3d.js), its export (/api/export) and BurrTools files (/api/xmpuzzle).
// Loaded before studio.js: its functions use studio.js's names only when called.
"use strict";

const Solids = (() => {
  const local = { sets: {}, view: null, packings: null, chosen: 0, maxSide: 40 };

  function wire() {
    $("add-layer").onclick = () => addLayer().catch((e) => showError(e.message));
    $("remove-layer").onclick = () => removeLayer().catch((e) => showError(e.message));
    $("explode").oninput = () => local.view && local.view.setExplode(Number($("explode").value) / 100);
    for (const format of ["stl", "obj", "glb", "svg"]) $(`export-${format}`).onclick = () => exportPacking(format);
    $("open-xmpuzzle").onchange = openBurrTools;
    $("burrtools-save").onclick = saveBurrTools;
  }

  async function start() {
    wire();
    const info = await api("/api/solids");
    local.sets = info.sets;
    PRESETS.cube = info.presets; // rows x columns x layers
    local.maxSide = info.max_side;
    $("layers").max = info.max_side;
  }

  function sets() {
    const found = {};
    for (const name of Object.keys(local.sets)) found[name] = "cube";
    if (state.shapes.length) found.own = "cube";
    return found;
  }

  function fields() {
    const pieces = $("pieces").value;
    return { layers: state.layers, shapes: pieces === "own" ? state.shapes : [] };
  }

  function showControls() {
    const solid = state.lattice === "cube";
    for (const id of ["layers-row", "burrtools-save"]) $(id).hidden = !solid;
    $("layers").value = state.layers;
    if (!solid) hidePackings();
  }

  function boardInfo() {
    const layers = state.layers === 1 ? "1 layer" : `${state.layers} layers, z = 0 at the left`;
    return `${number(state.on.size)} cubes in a ${state.rows} × ${state.cols} × ${state.layers} box (${layers})`;
  }

  // -- layers ------------------------------------------------------------------------

  function cellsOn() {
    return state.grid.filter((c) => state.on.has(c.key)).map((c) => c.cell);
  }

  async function addLayer() {
    if (state.layers >= local.maxSide) return;
    const top = [];
    for (let y = 0; y < state.rows; y++) for (let x = 0; x < state.cols; x++) top.push([x, y, state.layers]);
    await setGrid("cube", state.rows, state.cols, [...cellsOn(), ...top], state.layers + 1);
  }

  async function removeLayer() {
    if (state.layers <= 1) return;
    const kept = cellsOn().filter(([, , z]) => z < state.layers - 1);
    await setGrid("cube", state.rows, state.cols, kept, state.layers - 1);
  }

  // -- the 3D view of a listed packing ----------------------------------------------------

  function hidePackings() {
    local.packings = null;
    $("view3d").hidden = true;
    $("pictures").classList.remove("solid");
  }

  function showPackings(result) {
    if (!result.placements) { hidePackings(); return; }
    local.packings = result;
    $("pictures").classList.add("solid");
    [...$("pictures").children].forEach((figure, k) => {
      figure.title = "show in the 3D view";
      figure.onclick = () => choose(k);
    });
    if (!result.placements.length) { $("view3d").hidden = true; return; }
    $("view3d").hidden = false;
    if (!local.view) local.view = View3D.create($("view3d-canvas"));
    choose(0);
  }

  function choose(k) {
    const result = local.packings;
    local.chosen = k;
    [...$("pictures").children].forEach((figure, i) => figure.classList.toggle("chosen", i === k));
    local.view.setExplode(Number($("explode").value) / 100);
    local.view.show(result.placements[k], result.colours, result.size);
    $("view3d-caption").textContent = `packing #${number(result.offset + k + 1)}: drag to turn it, or use the arrow keys`;
  }

  // -- files ------------------------------------------------------------------------------

  async function fetchBytes(path, body, headers = {}) {
    const response = await fetch(path, {
      method: "POST", body,
      headers: { "X-Studio-Token": token, ...headers },
    });
    if (!response.ok) {
      const value = await response.json().catch(() => ({ error: response.statusText }));
      throw new Error(value.error || response.statusText);
    }
    return response;
  }

  function downloadBlob(blob, name) {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = name;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }

  async function exportPacking(format) {
    const result = local.packings;
    if (!result) return;
    const palette = $("colour-blind").checked ? "colour-blind" : "default";
    const body = JSON.stringify({ format, palette, placements: result.placements[local.chosen] });
    try {
      const response = await fetchBytes("/api/export", body, { "Content-Type": "application/json" });
      downloadBlob(await response.blob(), `packing-${result.offset + local.chosen + 1}.${format}`);
      $("status").textContent = `exported packing #${number(result.offset + local.chosen + 1)} as ${format}`;
    } catch (error) {
      showError(error.message);
    }
  }

  async function openBurrTools(event) {
    const file = event.target.files[0];
    if (!file) return;
    try {
      const response = await fetchBytes("/api/xmpuzzle/read", await file.arrayBuffer(), {
        "Content-Type": "application/octet-stream", "X-File-Name": file.name.slice(0, 80),
      });
      await load(await response.json());
      $("status").textContent = `opened ${file.name}`;
      share();
    } catch (error) {
      showError(`${file.name}: ${error.message}`);
    }
    event.target.value = "";
  }

  async function saveBurrTools() {
    try {
      const response = await fetchBytes("/api/xmpuzzle", JSON.stringify(puzzle()), { "Content-Type": "application/json" });
      downloadBlob(await response.blob(), "puzzle.xmpuzzle");
    } catch (error) {
      showError(error.message);
    }
  }

  return { start, sets, fields, showControls, boardInfo, showPackings, hidePackings };
})();
