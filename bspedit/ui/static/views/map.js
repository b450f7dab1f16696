// The Map view: the top-down picture (render's, the 3D skybox left out) with a marker per
// entity placed from the picture's frame. Wheel or +/- zooms (around the pointer), dragging or
// the arrow keys pan, 0 fits the picture; clicking a marker selects its entity (the Entities
// view follows). The picture is asked for only when this view is shown: the page is usable
// before it comes.

const STYLE = `
.map-stage { position: relative; flex: 1; min-height: 0; overflow: hidden; background: #141518;
  border: 1px solid var(--line); border-radius: 4px; cursor: grab; outline: none; touch-action: none; }
.map-stage:focus { border-color: var(--accent); }
.map-stage.dragging { cursor: grabbing; }
.map-world { position: absolute; left: 0; top: 0; transform-origin: 0 0; }
.map-world img { display: block; image-rendering: auto; user-select: none; -webkit-user-drag: none; }
.map-markers { position: absolute; inset: 0; }
.marker { position: absolute; width: 10px; height: 10px; margin: -5px 0 0 -5px; border-radius: 50%;
  background: #9aa0a6; border: 1px solid #000; cursor: pointer; transform: scale(var(--inv, 1)); }
.marker:hover { outline: 2px solid #fff; z-index: 2; }
.marker.light { background: #f0d060; }
.marker.spawn { background: #5ad17a; }
.marker.trigger { background: #ff9f43; }
.marker.brush { background: #c28cff; }
.marker.prop { background: #5b9dff; }
.marker.selected { background: #fff; border: 2px solid var(--bad); width: 14px; height: 14px;
  margin: -7px 0 0 -7px; z-index: 3; }
.map-markers.hidden { display: none; }
.map-overlay { position: absolute; left: 8px; bottom: 8px; background: rgba(20,21,24,.8);
  padding: 2px 6px; border-radius: 4px; pointer-events: none; }
.map-legend span { display: inline-block; width: 9px; height: 9px; border-radius: 50%;
  border: 1px solid #000; margin: 0 3px 0 8px; vertical-align: middle; }
`;

const KINDS = [
  ["light", c => c.startsWith("light") || c === "env_sun"],
  ["spawn", c => c.startsWith("info_player") || c.includes("spawn")],
  ["trigger", c => c.startsWith("trigger")],
  ["prop", c => c.startsWith("prop_") || c.startsWith("weapon_") || c.startsWith("item_")],
  ["brush", c => c.startsWith("func_")],
];

function kind(classname) {
  const c = classname.toLowerCase();
  for (const [name, test] of KINDS) if (test(c)) return name;
  return "";
}

function style() {
  if (document.getElementById("map-view-style")) return;
  const element = document.createElement("style");
  element.id = "map-view-style";
  element.textContent = STYLE;
  document.head.append(element);
}

