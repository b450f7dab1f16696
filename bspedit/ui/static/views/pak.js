// The Pakfile view (Source maps): a tree of the packed files with their sizes; add files by
// the file chooser or by dropping them on the tree (into the folder typed or chosen), remove,
// rename (offering to update the materials and entity keys that name the old path), download
// and preview (text, images, VTF textures); `pak deps` and `pak audit` findings and `pak
// autopack` with the game's folder typed on the page. Every change is a pending edit.

const STYLE = `
.pak-tree { flex: 0 0 46%; }
.pak-tree ul { list-style: none; margin: 0; padding-left: 14px; }
.pak-tree > .tree-root { padding-left: 0; overflow: auto; flex: 1; min-height: 0; }
.pak-tree li > .line { display: grid; grid-template-columns: 1fr 80px 80px 48px; gap: 6px;
  padding: 1px 4px; cursor: pointer; white-space: nowrap; border-radius: 3px; }
.pak-tree li > .line span { overflow: hidden; text-overflow: ellipsis; }
.pak-tree li > .line:hover { background: #24272c; }
.pak-tree li > .line.selected { background: #26406b; }
.pak-tree .folder > .line .name::before { content: "▸ "; color: var(--dim); }
.pak-tree .folder.open > .line .name::before { content: "▾ "; }
.pak-tree .folder:not(.open) > ul { display: none; }
.pak-tree .num { text-align: right; color: var(--dim); }
.pak-tree.dropping { outline: 2px dashed var(--accent); }
.pak-side { flex: 1; }
.pak-side > .pane { flex: none; overflow: visible; }
.pak-preview img { max-width: 100%; image-rendering: pixelated; background:
  repeating-conic-gradient(#2a2a2a 0 25%, #3a3a3a 0 50%) 0 0 / 16px 16px; }
.pak-preview pre { max-height: 420px; overflow: auto; background: #1b1c1f; padding: 6px; }
.pak-findings { max-height: 360px; overflow: auto; }
.pak-findings table { border-collapse: collapse; width: 100%; }
.pak-findings td { padding: 1px 4px; border-bottom: 1px solid #26282c; vertical-align: top; }
.loc-pak { color: var(--good); } .loc-missing { color: var(--bad); } .loc-unknown { color: var(--warn); }
.pak-side input[type=text] { min-width: 0; flex: 1; }
`;

const UPLOAD_CAP = 512 * 1024 * 1024;    // the server's cap on an upload's body

function bytes(n) {
  if (n < 1024) return `${n} B`;
  const units = ["KiB", "MiB", "GiB"];
  let value = n / 1024, unit = 0;
  while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit++; }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

function element(tag, attributes = {}, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes)) {
    if (k === "class") e.className = v; else if (k.startsWith("data-")) e.setAttribute(k, v); else e[k] = v;
  }
  if (text !== undefined) e.textContent = text;
  return e;
}

// the entries as nested folders: {folders: Map(name -> node), files: [entry], size, stored}
function buildTree(entries) {
  const top = {name: "", path: "", folders: new Map(), files: [], size: 0, stored: 0, count: 0};
  for (const entry of entries) {
    const parts = entry.name.split("/");
    let node = top;
    node.size += entry.size; node.stored += entry.stored_size; node.count++;
    for (const part of parts.slice(0, -1)) {
      if (!node.folders.has(part)) {
        node.folders.set(part, {name: part, path: `${node.path}${part}/`, folders: new Map(),
                                files: [], size: 0, stored: 0, count: 0});
      }
      node = node.folders.get(part);
      node.size += entry.size; node.stored += entry.stored_size; node.count++;
    }
    if (parts[parts.length - 1]) node.files.push(entry);
  }
  return top;
}

