// The Map view: the top-down picture (render's, the 3D skybox left out) with a marker per
// entity placed from the picture's frame. Wheel or +/- zooms (around the pointer), dragging or
// the arrow keys pan, 0 fits the picture; clicking a marker selects its entity (the Entities
// view follows). The markers are drawn on a canvas over the picture, so ten thousand of them
// zoom as fast as a few. The picture is asked for only when this view is shown: the page is
// usable before it comes.

const STYLE = `
.map-stage { position: relative; flex: 1; min-height: 0; overflow: hidden; background: #141518;
  border: 1px solid var(--line); border-radius: 4px; cursor: grab; outline: none; touch-action: none; }
.map-stage:focus { border-color: var(--accent); }
.map-stage.dragging { cursor: grabbing; }
.map-stage.over-marker { cursor: pointer; }
.map-world { position: absolute; left: 0; top: 0; transform-origin: 0 0; }
.map-world img { display: block; user-select: none; -webkit-user-drag: none; }
.map-stage canvas { position: absolute; left: 0; top: 0; pointer-events: none; }
.map-overlay { position: absolute; left: 8px; bottom: 8px; background: rgba(20,21,24,.85);
  padding: 2px 6px; border-radius: 4px; pointer-events: none; }
.map-legend span { display: inline-block; width: 9px; height: 9px; border-radius: 50%;
  border: 1px solid #000; margin: 0 3px 0 8px; vertical-align: middle; }
`;

// marker colours by class, first match wins
const KINDS = [
  ["#f0d060", c => c.startsWith("light") || c === "env_sun"],
  ["#5ad17a", c => c.startsWith("info_player") || c.includes("spawn")],
  ["#ff9f43", c => c.startsWith("trigger")],
  ["#5b9dff", c => c.startsWith("prop_") || c.startsWith("weapon_") || c.startsWith("item_")],
  ["#c28cff", c => c.startsWith("func_")],
];
const OTHER = "#9aa0a6";
const RADIUS = 5, HIT = 8;      // a marker's radius and how near a click must be (px)

function colour(classname) {
  const c = classname.toLowerCase();
  for (const [fill, test] of KINDS) if (test(c)) return fill;
  return OTHER;
}

