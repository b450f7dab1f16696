// Save: the pending edits (each with its bspedit command), the diff of them against the file on
// disk (what `bspedit diff` prints), saving to a new file or in place (keep-checksum where the
// family has one), and the edits exported as a script of bspedit commands or a Stripper config.

export function mount(root, app) {
  root.innerHTML = `
    <div class="row">
      <input id="save-output" data-testid="save-output" size="50" placeholder="new file: path/to/out.bsp">
      <button id="save-as" data-testid="save-as" class="primary">Save as new file</button>
      <button id="save-in-place" data-testid="save-in-place" title="write the edits into the map itself">Save in place</button>
      <label title="refuse a save that changes the checksum the family's servers compare"><input type="checkbox" id="save-keep-checksum" data-testid="save-keep-checksum"> keep checksum</label>
      <span class="spacer"></span>
      <button id="save-script" data-testid="save-script" title="the edits as a script of bspedit commands">Export script</button>
      <button id="save-stripper" data-testid="save-stripper" title="the edits as a Stripper config (entity edits only)">Export Stripper config</button>
    </div>
    <div id="save-result" data-testid="save-result" class="dim"></div>
    <div class="split">
      <div class="pane" style="flex: 1">
        <strong>Pending edits</strong>
        <ol id="save-edits" data-testid="save-edits"></ol>
      </div>
      <div class="pane" style="flex: 1">
        <div class="row"><strong>Diff against the file on disk</strong><span class="dim">(bspedit diff)</span>
          <span class="spacer"></span><button id="save-diff-refresh" data-testid="save-diff-refresh">Refresh</button></div>
        <pre id="save-diff" data-testid="save-diff"></pre>
      </div>
    </div>
    <div class="pane" id="save-export-pane" style="display: none; max-height: 40%">
      <div class="row"><strong id="save-export-title"></strong><span class="spacer"></span>
        <a id="save-download" data-testid="save-download" class="button">Download</a></div>
      <pre id="save-export" data-testid="save-export"></pre>
    </div>`;
  const $ = id => root.querySelector(`#${id}`);
  let diffRevision = null;

  function renderEdits() {
    const list = $("save-edits");
    list.replaceChildren(...app.edits.edits.map(edit => {
      const item = document.createElement("li");
      const command = document.createElement("code");
      command.className = "dim";
      command.textContent = edit.command;
      item.append(edit.summary, document.createElement("br"), command);
      return item;
    }));
    if (!app.edits.edits.length) list.innerHTML = '<li class="dim">none</li>';
    $("save-in-place").disabled = !app.map || app.map.upload;
  }

  async function loadDiff() {
    if (!app.map) return;
    const revision = app.edits.revision;
    const data = await app.api(app.mapPath("/diff"));
    $("save-diff").textContent = data.lines.join("\n");
    diffRevision = `${app.map.id}:${revision}`;
    $("save-diff").dataset.revision = String(revision);
  }

  function maybeDiff() {
    if (app.view === "save" && app.map && diffRevision !== `${app.map.id}:${app.edits.revision}`) {
      app.attempt(loadDiff);
    }
  }

  async function save(output) {
    if (!app.map) return failed({message: "open a map first"});
    const data = await app.api(app.mapPath("/save"), {method: "POST", body: {
      output, keep_checksum: $("save-keep-checksum").checked}});
    const s = data.save;
    const changed = Object.entries(s.checksums).map(([name, c]) =>
      `${name} ${c.before === c.after ? "unchanged" : "CHANGED"}`).join(", ");
    $("save-result").textContent = `wrote ${s.target} (${s.size} bytes; changed: ${s.changed.join(", ") || "none"}; ${changed})`;
    $("save-result").className = "good";
    app.saved(data);
    diffRevision = null;
    maybeDiff();
  }

  function failed(err) {
    const box = $("save-result");
    box.className = "bad";
    box.textContent = err.kind === "changed_on_disk"
      ? `${err.message}. Your ${app.edits.edits.length} edit(s) are still pending.` : err.message;
    app.status(err.message, "error");
  }

  async function exportAs(form) {
    const text = await app.api(app.mapPath(`/script?form=${form}`), {text: true});
    $("save-export-pane").style.display = "flex";
    $("save-export-title").textContent = form === "sh" ? "Script of bspedit commands (sh SCRIPT [MAP [OUT]])" : "Stripper config";
    $("save-export").textContent = text;
    // the download is the server's bytes (a value that is not UTF-8 stays as it is)
    $("save-download").href = app.mapPath(`/script?form=${form}`);
  }

  $("save-as").addEventListener("click", () => {
    const output = $("save-output").value.trim();
    if (!output) return failed({message: "type the path of the new file"});
    save(output).catch(failed);
  });
  $("save-in-place").addEventListener("click", () => {
    if (!app.map) return failed({message: "open a map first"});
    if (confirm(`Write ${app.edits.edits.length} edit(s) into ${app.map.path}?`)) save(null).catch(failed);
  });
  $("save-script").addEventListener("click", () => exportAs("sh").catch(failed));
  $("save-stripper").addEventListener("click", () => exportAs("stripper").catch(failed));
  $("save-diff-refresh").addEventListener("click", () => app.attempt(loadDiff));
  app.on("edits", () => { renderEdits(); maybeDiff(); });
  app.on("view", maybeDiff);
  app.on("map", () => {
    $("save-result").textContent = "";
    $("save-export-pane").style.display = "none";
    const stem = app.map.path ? app.map.path.replace(/\.bsp$/i, "") : app.map.name.replace(/\.bsp$/i, "");
    $("save-output").value = `${stem}_edited.bsp`;
  });
}
