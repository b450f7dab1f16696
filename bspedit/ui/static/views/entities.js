// Entities: a virtualised table of every entity (only the rows in sight are in the page), a
// filter by class, key or value (regex too), an editor of the selected entity's keyvalues
// and outputs (each change is one pending edit), add / duplicate / delete, and the raw text
// of the whole lump (edited as `ent export` / `ent import` do).

const ROW = 22;          // px, as .vtable .vrow in app.css
const OVERSCAN = 8;

export function mount(root, app) {
  root.innerHTML = `
    <div class="row">
      <input id="ent-filter-class" data-testid="ent-filter-class" placeholder="class" size="16" title="classname contains (/ focuses the filter)">
      <input id="ent-filter-key" data-testid="ent-filter-key" placeholder="key" size="14" title="has a key that contains this">
      <input id="ent-filter-value" data-testid="ent-filter-value" placeholder="value" size="22" title="a value (of that key) contains this">
      <label title="the three fields are regular expressions"><input type="checkbox" id="ent-filter-regex" data-testid="ent-filter-regex"> regex</label>
      <span id="ent-count" data-testid="ent-count" class="dim"></span>
      <span class="spacer"></span>
      <button id="ent-add" data-testid="ent-add" title="add an entity (its classname asked)">Add</button>
      <button id="ent-duplicate" data-testid="ent-duplicate" title="duplicate the selected entity">Duplicate</button>
      <button id="ent-delete" data-testid="ent-delete" class="danger" title="delete the selected entity (Delete)">Delete</button>
      <button id="ent-raw-toggle" data-testid="ent-raw-toggle" title="edit the whole entity text">Raw text</button>
    </div>
    <div class="split">
      <div class="pane" style="flex: 3">
        <div class="vhead"><span>#</span><span>class</span><span>targetname</span><span>origin</span><span>keys</span></div>
        <div id="ent-table" data-testid="ent-table" class="vtable" tabindex="0"><div class="vspacer"></div></div>
      </div>
      <div class="pane" style="flex: 2" id="ent-editor" data-testid="ent-editor">
        <p class="dim">Select an entity.</p>
      </div>
      <div class="pane" style="flex: 5; display: none" id="ent-raw" data-testid="ent-raw">
        <div class="row"><strong>Entity text</strong><span class="dim">as <code>bspedit ent export</code> writes it; Apply replaces the whole lump (one edit: <code>ent import</code>)</span>
          <span class="spacer"></span>
          <button id="ent-raw-apply" data-testid="ent-raw-apply" class="primary">Apply</button></div>
        <textarea id="ent-raw-text" data-testid="ent-raw-text" class="grow" spellcheck="false"></textarea>
      </div>
    </div>`;
  const $ = id => root.querySelector(`#${id}`);
  const table = $("ent-table");
  const spacer = table.firstElementChild;
  const editor = $("ent-editor");
  let entities = [];        // rows from the API
  let index = [];           // per row: lower-cased classname and pairs, for filtering
  let shown = [];           // indices of entities passing the filter
  let revision = -1;
  let mapId = null;
  let rowNodes = [];

  async function load() {
    if (!app.map) return;
    const started = performance.now();
    const asked = app.map.id;
    const data = await app.api(app.mapPath("/entities"));
    if (!app.map || app.map.id !== asked) return;   // another map was chosen meanwhile
    entities = data.entities;
    revision = data.revision;
    mapId = asked;
    index = entities.map(e => ({cls: e.classname.toLowerCase(),
                                keys: e.keys.map(([k, v]) => [k.toLowerCase(), v.toLowerCase()])}));
    if (app.entity !== null && app.entity >= entities.length) app.entity = null;
    applyFilter();
    renderEditor();
    table.dataset.loaded = String(revision);
    table.dataset.map = mapId;
    table.dataset.loadMs = String(Math.round(performance.now() - started));
    if ($("ent-raw").style.display !== "none") await loadRaw();
  }

  function matcher(text) {
    if (!text) return null;
    if ($("ent-filter-regex").checked) {
      try { const rx = new RegExp(text, "i"); return s => rx.test(s); }
      catch (err) { app.status(`filter: ${err.message}`, "error"); return () => false; }
    }
    const want = text.toLowerCase();
    return s => s.includes(want);
  }

  function applyFilter() {
    const started = performance.now();
    const regex = $("ent-filter-regex").checked;
    const cls = matcher($("ent-filter-class").value.trim());
    const key = matcher($("ent-filter-key").value.trim());
    const value = matcher($("ent-filter-value").value);
    shown = [];
    for (let i = 0; i < index.length; i++) {
      const e = index[i];
      if (cls && !cls(regex ? entities[i].classname : e.cls)) continue;
      if (key || value) {
        const pairs = regex ? entities[i].keys : e.keys;
        if (!pairs.some(([k, v]) => (!key || key(k)) && (!value || value(v)))) continue;
      }
      shown.push(i);
    }
    spacer.style.height = `${shown.length * ROW}px`;
    $("ent-count").textContent = `${shown.length} of ${entities.length} entities`;
    table.dataset.filterMs = String(Math.round(performance.now() - started));
    table.dataset.shown = String(shown.length);
    renderRows();
  }

  function renderRows() {
    const first = Math.max(0, Math.floor(table.scrollTop / ROW) - OVERSCAN);
    const count = Math.min(shown.length - first, Math.ceil(table.clientHeight / ROW) + 2 * OVERSCAN);
    while (rowNodes.length < count) {
      const node = document.createElement("div");
      node.className = "vrow";
      node.dataset.testid = "ent-row";
      for (let c = 0; c < 5; c++) node.append(document.createElement("span"));
      spacer.append(node);
      rowNodes.push(node);
    }
    rowNodes.forEach((node, n) => {
      if (n >= count) { node.style.display = "none"; return; }
      const i = shown[first + n];
      const e = entities[i];
      node.style.display = "";
      node.style.top = `${(first + n) * ROW}px`;
      node.dataset.index = String(i);
      node.classList.toggle("selected", i === app.entity);
      const cells = node.children;
      cells[0].textContent = String(i);
      cells[1].textContent = e.classname;
      cells[2].textContent = e.targetname;
      cells[3].textContent = e.origin;
      cells[4].textContent = String(e.keys.length);
    });
    table.dataset.rows = String(count > 0 ? count : 0);
  }

  function scrollToEntity(i) {
    const at = shown.indexOf(i);
    if (at < 0) return;
    const top = at * ROW;
    if (top < table.scrollTop) table.scrollTop = top;
    else if (top + ROW > table.scrollTop + table.clientHeight) table.scrollTop = top + ROW - table.clientHeight;
  }

  function renderEditor() {
    const i = app.entity;
    if (i === null || !entities[i]) {
      editor.innerHTML = '<p class="dim">Select an entity.</p>';
      return;
    }
    const e = entities[i];
    const seen = new Map();
    const rows = e.keys.map(([k, v]) => {
      const n = (seen.get(k.toLowerCase()) || 0) + 1;
      seen.set(k.toLowerCase(), n);
      return {k, v, n};
    });
    editor.innerHTML = `<div class="row"><strong></strong><span class="dim"></span></div>
      <table class="keys" data-testid="ent-keys"><tbody></tbody></table>
      <form class="row" data-testid="ent-new-key">
        <input name="key" placeholder="new key (or output name)" size="16" data-testid="ent-new-key-name">
        <input name="value" placeholder="value" style="flex:1" data-testid="ent-new-key-value">
        <button type="submit">Add key</button></form>
      <p class="dim">Enter applies a changed value; a key used more than once (outputs) is
      edited pair by pair. Each change is one pending edit (Ctrl+Z undoes it).</p>`;
    editor.querySelector("strong").textContent = `entity ${i}`;
    editor.querySelector("span.dim").textContent = e.classname;
    const body = editor.querySelector("tbody");
    for (const {k, v, n} of rows) {
      const tr = document.createElement("tr");
      tr.dataset.key = k;
      tr.innerHTML = `<td style="width: 35%"><input readonly data-testid="ent-key"></td>
        <td><input data-testid="ent-value"></td>
        <td class="act"><button title="delete this pair" data-testid="ent-delete-key">✕</button></td>`;
      const [keyInput, valueInput] = tr.querySelectorAll("input");
      keyInput.value = k;
      valueInput.value = v;
      const count = rows.filter(r => r.k.toLowerCase() === k.toLowerCase()).length;
      let current = v;     // Enter then blur: one edit
      const apply = () => {
        if (valueInput.value === current) return;
        current = valueInput.value;
        const params = {op: "set_key", entity: i, key: k, value: valueInput.value};
        if (count > 1) params.occurrence = n;
        app.attempt(() => app.edit(params));
      };
      valueInput.addEventListener("keydown", ev => { if (ev.key === "Enter") apply(); });
      valueInput.addEventListener("change", apply);
      tr.querySelector("button").addEventListener("click", () => {
        const params = {op: "delete_key", entity: i, key: k};
        if (count > 1) params.occurrence = n;
        app.attempt(() => app.edit(params));
      });
      body.append(tr);
    }
    editor.querySelector("form").addEventListener("submit", ev => {
      ev.preventDefault();
      const key = ev.target.key.value.trim();
      if (!key) return;
      const has = e.keys.some(([k]) => k.toLowerCase() === key.toLowerCase());
      app.attempt(() => app.edit({op: has ? "add_key" : "set_key", entity: i, key,
                                  value: ev.target.value.value}));
    });
  }

  async function loadRaw() {
    const data = await app.api(app.mapPath("/entities/text"));
    $("ent-raw-text").value = data.text;
    $("ent-raw-text").dataset.revision = String(data.revision);
  }

  function select(i) {
    app.selectEntity(i);
  }

  table.addEventListener("scroll", () => requestAnimationFrame(renderRows));
  new ResizeObserver(() => renderRows()).observe(table);
  table.addEventListener("click", ev => {
    const row = ev.target.closest(".vrow");
    if (row) { select(Number(row.dataset.index)); table.focus(); }
  });
  table.addEventListener("keydown", ev => {
    if (!shown.length) return;
    const at = shown.indexOf(app.entity);
    let next = null;
    if (ev.key === "ArrowDown") next = shown[Math.min(shown.length - 1, at + 1)];
    else if (ev.key === "ArrowUp") next = shown[Math.max(0, at < 0 ? 0 : at - 1)];
    else if (ev.key === "Home") next = shown[0];
    else if (ev.key === "End") next = shown[shown.length - 1];
    else if (ev.key === "PageDown") next = shown[Math.min(shown.length - 1, at + Math.floor(table.clientHeight / ROW))];
    else if (ev.key === "PageUp") next = shown[Math.max(0, at - Math.floor(table.clientHeight / ROW))];
    else if (ev.key === "Delete") { $("ent-delete").click(); ev.preventDefault(); return; }
    if (next === null || next === undefined) return;
    ev.preventDefault();
    select(next);
  });
  for (const id of ["ent-filter-class", "ent-filter-key", "ent-filter-value", "ent-filter-regex"]) {
    $(id).addEventListener("input", () => { table.scrollTop = 0; applyFilter(); });
  }
  document.addEventListener("keydown", ev => {
    if (app.view === "entities" && ev.key === "/" && !["INPUT", "TEXTAREA"].includes(document.activeElement.tagName)) {
      ev.preventDefault();
      $("ent-filter-class").focus();
    }
  });
  $("ent-add").addEventListener("click", () => {
    const classname = prompt("classname of the new entity", "info_target");
    if (!classname) return;
    app.attempt(async () => {
      await app.edit({op: "add_entity", keys: [["classname", classname], ["origin", "0 0 0"]]});
      select(entities.length);    // the new one is last once reloaded
    });
  });
  $("ent-duplicate").addEventListener("click", () => {
    if (app.entity === null) return app.status("select an entity first", "error");
    app.attempt(async () => {
      await app.edit({op: "duplicate_entity", entity: app.entity});
      select(entities.length);
    });
  });
  $("ent-delete").addEventListener("click", () => {
    if (app.entity === null) return app.status("select an entity first", "error");
    const i = app.entity;
    app.attempt(async () => {
      await app.edit({op: "delete_entity", entity: i});
      select(Math.min(i, entities.length - 1));
    });
  });
  $("ent-raw-toggle").addEventListener("click", () => {
    const raw = $("ent-raw");
    const open = raw.style.display === "none";
    raw.style.display = open ? "flex" : "none";
    table.parentElement.style.display = open ? "none" : "flex";
    editor.style.display = open ? "none" : "flex";
    $("ent-raw-toggle").textContent = open ? "Table" : "Raw text";
    if (open) app.attempt(loadRaw);
  });
  $("ent-raw-apply").addEventListener("click", () =>
    app.attempt(() => app.edit({op: "replace_entity_text", text: $("ent-raw-text").value})));

  // a map chosen: its edits follow at once ("edits"), which loads its entities
  app.on("map", () => { table.scrollTop = 0; revision = -1; mapId = null; });
  app.on("edits", data => {
    if (app.map && (data.revision !== revision || app.map.id !== mapId)) app.attempt(load);
  });
  app.on("entity", i => {
    renderRows();
    renderEditor();
    if (i !== null) scrollToEntity(i);
  });
  // shown again (hidden, the table had no height): the rows and the entity chosen elsewhere
  app.on("view", name => {
    if (name !== "entities") return;
    if (app.entity !== null) scrollToEntity(app.entity);
    renderRows();
  });
}