export function mount(root, app) {
  style();
  root.innerHTML = `
    <div class="row">
      <label>colour <select data-testid="map-color">
        <option value="height">height</option><option value="texture">texture</option></select></label>
      <label>size <select data-testid="map-size">
        <option value="1024">1024 px</option><option value="2048">2048 px</option>
        <option value="4096">4096 px</option></select></label>
      <label><input type="checkbox" data-testid="map-show-markers" checked> entity markers</label>
      <button data-testid="map-fit" title="fit the picture (0)">Fit</button>
      <span class="map-legend dim">
        <span style="background:#f0d060"></span>light
        <span style="background:#5ad17a"></span>spawn
        <span style="background:#ff9f43"></span>trigger
        <span style="background:#c28cff"></span>func_
        <span style="background:#5b9dff"></span>prop/item
        <span style="background:#9aa0a6"></span>other</span>
      <span class="spacer"></span>
      <span class="dim" data-testid="map-info"></span>
    </div>
    <div class="map-stage" tabindex="0" data-testid="map-stage"
         title="wheel or +/-: zoom; drag or arrows: pan; 0: fit; click a marker: select its entity">
      <div class="map-world">
        <img data-testid="map-picture" alt="the map seen from above" draggable="false">
        <div class="map-markers" data-testid="map-markers"></div>
      </div>
      <div class="map-overlay dim" data-testid="map-hover"></div>
    </div>`;
  const stage = root.querySelector(".map-stage");
  const world = root.querySelector(".map-world");
  const picture = root.querySelector("img");
  const layer = root.querySelector(".map-markers");
  const info = root.querySelector('[data-testid="map-info"]');
  const hover = root.querySelector('[data-testid="map-hover"]');
  const color = root.querySelector('[data-testid="map-color"]');
  const size = root.querySelector('[data-testid="map-size"]');
  const showMarkers = root.querySelector('[data-testid="map-show-markers"]');

  let view = {x: 0, y: 0, zoom: 1};
  let loaded = null;          // key of the picture shown: map id, revision, size, colour
  let loading = null;
  let frame = null;
  let byIndex = new Map();
  let fitted = false;

  function place() {
    world.style.transform = `translate(${view.x}px, ${view.y}px) scale(${view.zoom})`;
    world.style.setProperty("--inv", String(1 / view.zoom));
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
      drawMarkers(data.markers);
      loaded = wanted;
      const f = data.frame;
      info.textContent = `${f.width} x ${f.height} px, ${f.units_per_pixel.toFixed(2)} units/px, ` +
        `${data.faces_drawn} faces; ${data.markers.length} entities placed` +
        (data.legend ? `; height ${data.legend.min_z} to ${data.legend.max_z}` : "");
      if (!sameFrame || !fitted) fit();
      stage.dataset.loaded = wanted;
    } catch (err) {
      if (loading === wanted) {
        info.textContent = "";
        picture.removeAttribute("src");
        layer.replaceChildren();
        frame = null;
        app.status(`map picture: ${err.message}`, "error");
        stage.dataset.loaded = `error:${wanted}`;
      }
    } finally {
      if (loading === wanted) loading = null;
    }
  }

  function drawMarkers(markers) {
    byIndex = new Map();
    const fragment = document.createDocumentFragment();
    for (const m of markers) {
      const dot = document.createElement("div");
      dot.className = `marker ${kind(m.classname)}`;
      dot.style.left = `${m.x}px`;
      dot.style.top = `${m.y}px`;
      dot.dataset.index = m.index;
      dot.dataset.testid = `marker-${m.index}`;
      dot.title = `#${m.index} ${m.classname}${m.targetname ? ` '${m.targetname}'` : ""}\n` +
        m.world.map(v => Math.round(v)).join(" ");
      fragment.append(dot);
      byIndex.set(m.index, dot);
    }
    layer.replaceChildren(fragment);
    highlight(app.entity);
  }

  function highlight(index) {
    for (const dot of layer.querySelectorAll(".marker.selected")) dot.classList.remove("selected");
    const dot = byIndex.get(index);
    if (dot) dot.classList.add("selected");
  }

  // pan by dragging; a press that does not move is a click (a marker selects its entity)
  let drag = null;
  stage.addEventListener("pointerdown", event => {
    if (event.button !== 0) return;
    drag = {x: event.clientX, y: event.clientY, vx: view.x, vy: view.y, moved: false,
            target: event.target};
    stage.setPointerCapture(event.pointerId);
    stage.focus({preventScroll: true});
  });
  stage.addEventListener("pointermove", event => {
    if (frame) {
      const box = stage.getBoundingClientRect();
      const px = (event.clientX - box.left - view.x) / view.zoom;
      const py = (event.clientY - box.top - view.y) / view.zoom;
      if (px >= 0 && py >= 0 && px <= frame.width && py <= frame.height) {
        const x = frame.min_x + px * frame.units_per_pixel;
        const y = frame.max_y - py * frame.units_per_pixel;
        hover.textContent = `x ${Math.round(x)}, y ${Math.round(y)}`;
      } else hover.textContent = "";
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
    if (press && !press.moved) {
      const dot = press.target.closest && press.target.closest(".marker");
      if (dot) app.selectEntity(Number(dot.dataset.index));
    }
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
  showMarkers.addEventListener("change", () => layer.classList.toggle("hidden", !showMarkers.checked));
  color.addEventListener("change", load);
  size.addEventListener("change", () => { fitted = false; load(); });

  app.on("map", () => {
    loaded = null;
    frame = null;
    fitted = false;
    layer.replaceChildren();
    picture.removeAttribute("src");
    load();
  });
  app.on("edits", load);
  app.on("view", name => {
    if (name !== "map") return;
    load();
    if (frame && !fitted) fit();
  });
  app.on("entity", highlight);
  new ResizeObserver(() => { if (frame && app.view === "map" && !fitted) fit(); }).observe(stage);
}