export function mount(root, app) {
  app.addStyle("map-view-style", STYLE);
  root.innerHTML = `
    <div class="row">
      <label>colour <select data-testid="map-color">
        <option value="height">height</option><option value="texture">texture</option></select></label>
      <label>size <select data-testid="map-size">
        <option value="1024">1024 px</option><option value="2048">2048 px</option>
        <option value="4096">4096 px</option></select></label>
      <label><input type="checkbox" data-testid="map-show-markers" checked> entity markers</label>
      <button data-testid="map-fit" title="fit the picture (0)">Fit</button>
      <span class="map-legend dim">${[...KINDS.map(k => k[0]), OTHER].map((fill, n) =>
        `<span style="background:${fill}"></span>${["light", "spawn", "trigger", "prop/item", "func_", "other"][n]}`).join("")}</span>
      <span class="spacer"></span>
      <span class="dim" data-testid="map-info"></span>
    </div>
    <div class="map-stage" tabindex="0" data-testid="map-stage"
         title="wheel or +/-: zoom; drag or arrows: pan; 0: fit; click a marker: select its entity">
      <div class="map-world">
        <img data-testid="map-picture" alt="the map seen from above" draggable="false">
      </div>
      <canvas data-testid="map-markers"></canvas>
      <div class="map-overlay dim" data-testid="map-hover"></div>
    </div>`;
  const stage = root.querySelector(".map-stage");
  const world = root.querySelector(".map-world");
  const picture = root.querySelector("img");
  const canvas = root.querySelector("canvas");
  const info = root.querySelector('[data-testid="map-info"]');
  const hover = root.querySelector('[data-testid="map-hover"]');
  const color = root.querySelector('[data-testid="map-color"]');
  const size = root.querySelector('[data-testid="map-size"]');
  const showMarkers = root.querySelector('[data-testid="map-show-markers"]');

  let view = {x: 0, y: 0, zoom: 1};
  let loaded = null;          // key of the picture shown: map id, revision, size, colour
  let loading = null;
  let frame = null;
  let markers = [];           // {index, classname, targetname, world, x, y, fill}
  let fitted = false;
  let queued = false;

  // the view as the tests and the console read it: stage.dataset.view
  function place() {
    world.style.transform = `translate(${view.x}px, ${view.y}px) scale(${view.zoom})`;
    stage.dataset.view = JSON.stringify(view);
    if (!queued) { queued = true; requestAnimationFrame(draw); }
  }

  function draw() {
    queued = false;
    const box = stage.getBoundingClientRect();
    const ratio = window.devicePixelRatio || 1;
    const width = Math.round(box.width * ratio), height = Math.round(box.height * ratio);
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width; canvas.height = height;
      canvas.style.width = `${box.width}px`; canvas.style.height = `${box.height}px`;
    }
    const ctx = canvas.getContext("2d");
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, box.width, box.height);
    if (!showMarkers.checked || !frame) return;
    // one path per colour: ten thousand markers draw in a few milliseconds
    const paths = new Map();
    let selected = null;
    for (const m of markers) {
      const sx = view.x + m.x * view.zoom, sy = view.y + m.y * view.zoom;
      if (sx < -RADIUS || sy < -RADIUS || sx > box.width + RADIUS || sy > box.height + RADIUS) continue;
      if (m.index === app.entity) { selected = [sx, sy]; continue; }
      if (!paths.has(m.fill)) paths.set(m.fill, new Path2D());
      const path = paths.get(m.fill);
      path.moveTo(sx + RADIUS, sy);
      path.arc(sx, sy, RADIUS, 0, 2 * Math.PI);
    }
    ctx.lineWidth = 1;
    ctx.strokeStyle = "#000";
    for (const [fill, path] of paths) {
      ctx.fillStyle = fill;
      ctx.fill(path);
      ctx.stroke(path);
    }
    if (selected) {
      ctx.beginPath();
      ctx.arc(selected[0], selected[1], RADIUS + 2, 0, 2 * Math.PI);
      ctx.fillStyle = "#fff";
      ctx.fill();
      ctx.lineWidth = 2.5;
      ctx.strokeStyle = "#ff6b6b";
      ctx.stroke();
    }
  }

  function fit() {
    if (!frame) return;
    const box = stage.getBoundingClientRect();
    if (!box.width || !box.height) return;
    const zoom = Math.min(box.width / frame.width, box.height / frame.height) * 0.96;
    view = {zoom, x: (box.width - frame.width * zoom) / 2, y: (box.height - frame.height * zoom) / 2};
    place();
    fitted = true;
  }

  function zoomAt(factor, px, py) {
    const zoom = Math.min(Math.max(view.zoom * factor, 0.05), 40);
    const k = zoom / view.zoom;
    view = {zoom, x: px - (px - view.x) * k, y: py - (py - view.y) * k};
    place();
  }

  // the marker nearest to a point of the stage, within HIT pixels (the last drawn wins a tie)
  function markerAt(px, py) {
    let best = null, distance = HIT * HIT;
    for (const m of markers) {
      const dx = view.x + m.x * view.zoom - px, dy = view.y + m.y * view.zoom - py;
      const d = dx * dx + dy * dy;
      if (d <= distance) { best = m; distance = d; }
    }
    return best;
  }

  function key() {
    return app.map ? `${app.map.id}/${app.edits.revision}/${size.value}/${color.value}` : null;
  }

  async function load() {
    if (!app.map || app.view !== "map") return;
    const wanted = key();
    if (wanted === loaded || wanted === loading) return;
    loading = wanted;
    const query = `?size=${size.value}&color=${color.value}`;
    info.textContent = "drawing the picture…";
    try {
      const data = await app.api(app.mapPath(`/picture.json${query}`));
      if (loading !== wanted) return;
      await new Promise((resolve, reject) => {
        picture.onload = resolve;
        picture.onerror = () => reject(new Error("the picture did not load"));
        picture.src = app.mapPath(`/picture.png${query}&rev=${data.revision}`);
      });
      if (loading !== wanted) return;
      const sameFrame = frame && frame.width === data.frame.width && frame.height === data.frame.height;
      frame = data.frame;
      picture.width = frame.width;
      picture.height = frame.height;
      markers = data.markers.map(m => ({...m, fill: colour(m.classname)}));
      loaded = wanted;
      const f = data.frame;
      info.textContent = `${f.width} x ${f.height} px, ${f.units_per_pixel.toFixed(2)} units/px, ` +
        `${data.faces_drawn} faces; ${data.markers.length} entities placed` +
        (data.legend ? `; height ${data.legend.min_z} to ${data.legend.max_z}` : "");
      if (!sameFrame || !fitted) fit(); else place();
      stage.dataset.loaded = wanted;
    } catch (err) {
      if (loading === wanted) {
        info.textContent = "";
        picture.removeAttribute("src");
        markers = [];
        frame = null;
        place();
        app.status(`map picture: ${err.message}`, "error");
        stage.dataset.loaded = `error:${wanted}`;
      }
    } finally {
      if (loading === wanted) loading = null;
    }
  }

  // pan by dragging; a press that does not move is a click (on a marker: select its entity)
  let drag = null;
  stage.addEventListener("pointerdown", event => {
    if (event.button !== 0) return;
    drag = {x: event.clientX, y: event.clientY, vx: view.x, vy: view.y, moved: false};
    stage.setPointerCapture(event.pointerId);
    stage.focus({preventScroll: true});
  });
  stage.addEventListener("pointermove", event => {
    const box = stage.getBoundingClientRect();
    const sx = event.clientX - box.left, sy = event.clientY - box.top;
    if (frame && !drag) {
      const m = showMarkers.checked ? markerAt(sx, sy) : null;
      stage.classList.toggle("over-marker", Boolean(m));
      const x = frame.min_x + (sx - view.x) / view.zoom * frame.units_per_pixel;
      const y = frame.max_y - (sy - view.y) / view.zoom * frame.units_per_pixel;
      hover.textContent = m ? `#${m.index} ${m.classname}${m.targetname ? ` '${m.targetname}'` : ""} ` +
        `at ${m.world.map(v => Math.round(v)).join(" ")}` : `x ${Math.round(x)}, y ${Math.round(y)}`;
    }
    if (!drag) return;
    const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < 4) return;
    drag.moved = true;
    stage.classList.add("dragging");
    view = {...view, x: drag.vx + dx, y: drag.vy + dy};
    place();
  });
  const release = () => {
    stage.classList.remove("dragging");
    drag = null;
  };
  stage.addEventListener("pointerup", event => {
    const press = drag;
    release();
    if (!press || press.moved || !showMarkers.checked) return;
    const box = stage.getBoundingClientRect();
    const m = markerAt(event.clientX - box.left, event.clientY - box.top);
    if (m) app.selectEntity(m.index);
  });
  stage.addEventListener("pointercancel", release);
  stage.addEventListener("wheel", event => {
    event.preventDefault();
    const box = stage.getBoundingClientRect();
    zoomAt(Math.exp(-event.deltaY * 0.0015), event.clientX - box.left, event.clientY - box.top);
  }, {passive: false});
  stage.addEventListener("keydown", event => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const box = stage.getBoundingClientRect();
    const step = 60;
    const moves = {ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step]};
    if (moves[event.key]) {
      view = {...view, x: view.x + moves[event.key][0], y: view.y + moves[event.key][1]};
      place();
    } else if (event.key === "+" || event.key === "=") zoomAt(1.25, box.width / 2, box.height / 2);
    else if (event.key === "-" || event.key === "_") zoomAt(0.8, box.width / 2, box.height / 2);
    else if (event.key === "0") fit();
    else return;
    event.preventDefault();
  });

  root.querySelector('[data-testid="map-fit"]').addEventListener("click", fit);
  showMarkers.addEventListener("change", place);
  color.addEventListener("change", load);
  size.addEventListener("change", () => { fitted = false; load(); });

  app.on("map", () => {
    loaded = null;
    frame = null;
    fitted = false;
    markers = [];
    picture.removeAttribute("src");
    place();
    load();
  });
  app.on("edits", load);
  app.on("view", name => {
    if (name !== "map") return;
    load();
    if (frame && !fitted) fit(); else place();
  });
  app.on("entity", place);
  new ResizeObserver(() => {
    if (app.view !== "map") return;
    if (frame && !fitted) fit(); else place();
  }).observe(stage);
}
