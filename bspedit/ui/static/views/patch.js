// Patch: a Stripper:Source config editor. Preview (Ctrl+Enter) shows which entities the config
// would remove, add or change, before anything is applied; Apply makes it one pending edit
// (`bspedit patch MAP CONFIG`), with the plugin's semantics.

export function mount(root, app) {
  root.innerHTML = `
    <div class="row">
      <button id="patch-preview" data-testid="patch-preview" class="primary" title="Ctrl+Enter">Preview</button>
      <button id="patch-apply" data-testid="patch-apply">Apply</button>
      <label title="apply what bspedit patch refuses without --force (a run that leaves no worldspawn, a destructive filter)"><input type="checkbox" id="patch-force" data-testid="patch-force"> force</label>
      <label class="button">Load .cfg… <input type="file" id="patch-file" data-testid="patch-file" accept=".cfg,.txt" class="offscreen"></label>
      <span id="patch-summary" data-testid="patch-summary" class="dim"></span>
    </div>
    <div class="split">
      <div class="pane" style="flex: 1">
        <textarea id="patch-config" data-testid="patch-config" class="grow" spellcheck="false"
          placeholder='modify:
{
	match:
	{
		"classname" "func_door"
	}
	replace:
	{
		"speed" "400"
	}
}'></textarea>
      </div>
      <div class="pane" style="flex: 1" id="patch-result" data-testid="patch-result">
        <p class="dim">Preview shows what the config would do.</p>
      </div>
    </div>`;
  const $ = id => root.querySelector(`#${id}`);
  const result = $("patch-result");

  function pairs(list) {
    return list.map(([k, v]) => `"${k}" "${v}"`).join("\n");
  }

  function block(kind, title, text) {
    const details = document.createElement("details");
    details.className = `diff-${kind}`;
    details.dataset.testid = `patch-${kind}`;
    const summary = document.createElement("summary");
    summary.textContent = title;
    const pre = document.createElement("pre");
    pre.textContent = text;
    details.append(summary, pre);
    return details;
  }

  function show(data) {
    result.replaceChildren();
    const head = document.createElement("p");
    head.dataset.testid = "patch-counts";
    head.textContent = `${data.removed.length} removed, ${data.added.length} added, ${data.changed.length} changed`;
    result.append(head);
    if (data.refused) {
      const p = document.createElement("p");
      p.className = "bad";
      p.textContent = `refused: ${data.refused}`;
      result.append(p);
    }
    for (const line of [...data.diagnostics, ...data.blocks]) {
      const p = document.createElement("pre");
      p.className = "dim";
      p.textContent = line;
      result.append(p);
    }
    for (const e of data.removed) result.append(block("removed", `− entity ${e.index} (${e.classname})`, pairs(e.pairs)));
    for (const e of data.added) result.append(block("added", `+ entity ${e.index} (${e.classname})`, pairs(e.pairs)));
    for (const c of data.changed) {
      const lines = c.keys.map(k => `"${k.key}": ${JSON.stringify(k.before)} -> ${JSON.stringify(k.after)}`);
      result.append(block("changed", `~ entity ${c.index[0]} (${c.classname})`, lines.join("\n")));
    }
    $("patch-summary").textContent = head.textContent;
  }

  async function preview() {
    const data = await app.api(app.mapPath("/stripper/preview"), {
      method: "POST", body: {config: $("patch-config").value, force: $("patch-force").checked}});
    show(data);
    return data;
  }

  $("patch-preview").addEventListener("click", () => app.attempt(preview, "preview: nothing applied"));
  $("patch-apply").addEventListener("click", () => app.attempt(() => app.edit({
    op: "stripper", config: $("patch-config").value, force: $("patch-force").checked})));
  $("patch-config").addEventListener("keydown", ev => {
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) {
      ev.preventDefault();
      app.attempt(preview, "preview: nothing applied");
    }
  });
  $("patch-file").addEventListener("change", async ev => {
    const file = ev.target.files[0];
    if (file) $("patch-config").value = await file.text();
    ev.target.value = "";
  });
  app.on("map", () => { result.innerHTML = '<p class="dim">Preview shows what the config would do.</p>'; });
}
