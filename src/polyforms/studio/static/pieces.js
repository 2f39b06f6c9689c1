// polyforms studio: the piece editor, after studio.js (whose state, api and
// helpers it uses). A small grid of the board's lattice: click cells to draw a
// piece, name it, add it to the set; the drawn pieces travel in the puzzle
// ("custom"), its file and its address.
"use strict";

// The editor's grid, by lattice.
const EDITOR_GRID = { square: [5, 5], triangle: [4, 4], hex: [4, 4] };

function polygonsSvg(svg, shapes, scale, onKey) {
  svg.replaceChildren();
  let left = Infinity, top = Infinity, right = -Infinity, bottom = -Infinity;
  for (const [, points] of shapes) for (const [x, y] of points) {
    left = Math.min(left, x); top = Math.min(top, y); right = Math.max(right, x); bottom = Math.max(bottom, y);
  }
  svg.setAttribute("width", Math.ceil((right - left + 0.4) * scale));
  svg.setAttribute("height", Math.ceil((bottom - top + 0.4) * scale));
  for (const [cell, points] of shapes) {
    const polygon = document.createElementNS(SVG, "polygon");
    polygon.setAttribute("points", points.map(([x, y]) => `${(x - left + 0.2) * scale},${(y - top + 0.2) * scale}`).join(" "));
    polygon.dataset.key = keyOf(cell);
    if (onKey) onKey(polygon, cell);
    svg.appendChild(polygon);
  }
}

// The grid grows to hold a drawn piece loaded back into it (cells from the origin).
async function setEditor(lattice, cells = []) {
  const [rows, cols] = EDITOR_GRID[lattice].map((side, k) => Math.max(side, ...cells.map((c) => c[1 - k] + 1)));
  const grid = await api("/api/grid", { lattice, rows, cols });
  state.editor = { lattice, cells: new Map(), on: new Set() };
  polygonsSvg($("piece-grid"), grid.cells, lattice === "triangle" ? 26 : 22, (polygon, cell) => {
    state.editor.cells.set(polygon.dataset.key, cell);
    polygon.addEventListener("click", () => {
      const key = polygon.dataset.key;
      if (state.editor.on.has(key)) state.editor.on.delete(key); else state.editor.on.add(key);
      polygon.classList.toggle("on", state.editor.on.has(key));
    });
  });
  if (lattice !== state.lattice) setCustom([]);
}

// A drawn piece back in the editor, moved to the grid's corner, under its name: added
// again under that name, the changed piece takes its place.
async function editPiece(piece) {
  const left = Math.min(...piece.cells.map((c) => c[0])), top = Math.min(...piece.cells.map((c) => c[1]));
  const cells = piece.cells.map(([x, y, ...rest]) => [x - left, y - top, ...rest]);
  await setEditor(state.lattice, cells);
  for (const cell of cells) {
    const key = keyOf(cell);
    state.editor.on.add(key);
    const polygon = $("piece-grid").querySelector(`polygon[data-key='${key}']`);
    if (polygon) polygon.classList.add("on");
  }
  $("piece-name").value = piece.name;
  showResult(`piece ${escapeText(piece.name)} is in the editor: change it and add it again`);
}

function clearEditor() {
  state.editor.on.clear();
  for (const polygon of $("piece-grid").querySelectorAll("polygon.on")) polygon.classList.remove("on");
}

function freeName() {
  const taken = new Set(state.custom.map((piece) => piece.name));
  for (const name of "ABCDEFGHIJKLMNOPQRSTUVWXYZ") if (!taken.has(name + "1")) return name + "1";
  return `P${state.custom.length + 1}`;
}

async function addPiece() {
  const cells = [...state.editor.on].map((key) => state.editor.cells.get(key));
  if (!cells.length) return showError("draw the piece first: click cells of the small grid");
  const name = $("piece-name").value.trim() || freeName();
  const replaced = state.custom.some((piece) => piece.name === name);
  const custom = replaced ? state.custom.map((piece) => (piece.name === name ? { name, cells } : piece))
    : [...state.custom, { name, cells }];
  try {
    await api("/api/puzzle", { ...puzzle(), custom }); // the server's check: connected, name free
  } catch (error) {
    return showError(error.message);
  }
  setCustom(custom);
  clearEditor();
  $("piece-name").value = "";
  showResult(`piece ${escapeText(name)} ${replaced ? "replaced" : "added"}`);
  share();
}

function setCustom(custom) {
  state.custom = custom;
  const list = $("custom-list");
  list.replaceChildren();
  for (const piece of custom) {
    const item = document.createElement("div");
    item.className = "custom-piece";
    item.dataset.name = piece.name;
    const picture = document.createElementNS(SVG, "svg");
    const label = document.createElement("span");
    label.textContent = piece.name;
    const remove = document.createElement("button");
    remove.textContent = "×";
    remove.title = `remove ${piece.name}`;
    remove.className = "remove-piece";
    remove.onclick = (event) => { event.stopPropagation(); setCustom(state.custom.filter((p) => p !== piece)); share(); };
    item.title = `click to change ${piece.name} in the editor`;
    item.onclick = () => editPiece(piece).catch((error) => showError(error.message));
    item.append(picture, label, remove);
    list.appendChild(item);
    api("/api/grid", { lattice: state.lattice, cells: piece.cells })
      .then((shape) => polygonsSvg(picture, shape.cells, 12))
      .catch(() => {});
  }
  const only = $("pieces").querySelector("option[value='']");
  if (only) only.disabled = !custom.length;
}

$("add-piece").onclick = addPiece;
$("clear-piece").onclick = clearEditor;