export function mount(root, app) {
  app.addStyle("pak-view-style", STYLE);
  root.innerHTML = `
    <div class="row" data-testid="pak-summary"></div>
    <div class="split">
      <div class="pane pak-tree" data-testid="pak-drop" title="drop files here to pack them into the folder below">
        <div class="row">
          <label>into folder <input type="text" data-testid="pak-folder" placeholder="materials/mymap/" size="24"></label>
          <label class="button">Add files… <input type="file" data-testid="pak-add-file" multiple hidden></label>
          <label title="store LZMA-compressed when smaller"><input type="checkbox" data-testid="pak-compress"> LZMA</label>
        </div>
        <div class="dim" style="font-size:11px">or drop files on this list; a folder in the list sets the folder</div>
        <ul class="tree-root" data-testid="pak-tree"></ul>
      </div>
      <div class="pak-side" style="display:flex;flex-direction:column;gap:8px;min-height:0;overflow:auto">
        <div class="pane" data-testid="pak-details">
          <div class="dim" data-testid="pak-selected">select a file</div>
          <div class="row">
            <button data-testid="pak-download" disabled>Download</button>
            <button data-testid="pak-preview-button" disabled>Preview</button>
            <button class="danger" data-testid="pak-remove" disabled>Remove</button>
          </div>
          <div class="row">
            <input type="text" data-testid="pak-rename-new" placeholder="new path" disabled>
            <label title="rewrite the pakfile's materials and the entity keys that name it">
              <input type="checkbox" data-testid="pak-rename-refs" checked> update references</label>
            <button data-testid="pak-rename" disabled>Rename</button>
          </div>
          <div class="dim" data-testid="pak-rename-note"></div>
          <div class="pak-preview" data-testid="pak-preview"></div>
        </div>
        <div class="pane">
          <strong>The game</strong>
          <div class="row"><label style="flex:1;display:flex;gap:4px">game folder
            <input type="text" data-testid="pak-game" placeholder="…/steamapps/common/Half-Life 2/hl2 (holds gameinfo.txt)"></label></div>
          <div class="row"><label style="flex:1;display:flex;gap:4px">content folders
            <input type="text" data-testid="pak-content" placeholder="folders of materials/, models/… (separate with ;)"></label></div>
          <div class="row"><label style="flex:1;display:flex;gap:4px">VPK files
            <input type="text" data-testid="pak-vpk" placeholder="x_dir.vpk (separate with ;)"></label></div>
          <div class="row">
            <button data-testid="pak-deps">Deps</button>
            <button data-testid="pak-audit">Audit</button>
            <button class="primary" data-testid="pak-autopack" title="pack what the map needs from the mod (a pending edit)">Autopack</button>
            <span class="dim" data-testid="pak-game-note"></span>
          </div>
          <div class="pak-findings" data-testid="pak-findings"></div>
        </div>
      </div>
    </div>`;
  const $ = id => root.querySelector(`[data-testid="${id}"]`);
  const tree = $("pak-tree"), drop = $("pak-drop"), summary = $("pak-summary");
  const panes = root.querySelector(".split");
  const folder = $("pak-folder"), chooser = $("pak-add-file"), compress = $("pak-compress");
  const selectedLabel = $("pak-selected"), preview = $("pak-preview"), findings = $("pak-findings");
  const newPath = $("pak-rename-new"), refs = $("pak-rename-refs"), renameNote = $("pak-rename-note");
  let entries = [];
  let selected = null;          // the selected entry's name
  let shown = null;             // the map and revision listed
  const open = new Set([""]);   // folders shown open

  function gameFields() {
    const split = value => value.split(";").map(s => s.trim()).filter(Boolean);
    return {game: $("pak-game").value.trim() || null, content: split($("pak-content").value),
            vpk: split($("pak-vpk").value)};
  }

  async function list(force = false) {
    if (!app.map || app.view !== "pak") return;
    const wanted = `${app.map.id}/${app.edits.revision}`;
    if (!force && wanted === shown) return;
    shown = wanted;
    try {
      const data = await app.api(app.mapPath("/pak"));
      if (shown !== wanted) return;          // another map or revision was asked for since
      entries = data.entries;
      summary.textContent = `${data.files} files, ${bytes(data.bytes)} (${bytes(data.stored_bytes)} stored)`;
      panes.style.display = "";
      renderTree();
      if (selected && !entries.some(e => e.name === selected)) select(null);
      tree.dataset.revision = String(data.revision);
    } catch (err) {
      if (shown !== wanted) return;
      entries = [];
      tree.replaceChildren();
      summary.textContent = err.message;
      if (err.status === 400) panes.style.display = "none";   // no pakfile: only the message
      select(null);
    }
  }

  // A folder's list is built when it is first shown open: a pakfile of 20,000 files draws
  // its top folders only (1.2 s -> a few ms in Chromium), not 120,000 hidden elements.
  let folders = new Map();      // folder path -> its node in the last tree built
  const folderNode = node => {
    folders.set(node.path, node);
    const item = element("li", {class: `folder${open.has(node.path) ? " open" : ""}`});
    item.dataset.folder = node.path;
    const line = element("div", {class: "line"});
    line.append(element("span", {class: "name"}, node.name + "/"),
                element("span", {class: "num"}, bytes(node.size)),
                element("span", {class: "num"}, `${node.count} files`), element("span"));
    item.append(line);
    if (open.has(node.path)) item.append(children(node));
    return item;
  };
  const children = node => {
    const ul = element("ul");
    for (const sub of [...node.folders.values()].sort((a, b) => a.name.localeCompare(b.name))) {
      ul.append(folderNode(sub));
    }
    for (const entry of node.files.sort((a, b) => a.name.localeCompare(b.name))) {
      const item = element("li", {class: "file"});
      item.dataset.path = entry.name;
      const line = element("div", {class: `line${entry.name === selected ? " selected" : ""}`});
      line.dataset.testid = "pak-entry";
      line.dataset.path = entry.name;
      line.tabIndex = 0;
      line.title = `${entry.name}\n${entry.size} bytes, ${entry.stored_size} stored (${entry.method}), CRC ${entry.crc32.toString(16).padStart(8, "0")}`;
      line.append(element("span", {class: "name"}, entry.name.split("/").pop()),
                  element("span", {class: "num"}, bytes(entry.size)),
                  element("span", {class: "num"}, entry.size === entry.stored_size ? "" : bytes(entry.stored_size)),
                  element("span", {class: "num"}, entry.method === "store" ? "" : entry.method));
      item.append(line);
      ul.append(item);
    }
    return ul;
  };

  function renderTree() {
    folders = new Map();
    const parts = selected ? selected.split("/") : [];    // the selected file is shown
    for (let i = 1; i < parts.length; i++) open.add(parts.slice(0, i).join("/") + "/");
    tree.replaceChildren(...children(buildTree(entries)).childNodes);
  }

  function select(name) {
    selected = name;
    for (const line of tree.querySelectorAll(".line.selected")) line.classList.remove("selected");
    const line = name && tree.querySelector(`[data-testid="pak-entry"][data-path="${CSS.escape(name)}"]`);
    if (line) line.classList.add("selected");
    const entry = entries.find(e => e.name === name);
    selectedLabel.textContent = entry ? `${entry.name}: ${entry.size} bytes, ${entry.stored_size} stored (${entry.method})` : "select a file";
    for (const id of ["pak-download", "pak-preview-button", "pak-remove", "pak-rename", "pak-rename-new"]) {
      $(id).disabled = !entry;
    }
    newPath.value = entry ? entry.name : "";
    renameNote.textContent = "";
    preview.replaceChildren();
  }

  tree.addEventListener("click", event => {
    const line = event.target.closest(".line");
    if (!line) return;
    const item = line.parentElement;
    if (item.classList.contains("folder")) {
      const path = item.dataset.folder;
      item.classList.toggle("open");
      if (item.classList.contains("open")) {
        open.add(path);
        if (!item.querySelector(":scope > ul")) item.append(children(folders.get(path)));
      } else open.delete(path);
      folder.value = path;
    } else {
      select(item.dataset.path);
      folder.value = item.dataset.path.includes("/") ? item.dataset.path.replace(/[^/]*$/, "") : "";
    }
  });
  tree.addEventListener("keydown", event => {
    const line = event.target.closest('[data-testid="pak-entry"]');
    if (!line) return;
    if (event.key === "Enter") select(line.dataset.path);
    else if (event.key === "Delete") { select(line.dataset.path); remove(); }
    else return;
    event.preventDefault();
  });

  async function add(files) {
    if (!app.map || !files.length) return;
    let prefix = folder.value.trim().replace(/\\/g, "/").replace(/^\/+/, "");
    if (prefix && !prefix.endsWith("/")) prefix += "/";
    for (const file of files) {
      const path = prefix + file.name;
      if (file.size > UPLOAD_CAP) {      // the server refuses it too (413), after the upload
        app.status(`${path}: ${bytes(file.size)}, over the ${bytes(UPLOAD_CAP)} a file may be`, "error");
        return;
      }
      const send = update => app.api(
        app.mapPath(`/pak/upload?path=${encodeURIComponent(path)}&update=${update ? 1 : 0}&compress=${compress.checked ? 1 : 0}`),
        {method: "POST", raw: file});
      try {
        app.status(`packing ${path} (${bytes(file.size)})…`);
        let data;
        try { data = await send(false); }
        catch (err) {
          if (err.kind !== "exists" || !confirm(`${path} is already packed: replace it?`)) throw err;
          data = await send(true);
        }
        selected = path.toLowerCase();     // shown (its folders opened) and selected
        await app.loadEdits();
        app.status(`edit: ${data.edit.summary}`, "ok");
      } catch (err) {
        app.status(`${path}: ${err.message}`, "error");
        return;
      }
    }
  }

  chooser.addEventListener("change", async () => { await add([...chooser.files]); chooser.value = ""; });
  for (const name of ["dragenter", "dragover"]) {
    drop.addEventListener(name, event => {
      if (![...event.dataTransfer.types].includes("Files")) return;
      event.preventDefault();
      drop.classList.add("dropping");
      const item = event.target.closest && event.target.closest("li.folder");
      if (item) folder.value = item.dataset.folder;
    });
  }
  drop.addEventListener("dragleave", event => { if (event.target === drop) drop.classList.remove("dropping"); });
  drop.addEventListener("drop", event => {
    event.preventDefault();
    drop.classList.remove("dropping");
    add([...event.dataTransfer.files]);
  });

  async function remove() {
    if (!selected) return;
    const name = selected;
    await app.attempt(() => app.edit({op: "pak_remove", path: name}));
  }
  $("pak-remove").addEventListener("click", remove);

  $("pak-download").addEventListener("click", () => {
    if (!selected) return;
    const link = element("a", {href: app.mapPath(`/pak/file?path=${encodeURIComponent(selected)}`),
                               download: selected.split("/").pop()});
    document.body.append(link);
    link.click();
    link.remove();
  });

  $("pak-preview-button").addEventListener("click", async () => {
    if (!selected) return;
    preview.textContent = "reading…";
    try {
      const data = await app.api(app.mapPath(`/pak/preview?path=${encodeURIComponent(selected)}`));
      const note = element("div", {class: "dim"}, data.note || (data.cut ? "the first 256 KiB" : ""));
      if (data.kind === "text") {
        preview.replaceChildren(note, element("pre", {"data-testid": "pak-preview-text"}, data.text));
      } else {
        const image = element("img", {src: `data:image/png;base64,${data.png_b64}`,
                                      alt: selected, "data-testid": "pak-preview-image"});
        image.width = data.width * Math.max(1, Math.floor(256 / Math.max(data.width, data.height)));
        preview.replaceChildren(note, image);
      }
    } catch (err) {
      preview.replaceChildren(element("div", {class: "bad"}, err.message));
    }
  });

  let checkTimer = null;
  newPath.addEventListener("input", () => {
    clearTimeout(checkTimer);
    checkTimer = setTimeout(checkReferences, 300);
  });
  async function checkReferences() {
    if (!selected || !newPath.value.trim() || newPath.value.trim() === selected) { renameNote.textContent = ""; return; }
    try {
      const data = await app.api(app.mapPath("/pak/references"), {method: "POST",
        body: {old: selected, new: newPath.value.trim()}});
      const parts = [];
      if (data.exists) parts.push("a file of that path is already packed: remove it first");
      parts.push(`${data.materials.length} material(s) and ${data.keys.length} entity key(s) name it`);
      if (data.texdata.length) parts.push(`${data.texdata.length} TEXDATA row(s) name it and keep the old name (tex rename)`);
      renameNote.textContent = parts.join("; ");
    } catch (err) {
      renameNote.textContent = err.message;
    }
  }
  $("pak-rename").addEventListener("click", async () => {
    if (!selected) return;
    const target = newPath.value.trim();
    const done = await app.attempt(() => app.edit({op: "pak_rename", old: selected, new: target,
                                                  update_references: refs.checked}));
    if (done) selected = target.toLowerCase();
  });

  function table(rows, columns) {
    const t = element("table");
    for (const row of rows) {
      const tr = element("tr");
      for (const column of columns) {
        const value = column(row);
        const td = element("td", {}, typeof value === "string" ? value : value.text);
        if (value.class) td.className = value.class;
        tr.append(td);
      }
      t.append(tr);
    }
    return t;
  }
  const where = row => ({text: row.location === "pak" || row.location === "missing" || row.location === "unknown" ?
    row.location : `${row.location} ${row.where || ""}${row.base ? " [base]" : " [mod]"}`,
    class: `loc-${row.location}`});

  async function runGame(kind) {
    const note = $("pak-game-note");
    note.textContent = `${kind}…`;
    findings.replaceChildren();
    try {
      const data = await app.api(app.mapPath(`/pak/${kind}`), {method: "POST", body: gameFields()});
      const parts = [];
      if (kind === "deps") {
        const c = data.counts;
        note.textContent = `${c.files} files: ${c.pak} packed, ${c.loose} loose, ${c.vpk} in VPKs, ` +
          `${c.missing} missing, ${c.unknown} unknown`;
        const order = {missing: 0, unknown: 1, loose: 2, vpk: 3, pak: 4};
        const rows = [...data.files].sort((a, b) => order[a.location] - order[b.location] || a.path.localeCompare(b.path));
        parts.push(table(rows, [r => r.path + (r.optional ? " (optional)" : ""), where, r => r.reason.join(" > ")]));
      } else {
        note.textContent = `${data.entries} entries: ${data.redundant.length} redundant, ${data.overrides.length} overrides, ` +
          `${data.unused.length} unused, ${data.unresolved.length} unresolved`;
        const rows = [
          ...data.redundant.map(r => ["redundant (the game ships it identical)", r.path]),
          ...data.overrides.map(r => ["override (differs from the game's)", r.path]),
          ...data.unused.map(p => ["unused", p]),
          ...data.unresolved.map(r => ["unresolved", r.path]),
        ];
        parts.push(table(rows, [r => r[0], r => r[1]]));
      }
      if (data.problems && data.problems.length) {
        parts.push(element("div", {class: "dim"}, `not on this machine: ${data.problems.join(", ")}`));
      }
      findings.replaceChildren(...parts);
      findings.dataset.kind = kind;
    } catch (err) {
      note.textContent = "";
      findings.replaceChildren(element("div", {class: "bad"}, err.message));
    }
  }
  $("pak-deps").addEventListener("click", () => runGame("deps"));
  $("pak-audit").addEventListener("click", () => runGame("audit"));
  $("pak-autopack").addEventListener("click", () =>
    app.attempt(() => app.edit({op: "autopack", ...gameFields()})));

  app.on("map", () => { shown = null; selected = null; entries = []; tree.replaceChildren();
                        findings.replaceChildren(); select(null); list(); });
  app.on("edits", () => list());
  app.on("view", name => { if (name === "pak") list(); });
}
