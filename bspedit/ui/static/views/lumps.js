// The Lumps view: what `info` and `stats` print, as tables (the directory as the file on disk
// has it; lumps that pending edits replace are marked), and the strip presets, each applied as
// a pending edit (`lump strip --preset`).

const STYLE = `
.lumps-tables { display: flex; gap: 10px; flex: 1; min-height: 0; }
.lumps-tables .pane { flex: 1; }
table.grid { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
table.grid th { text-align: left; color: var(--dim); font-weight: normal; position: sticky; top: 0;
  background: var(--panel); padding: 2px 6px; }
table.grid td { padding: 1px 6px; border-bottom: 1px solid #26282c; white-space: nowrap; }
table.grid td.n { text-align: right; }
table.grid tr.empty td { color: #6b7078; }
table.grid tr.pending td { color: var(--warn); }
.bar { display: inline-block; height: 8px; background: var(--accent); vertical-align: middle; }
.bar.high { background: var(--bad); }
.presets { display: flex; gap: 10px; flex-wrap: wrap; }
.preset { flex: 1 1 320px; }
`;

function cell(tag, text, className) {
  const e = document.createElement(tag);
  e.textContent = text;
  if (className) e.className = className;
  return e;
}

function grid(testid, headers, rows) {
  const table = document.createElement("table");
  table.className = "grid";
  table.dataset.testid = testid;
  const head = document.createElement("tr");
  head.append(...headers.map(([name]) => cell("th", name)));
  table.append(head);
  for (const row of rows) {
    const tr = document.createElement("tr");
    if (row.className) tr.className = row.className;
    tr.append(...headers.map(([, numeric], n) => {
      const value = row.cells[n];
      if (value instanceof Node) { const td = cell("td", ""); td.append(value); return td; }
      return cell("td", value === null || value === undefined ? "" : String(value), numeric ? "n" : "");
    }));
    table.append(tr);
  }
  return table;
}

export function mount(root, app) {
  app.addStyle("lumps-view-style", STYLE);
  root.innerHTML = `
    <div class="row"><span data-testid="lumps-info"></span><span class="spacer"></span>
      <label><input type="checkbox" data-testid="lumps-empty"> empty lumps</label></div>
    <div class="lumps-tables">
      <div class="pane" data-testid="lumps-directory"></div>
      <div class="pane" data-testid="lumps-stats"></div>
    </div>
    <div class="pane"><strong>Strip presets</strong>
      <div class="presets" data-testid="lumps-presets"></div></div>`;
  const $ = id => root.querySelector(`[data-testid="${id}"]`);
  const showEmpty = $("lumps-empty");
  let data = null;
  let shown = null;

  async function load(force = false) {
    if (!app.map || app.view !== "lumps") return;
    const wanted = `${app.map.id}/${app.edits.revision}`;
    if (!force && wanted === shown) return;
    shown = wanted;
    const got = await app.attempt(() => app.api(app.mapPath("/lumps")));
    if (shown !== wanted) return;            // another map or revision was asked for since
    data = got;
    if (!data) { shown = null; return; }
    render();
  }

  function render() {
    const info = data.info;
    const details = [info.title, info.version !== null ? `version ${info.version}` : null,
      info.revision !== null ? `map revision ${info.revision}` : null,
      info.byte_order === "big" ? "big-endian (console)" : null,
      info.lump_t_order ? `lump_t order ${info.lump_t_order}` : null,
      `${info.size} bytes`, `header ${info.header_size} bytes`,
      info.trailing_bytes ? `${info.trailing_bytes} trailing bytes` : null,
      info.end_padded_1k ? "end zero-padded to 1 KiB" : null].filter(Boolean);
    $("lumps-info").textContent = details.join(", ");
    const pending = new Set(data.pending);
    const lumps = info.lumps.filter(l => showEmpty.checked || l.length || pending.has(l.index));
    const directory = $("lumps-directory");
    directory.replaceChildren(cell("strong", "info: the lump directory (the file on disk)"),
      grid("lumps-table", [["#", true], ["name"], ["offset", true], ["length", true],
                           ["version", true], ["LZMA (unpacked)", true], ["order", true]],
        lumps.map(l => ({className: pending.has(l.index) ? "pending" : l.length ? "" : "empty",
                         cells: [l.index, l.name + (pending.has(l.index) ? " (edited)" : ""),
                                 l.offset, l.length, l.version,
                                 l.compressed ? l.uncompressed_length : "", l.file_order]}))));
    const gaps = [...info.gaps.map(g => `${g.kind}: ${g.length} bytes at ${g.start} (${g.zero ? "zeros" : "non-zero"})`),
                  ...info.bspx_lumps.map(b => `BSPX lump ${b.name}: ${b.length} bytes at ${b.offset}`)];
    if (gaps.length) directory.append(cell("div", gaps.join("; "), "dim"));
    const stats = $("lumps-stats");
    if (!data.stats) {
      stats.replaceChildren(cell("strong", "stats"), cell("div", data.stats_error || "no counts", "bad"));
    } else {
      stats.replaceChildren(cell("strong", `stats: counts against the ${data.stats.engine} engine's limits`),
        grid("stats-table", [["lump"], ["count", true], ["limit", true], ["unit"], ["used", true], [""]],
          data.stats.rows.map(r => {
            const bar = document.createElement("span");
            bar.className = `bar${r.percent >= 90 ? " high" : ""}`;
            bar.style.width = `${Math.min(100, r.percent)}px`;
            return {cells: [r.lump, r.count, r.limit, r.unit, `${r.percent.toFixed(1)}%`, bar]};
          })));
    }
    $("lumps-presets").replaceChildren(...data.presets.map(preset => {
      const card = document.createElement("div");
      card.className = "pane preset";
      const button = cell("button", `Strip ${preset.name}`, "primary");
      button.dataset.testid = `strip-${preset.name}`;
      const nothing = !preset.lumps.length && !preset.game_lumps.length;
      button.disabled = Boolean(preset.refused) || nothing;
      button.title = preset.refused || "empty these lumps (a pending edit)";
      button.addEventListener("click", () => app.attempt(() => app.edit({op: "strip", preset: preset.name})));
      card.append(cell("strong", preset.name), cell("div", `removes ${preset.removes}`),
                  cell("div", `costs ${preset.cost}`, "dim"),
                  cell("div", preset.refused ? preset.refused :
                       nothing ? "nothing to strip in this map" :
                       `here: ${[...preset.lumps, ...preset.game_lumps.map(g => `game lump ${g}`)].join(", ")}`,
                       preset.refused ? "bad" : ""),
                  button);
      return card;
    }));
  }

  showEmpty.addEventListener("change", () => data && render());
  app.on("map", () => { shown = null; load(); });
  app.on("edits", () => load());
  app.on("view", name => { if (name === "lumps") load(); });
}
