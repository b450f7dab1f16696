// The page's shell: tabs (Alt+1..7), the map picker, the fetch helper (every request carries
// the token header), a small event bus, undo/redo (Ctrl+Z, Ctrl+Y outside text fields), and a
// warning before leaving with edits not saved. Each view is a module with mount(root, app).

const VIEWS = [
  ["map", "Map"], ["entities", "Entities"], ["logic", "Logic"], ["pak", "Pakfile"],
  ["patch", "Patch"], ["lumps", "Lumps"], ["save", "Save"],
];

class ApiError extends Error {
  constructor(status, kind, message) {
    super(message);
    this.status = status;
    this.kind = kind;
  }
}

const listeners = new Map();

export const app = {
  token: document.querySelector('meta[name="bspedit-token"]').content,
  maps: [],            // summaries of the opened maps
  map: null,           // the selected map's summary
  entity: null,        // the selected entity's index
  edits: {edits: [], revision: 0, undo: 0, redo: 0},
  ApiError,

  on(event, fn) {
    if (!listeners.has(event)) listeners.set(event, []);
    listeners.get(event).push(fn);
  },
  emit(event, data) {
    for (const fn of listeners.get(event) || []) {
      try { fn(data); } catch (err) { console.error(err); app.status(String(err), "error"); }
    }
  },

  // fetch with the token; JSON in and out (`raw` sends bytes; `text` reads text). Throws
  // ApiError with the server's one-line message.
  async api(path, {method = "GET", body, raw, text = false} = {}) {
    const headers = {"X-Bspedit-Token": app.token};
    let payload;
    if (raw !== undefined) { payload = raw; headers["Content-Type"] = "application/octet-stream"; }
    else if (body !== undefined) { payload = JSON.stringify(body); headers["Content-Type"] = "application/json"; }
    const response = await fetch(path, {method, headers, body: payload, credentials: "same-origin"});
    if (text && response.ok) return await response.text();
    let data;
    try { data = await response.json(); }
    catch { throw new ApiError(response.status, "bad_response", `${response.status} ${response.statusText}`); }
    if (!response.ok || data.ok === false) {
      const e = data.error || {};
      throw new ApiError(response.status, e.kind || "error", e.message || response.statusText);
    }
    return data;
  },
  // a view's own CSS, added to the page once (`id` names its <style> element)
  addStyle(id, css) {
    if (document.getElementById(id)) return;
    const element = document.createElement("style");
    element.id = id;
    element.textContent = css;
    document.head.append(element);
  },
  mapPath(suffix = "") {
    if (!app.map) throw new ApiError(0, "no_map", "open a map first: type its path, or Upload…");
    return `/api/maps/${encodeURIComponent(app.map.id)}${suffix}`;
  },

  status(message, kind = "") {
    const bar = document.getElementById("status");
    bar.textContent = message;
    bar.className = kind;
    bar.title = message;
  },
  // run an async action, reporting its error on the status bar (and returning null)
  async attempt(action, done) {
    try {
      const result = await action();
      if (done) app.status(done, "ok");
      return result;
    } catch (err) {
      app.status(err.message || String(err), "error");
      return null;
    }
  },

  async refreshMaps(select) {
    const data = await app.api("/api/maps");
    app.maps = data.maps;
    renderPicker();
    const id = select || (app.map && app.map.id) || (app.maps[0] && app.maps[0].id);
    if (id) await app.selectMap(id);
  },
  async selectMap(id) {
    const data = await app.api(`/api/maps/${encodeURIComponent(id)}`);
    const changed = !app.map || app.map.id !== id;
    app.map = data.map;
    app.maps = app.maps.map(m => m.id === id ? data.map : m);
    renderPicker();
    if (changed) {
      app.entity = null;
      app.emit("map", app.map);
    }
    await app.loadEdits();
  },
  selectEntity(index) {
    app.entity = index;
    app.emit("entity", index);
  },
  async loadEdits() {
    if (!app.map) return;
    setEdits(await app.api(app.mapPath("/edits")));
  },
  // append one edit ({op, ...}); the views hear "edits" and reload what they show
  async edit(params) {
    const data = await app.api(app.mapPath("/edits"), {method: "POST", body: params});
    setEdits(data);
    app.status(`edit: ${data.edit.summary}`, "ok");
    return data;
  },
  async undo() {
    if (!app.map) return;
    await app.attempt(async () => setEdits(await app.api(app.mapPath("/undo"), {method: "POST"})), "undone");
  },
  async redo() {
    if (!app.map) return;
    await app.attempt(async () => setEdits(await app.api(app.mapPath("/redo"), {method: "POST"})), "redone");
  },
  // after a save: the map's summary and edits as the server has them now
  saved(data) {
    app.map = data.map;
    app.maps = app.maps.map(m => m.id === data.map.id ? data.map : m);
    setEdits(data);
  },
  showView(name) {
    for (const [view] of VIEWS) {
      document.getElementById(`view-${view}`).classList.toggle("active", view === name);
      document.getElementById(`tab-${view}`).setAttribute("aria-selected", String(view === name));
    }
    app.view = name;
    app.emit("view", name);
  },
};

