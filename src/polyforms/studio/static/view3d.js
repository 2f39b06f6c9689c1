// polyforms studio: a small 3D view of a packing of cubes on a canvas. No library.
//
// Every cube face that does not touch another cube of its own piece is a square;
// each frame turns the squares by the view's yaw (about the vertical) and pitch
// (tilt towards the viewer), projects them orthographically, drops those facing
// away, and paints the rest far to near (painter's order by the depth of the
// face's centre), shaded by the angle to a light from the upper left. "Explode"
// moves each piece away from the box's centre along the line through its own
// centre, so the inner pieces come into sight.
"use strict";

const View3D = (() => {
  // The six faces of a unit cube: outward normal and corners, in cell units.
  const FACES = [
    [[1, 0, 0], [[1, 0, 0], [1, 1, 0], [1, 1, 1], [1, 0, 1]]],
    [[-1, 0, 0], [[0, 0, 0], [0, 0, 1], [0, 1, 1], [0, 1, 0]]],
    [[0, 1, 0], [[0, 1, 0], [0, 1, 1], [1, 1, 1], [1, 1, 0]]],
    [[0, -1, 0], [[0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1]]],
    [[0, 0, 1], [[0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]]],
    [[0, 0, -1], [[0, 0, 0], [0, 1, 0], [1, 1, 0], [1, 0, 0]]],
  ];
  const LIGHT = normalise([-0.45, -0.6, 0.65]); // view space: x right, y away, z up

  function normalise([x, y, z]) {
    const length = Math.hypot(x, y, z) || 1;
    return [x / length, y / length, z / length];
  }

  function rgb(hex) {
    const value = parseInt(String(hex).replace("#", ""), 16) || 0x999999;
    return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
  }

  // The outer faces of each piece: [{piece, normal, corners, inner}], corners in
  // the model's frame (x right, y away from the viewer, z up: a layer's picture seen from
  // above has its rows running towards the viewer, so y is the picture's y reversed).
  // An inner face touches another piece: hidden until the pieces are pulled apart.
  function surfaces(placements, depth) {
    const faces = [];
    const every = new Set(placements.flatMap(([, cells]) => cells.map((c) => c.join(","))));
    placements.forEach(([name, cells], piece) => {
      const own = new Set(cells.map((c) => c.join(",")));
      for (const [x, y, z] of cells) {
        for (const [normal, corners] of FACES) {
          const [dx, dy, dz] = normal;
          const beside = `${x + dx},${y - dy},${z + dz}`;
          if (own.has(beside)) continue;
          const placed = corners.map(([u, v, w]) => [x + u, depth - 1 - y + v, z + w]);
          faces.push({ piece, name, normal, corners: placed, inner: every.has(beside) });
        }
      }
    });
    return faces;
  }

  function create(canvas) {
    const view = { yaw: -0.6, pitch: 0.55, explode: 0, faces: [], centres: [], colours: [], size: [1, 1, 1], drawn: 0 };
    const context = canvas.getContext("2d");

    function show(placements, colours, size) {
      const depth = size[1];
      view.size = size;
      view.faces = surfaces(placements, depth);
      view.colours = placements.map(([name]) => rgb(colours[name]));
      view.centres = placements.map(([, cells]) => {
        const sum = cells.reduce((s, [x, y, z]) => [s[0] + x + 0.5, s[1] + depth - y - 0.5, s[2] + z + 0.5], [0, 0, 0]);
        return sum.map((v) => v / cells.length);
      });
      draw();
    }

    function turn([x, y, z]) {
      // yaw about z, then pitch about x: the camera looks along +y, z up the screen.
      const cy = Math.cos(view.yaw), sy = Math.sin(view.yaw), cp = Math.cos(view.pitch), sp = Math.sin(view.pitch);
      const x1 = cy * x - sy * y, y1 = sy * x + cy * y;
      return [x1, cp * y1 - sp * z, sp * y1 + cp * z];
    }

    function draw() {
      const width = canvas.width, height = canvas.height;
      context.clearRect(0, 0, width, height);
      const [sx, sy, sz] = view.size;
      const middle = [sx / 2, sy / 2, sz / 2];
      const spread = 1 + 1.5 * view.explode;
      const reach = Math.hypot(sx, sy, sz) * spread;
      const scale = (1.15 * Math.min(width, height)) / reach;
      const shifts = view.centres.map((c) => c.map((v, k) => (v - middle[k]) * 1.5 * view.explode));
      const painted = [];
      for (const face of view.faces) {
        if (face.inner && !view.explode) continue;
        const normal = turn(face.normal);
        if (normal[1] >= 0) continue; // facing away from the viewer
        const shift = shifts[face.piece];
        const points = face.corners.map((p) => turn([p[0] - middle[0] + shift[0], p[1] - middle[1] + shift[1], p[2] - middle[2] + shift[2]]));
        const depthOf = points.reduce((s, p) => s + p[1], 0) / 4;
        painted.push({ face, normal, points, depthOf });
      }
      painted.sort((a, b) => b.depthOf - a.depthOf); // far first
      context.lineJoin = "round";
      context.lineWidth = 1;
      for (const { face, normal, points } of painted) {
        const light = Math.max(0, normal[0] * LIGHT[0] + normal[1] * LIGHT[1] + normal[2] * LIGHT[2]);
        const shade = 0.62 + 0.38 * light;
        const [r, g, b] = view.colours[face.piece];
        context.fillStyle = `rgb(${Math.round(r * shade)},${Math.round(g * shade)},${Math.round(b * shade)})`;
        context.strokeStyle = `rgba(30,30,40,0.55)`;
        context.beginPath();
        points.forEach(([x, , z], k) => {
          const px = width / 2 + x * scale, py = height / 2 - z * scale;
          if (k) context.lineTo(px, py); else context.moveTo(px, py);
        });
        context.closePath();
        context.fill();
        context.stroke();
      }
      view.drawn = painted.length;
      canvas.dataset.faces = String(painted.length);
      canvas.dataset.yaw = view.yaw.toFixed(3);
      canvas.dataset.pitch = view.pitch.toFixed(3);
    }

    let pending = false;
    function redraw() {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => { pending = false; draw(); });
    }

    function rotate(dYaw, dPitch) {
      view.yaw += dYaw;
      view.pitch = Math.max(-1.5, Math.min(1.5, view.pitch + dPitch));
      redraw();
    }

    let dragging = null;
    canvas.addEventListener("pointerdown", (event) => {
      dragging = { x: event.clientX, y: event.clientY };
      canvas.setPointerCapture(event.pointerId);
      event.preventDefault();
    });
    canvas.addEventListener("pointermove", (event) => {
      if (!dragging) return;
      rotate((event.clientX - dragging.x) * 0.01, (event.clientY - dragging.y) * 0.01);
      dragging = { x: event.clientX, y: event.clientY };
    });
    const release = () => { dragging = null; };
    canvas.addEventListener("pointerup", release);
    canvas.addEventListener("pointercancel", release);
    canvas.addEventListener("keydown", (event) => {
      const steps = { ArrowLeft: [-0.1, 0], ArrowRight: [0.1, 0], ArrowUp: [0, -0.1], ArrowDown: [0, 0.1] };
      if (!steps[event.key]) return;
      event.preventDefault();
      rotate(...steps[event.key]);
    });

    return {
      show,
      setExplode(fraction) { view.explode = Math.max(0, Math.min(1, fraction)); redraw(); },
      rotate,
      view,
    };
  }

  return { create, surfaces };
})();
