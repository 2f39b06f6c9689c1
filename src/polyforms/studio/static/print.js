// polyforms studio: the pieces to print, after studio.js and solids.js. "Pieces" asks
// /api/pieces for the puzzle's pieces: a plane puzzle's sheet in millimetres opens in
// a new tab (the browser prints it at that size); a box's model (stl, obj, glb) or
// picture is downloaded. The server touches no file: the bytes come back to the page.
"use strict";

const PRINT_FORMATS = { plane: ["svg"], cube: ["stl", "obj", "glb", "svg"] };

function fillPrintFormats() {
  const select = $("print-format");
  const formats = PRINT_FORMATS[state.lattice === "cube" ? "cube" : "plane"];
  if ([...select.options].map((o) => o.value).join() === formats.join()) return;
  select.replaceChildren(...formats.map((f) => new Option(f === "svg" ? "svg sheet" : `${f} model`, f)));
}

async function printPieces() {
  fillPrintFormats();
  const format = $("print-format").value;
  const size = Number($("print-size").value) || 20;
  const palette = $("colour-blind").checked ? "colour-blind" : "default";
  const body = { puzzle: puzzle(), format, palette, ...(state.lattice === "cube" ? { edge: size } : { cell: size }) };
  const response = await fetch("/api/pieces", {
    method: "POST", body: JSON.stringify(body),
    headers: { "X-Studio-Token": token, "Content-Type": "application/json" },
  });
  if (!response.ok) {
    const value = await response.json().catch(() => ({ error: response.statusText }));
    throw new Error(value.error || response.statusText);
  }
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  if (format === "svg" && state.lattice !== "cube") {
    window.open(url, "_blank"); // the sheet at its size in millimetres, to print
    $("status").textContent = `pieces: a sheet with ${size} mm cells opened in a new tab`;
  } else {
    const link = document.createElement("a");
    link.href = url;
    link.download = `pieces.${format}`;
    link.click();
    $("status").textContent = `pieces: downloaded pieces.${format}`;
  }
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

$("print-pieces").onclick = () => printPieces().catch((error) => showError(error.message));
$("print-format").onfocus = fillPrintFormats;