function setEdits(data) {
  app.edits = {edits: data.edits, revision: data.revision, undo: data.undo, redo: data.redo};
  if (app.map) {
    app.map.pending = data.edits.length;
    app.map.revision = data.revision;
  }
  document.getElementById("undo").disabled = !data.undo;
  document.getElementById("redo").disabled = !data.redo;
  const pending = document.getElementById("pending");
  pending.textContent = data.edits.length ? `${data.edits.length} pending edit(s)` : "";
  app.emit("edits", app.edits);
}

function renderPicker() {
  const select = document.getElementById("map-select");
  select.replaceChildren(...app.maps.map(m => {
    const option = document.createElement("option");
    option.value = m.id;
    option.textContent = `${m.name} (${m.title})${m.pending ? " *" : ""}`;
    option.title = m.path || "uploaded copy";
    return option;
  }));
  if (app.map) select.value = app.map.id;
}

function unsaved() {
  return app.maps.some(m => m.pending && m.revision !== m.saved_revision);
}

function buildTabs() {
  const nav = document.getElementById("tabs");
  const main = document.getElementById("views");
  VIEWS.forEach(([name, title], n) => {
    const tab = document.createElement("button");
    tab.id = `tab-${name}`;
    tab.dataset.testid = `tab-${name}`;
    tab.setAttribute("role", "tab");
    tab.title = `${title} (Alt+${n + 1})`;
    tab.innerHTML = `${title}<kbd>${n + 1}</kbd>`;
    tab.addEventListener("click", () => app.showView(name));
    nav.append(tab);
    const section = document.createElement("section");
    section.id = `view-${name}`;
    section.dataset.testid = `view-${name}`;
    section.setAttribute("role", "tabpanel");
    main.append(section);
  });
}

async function mountViews() {
  // fetched together, mounted in order
  const modules = await Promise.allSettled(VIEWS.map(([name]) => import(`./views/${name}.js`)));
  VIEWS.forEach(([name], n) => {
    const root = document.getElementById(`view-${name}`);
    try {
      if (modules[n].status === "rejected") throw modules[n].reason;
      modules[n].value.mount(root, app);
    } catch (err) {
      root.innerHTML = `<p class="dim">This view is not available (${err.message}).</p>`;
    }
  });
}

function wireHeader() {
  document.getElementById("map-select").addEventListener("change", event =>
    app.attempt(() => app.selectMap(event.target.value)));
  document.getElementById("open-form").addEventListener("submit", event => {
    event.preventDefault();
    const input = document.getElementById("open-path");
    const path = input.value.trim();
    if (!path) return;
    app.attempt(async () => {
      const data = await app.api("/api/maps", {method: "POST", body: {path}});
      input.value = "";
      await app.refreshMaps(data.map.id);
    }, `opened ${path}`);
  });
  document.getElementById("open-file").addEventListener("change", event => {
    const file = event.target.files[0];
    if (!file) return;
    app.attempt(async () => {
      const data = await app.api(`/api/maps/upload?name=${encodeURIComponent(file.name)}`,
                                 {method: "POST", raw: await file.arrayBuffer()});
      event.target.value = "";
      await app.refreshMaps(data.map.id);
    }, `opened a copy of ${file.name}`);
  });
  document.getElementById("undo").addEventListener("click", () => app.undo());
  document.getElementById("redo").addEventListener("click", () => app.redo());
}

function typing(target) {
  return target instanceof HTMLElement &&
    (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
}

document.addEventListener("keydown", event => {
  if (event.altKey && !event.ctrlKey && !event.metaKey && /^[1-7]$/.test(event.key)) {
    event.preventDefault();
    app.showView(VIEWS[Number(event.key) - 1][0]);
    return;
  }
  const mod = event.ctrlKey || event.metaKey;
  if (!mod || event.altKey || typing(event.target)) return;   // text fields keep their own undo
  const key = event.key.toLowerCase();
  if (key === "z" && !event.shiftKey) { event.preventDefault(); app.undo(); }
  else if (key === "y" || (key === "z" && event.shiftKey)) { event.preventDefault(); app.redo(); }
});

window.addEventListener("beforeunload", event => {
  if (unsaved()) { event.preventDefault(); event.returnValue = ""; }
});

window.bspeditApp = app;     // for the browser tests and the console
buildTabs();
wireHeader();
await mountViews();
app.showView("entities");
await app.attempt(() => app.refreshMaps());
if (!app.maps.length) app.status("no map open: type a map's path and Open, or Upload… a file");
document.body.dataset.ready = "1";
