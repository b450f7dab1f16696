// The Logic view: `ent check`'s findings (click one: its entity is selected) and the I/O graph
// around the selected entity, drawn as SVG in columns: what fires it on the left, what it
// fires on the right (a node's column counts the links from it). Click a node to move there.

const STYLE = `
.logic-findings { flex: 0 0 38%; }
.logic-findings ul { list-style: none; margin: 0; padding: 0; overflow: auto; }
.logic-findings li { padding: 3px 4px; border-bottom: 1px solid #26282c; cursor: pointer; }
.logic-findings li:hover { background: #24272c; }
.logic-findings li.selected { background: #26406b; }
.sev { display: inline-block; min-width: 58px; font-size: 11px; text-transform: uppercase; }
.sev.problem { color: var(--bad); } .sev.warning { color: var(--warn); }
.sev.note { color: var(--dim); } .sev.unknown { color: var(--dim); }
.logic-graph { flex: 1; }
.logic-graph svg { background: #1b1c1f; border-radius: 4px; }
.gnode rect { fill: #2c3038; stroke: #5b6270; rx: 6; }
.gnode.entity { cursor: pointer; }
.gnode.entity:hover rect { stroke: var(--accent); }
.gnode.centre rect { fill: #26406b; stroke: var(--accent); stroke-width: 2; }
.gnode.dangling rect { fill: #3a2226; stroke: var(--bad); }
.gnode.runtime rect { stroke-dasharray: 4 3; fill: #25272b; }
.gnode text { fill: var(--text); font-size: 12px; }
.gnode text.sub { fill: var(--dim); font-size: 11px; }
.gedge path { fill: none; stroke: #7d8590; stroke-width: 1.3; }
.gedge.key path { stroke-dasharray: 5 3; }
.gedge.dangling path { stroke: var(--bad); }
.gedge text { fill: #c9ced6; font-size: 10.5px; paint-order: stroke; stroke: #1b1c1f; stroke-width: 3px; }
.gedge.dangling text { fill: var(--bad); }
`;

const NODE_W = 190, NODE_H = 38, COL_GAP = 200, ROW_GAP = 22;
const SVG = "http://www.w3.org/2000/svg";

function svg(name, attributes = {}, text) {
  const element = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attributes)) element.setAttribute(k, v);
  if (text !== undefined) element.textContent = text;
  return element;
}

function clip(text, length) {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

export function mount(root, app) {
  app.addStyle("logic-view-style", STYLE);
  root.innerHTML = `
    <div class="split">
      <div class="pane logic-findings">
        <div class="row"><strong>ent check</strong>
          <label><input type="checkbox" data-sev="problem" checked> problems</label>
          <label><input type="checkbox" data-sev="warning" checked> warnings</label>
          <label><input type="checkbox" data-sev="note"> notes</label>
          <span class="spacer"></span>
          <button data-testid="logic-recheck" title="check again">Check</button></div>
        <div class="dim" data-testid="logic-counts"></div>
        <ul data-testid="logic-findings"></ul>
      </div>
      <div class="pane logic-graph">
        <div class="row"><strong>I/O graph</strong>
          <span data-testid="logic-centre" class="dim">select an entity (here, in the Map or the Entities view)</span>
          <span class="spacer"></span>
          <label>depth <select data-testid="logic-depth">
            <option>1</option><option selected>2</option><option>3</option><option>4</option></select></label></div>
        <div class="grow" style="overflow:auto" data-testid="logic-graph"></div>
      </div>
    </div>`;
  const list = root.querySelector('[data-testid="logic-findings"]');
  const counts = root.querySelector('[data-testid="logic-counts"]');
  const holder = root.querySelector('[data-testid="logic-graph"]');
  const centre = root.querySelector('[data-testid="logic-centre"]');
  const depth = root.querySelector('[data-testid="logic-depth"]');
  let findings = [];
  let checked = null;       // the map and revision the findings are of
  let drawn = null;         // the map, revision, entity and depth the graph is of

  function shownSeverities() {
    return new Set([...root.querySelectorAll("input[data-sev]")].filter(i => i.checked)
      .map(i => i.dataset.sev));
  }

  function renderFindings() {
    const shown = shownSeverities();
    list.replaceChildren(...findings.map((f, n) => [f, n]).filter(([f]) => shown.has(f.severity))
      .map(([f, n]) => {
        const item = document.createElement("li");
        item.dataset.testid = `finding-${n}`;
        item.dataset.entity = f.entity.index;
        item.tabIndex = 0;
        const name = f.entity.targetname ? ` '${f.entity.targetname}'` : "";
        item.innerHTML = `<span class="sev ${f.severity}"></span><a></a> <span class="dim"></span><div></div>`;
        item.querySelector(".sev").textContent = f.severity;
        item.querySelector("a").textContent = `#${f.entity.index} ${f.entity.classname || "?"}${name}`;
        // an output's fields are separated by ESC (or commas): shown as commas
        item.querySelector("span.dim").textContent = f.key ? `${f.key} = ${clip(f.value.replace(/\x1b/g, ","), 60)}` : "";
        item.querySelector("div").textContent = f.message;
        item.classList.toggle("selected", f.entity.index === app.entity);
        return item;
      }));
  }

  async function check(force = false) {
    if (!app.map || app.view !== "logic") return;
    const wanted = `${app.map.id}/${app.edits.revision}`;
    if (!force && wanted === checked) return;
    checked = wanted;
    counts.textContent = "checking…";
    const data = await app.attempt(() => app.api(app.mapPath("/check")));
    if (checked !== wanted) return;          // another map or revision was asked for since
    if (!data) { counts.textContent = ""; checked = null; return; }
    findings = data.findings;
    const c = data.counts;
    counts.textContent = `${c.problem} problem(s), ${c.warning} warning(s), ${c.note} note(s)` +
      (findings.length ? "" : ": nothing found");
    list.dataset.revision = String(data.revision);
    renderFindings();
  }

  async function graph() {
    if (!app.map || app.view !== "logic") return;
    if (app.entity === null || app.entity === undefined) {
      holder.replaceChildren();
      centre.textContent = "select an entity (here, in the Map or the Entities view)";
      drawn = null;
      return;
    }
    const wanted = `${app.map.id}/${app.edits.revision}/${app.entity}/${depth.value}`;
    if (wanted === drawn) return;
    drawn = wanted;
    const data = await app.attempt(() =>
      app.api(app.mapPath(`/graph?entity=${app.entity}&depth=${depth.value}`)));
    if (drawn !== wanted) return;
    if (!data) { holder.replaceChildren(); drawn = null; return; }
    const me = data.nodes.find(n => n.index === data.entity);
    centre.textContent = me ? `around #${me.index} ${me.classname}${me.name ? ` '${me.name}'` : ""}: ` +
      `${data.nodes.length} node(s), ${data.edges.length} link(s)` : "";
    draw(data);
  }

  function draw(data) {
    const columns = new Map();
    for (const node of data.nodes) {
      if (!columns.has(node.column)) columns.set(node.column, []);
      columns.get(node.column).push(node);
    }
    const order = [...columns.keys()].sort((a, b) => a - b);
    const tallest = Math.max(...[...columns.values()].map(c => c.length));
    const height = Math.max(tallest * (NODE_H + ROW_GAP) + ROW_GAP, 120);
    const width = order.length * (NODE_W + COL_GAP) - COL_GAP + 40;
    const at = new Map();
    order.forEach((column, x) => {
      const nodes = columns.get(column).sort((a, b) => (a.name || "").localeCompare(b.name || ""));
      const top = (height - nodes.length * (NODE_H + ROW_GAP) + ROW_GAP) / 2;
      nodes.forEach((node, y) => at.set(node.id, {x: 20 + x * (NODE_W + COL_GAP),
                                                  y: top + y * (NODE_H + ROW_GAP)}));
    });
    const canvas = svg("svg", {width, height, viewBox: `0 0 ${width} ${height}`,
                               "data-testid": "logic-svg"});
    const defs = svg("defs");
    canvas.append(defs);
    defs.append(...["plain", "bad"].map(name => {
      const marker = svg("marker", {id: `arrow-${name}`, viewBox: "0 0 10 10", refX: 10, refY: 5,
                                    markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse"});
      marker.append(svg("path", {d: "M0 0 L10 5 L0 10 z", fill: name === "bad" ? "#ff6b6b" : "#7d8590"}));
      return marker;
    }));
    // edges first (under the nodes); several links between two nodes fan out
    const pairs = new Map();
    for (const edge of data.edges) {
      const k = `${edge.source}>${edge.target}`;
      pairs.set(k, (pairs.get(k) || 0) + 1);
      const nth = pairs.get(k) - 1;
      const a = at.get(edge.source), b = at.get(edge.target);
      if (!a || !b) continue;
      const group = svg("g", {class: `gedge${edge.output ? "" : " key"}${edge.dangling ? " dangling" : ""}`});
      let d, lx, ly, anchor = "end";
      const fan = nth * 14;
      if (edge.source === edge.target) {
        d = `M${a.x + NODE_W - 30} ${a.y} C${a.x + NODE_W + 20} ${a.y - 50 - fan}, ${a.x + NODE_W + 40} ${a.y + 10}, ${a.x + NODE_W} ${a.y + NODE_H / 2}`;
        lx = a.x + NODE_W + 8; ly = a.y - 30 - fan; anchor = "start";
      } else {
        // the label sits by the target's end of the edge, where edges fan apart
        const forward = b.x > a.x, same = b.x === a.x;
        const x1 = forward || same ? a.x + NODE_W : a.x, y1 = a.y + NODE_H / 2;
        const x2 = forward ? b.x : b.x + NODE_W, y2 = b.y + NODE_H / 2 - 4 + Math.min(nth, 4) * 3;
        const bend = same ? 80 : Math.max(40, Math.abs(x2 - x1) / 2);
        const c1 = forward || same ? x1 + bend : x1 - bend;
        const c2 = forward ? x2 - bend : x2 + bend;
        d = `M${x1} ${y1} C${c1} ${y1}, ${c2} ${y2}, ${x2} ${y2}`;
        lx = forward ? x2 - 10 : x2 + 10; ly = b.y + NODE_H / 2 - 6 - nth * 12;
        anchor = forward ? "end" : "start";
      }
      group.append(svg("path", {d, "marker-end": `url(#arrow-${edge.dangling ? "bad" : "plain"})`}));
      const label = svg("text", {x: lx, y: ly, "text-anchor": anchor}, clip(edge.label, 30));
      label.append(svg("title", {}, edge.label));
      group.append(label);
      canvas.append(group);
    }
    for (const node of data.nodes) {
      const p = at.get(node.id);
      const mine = node.index === data.entity;
      const group = svg("g", {class: `gnode ${node.kind}${mine ? " centre" : ""}`,
                              transform: `translate(${p.x},${p.y})`,
                              "data-testid": `graph-node-${node.id}`});
      group.append(svg("rect", {width: NODE_W, height: NODE_H, rx: 6}));
      const title = node.kind === "entity" ? (node.name || "(unnamed)") : (node.name || "(empty)");
      group.append(svg("text", {x: 8, y: 15}, clip(title, 28)));
      const sub = node.kind === "entity" ? `${node.classname} #${node.index}` :
        node.kind === "dangling" ? "no entity has this name" : "found at run time";
      group.append(svg("text", {x: 8, y: 30, class: "sub"}, clip(sub, 30)));
      group.append(svg("title", {}, node.label));
      if (node.kind === "entity") group.addEventListener("click", () => app.selectEntity(node.index));
      canvas.append(group);
    }
    holder.replaceChildren(canvas);
  }

  list.addEventListener("click", event => {
    const item = event.target.closest("li");
    if (item) app.selectEntity(Number(item.dataset.entity));
  });
  list.addEventListener("keydown", event => {
    const item = event.target.closest("li");
    if (!item) return;
    if (event.key === "Enter") app.selectEntity(Number(item.dataset.entity));
    else if (event.key === "ArrowDown" && item.nextElementSibling) item.nextElementSibling.focus();
    else if (event.key === "ArrowUp" && item.previousElementSibling) item.previousElementSibling.focus();
    else return;
    event.preventDefault();
  });
  for (const box of root.querySelectorAll("input[data-sev]")) box.addEventListener("change", renderFindings);
  root.querySelector('[data-testid="logic-recheck"]').addEventListener("click", () => check(true));
  depth.addEventListener("change", graph);
  app.on("map", () => { checked = drawn = null; findings = []; list.replaceChildren(); holder.replaceChildren(); check(); graph(); });
  app.on("edits", () => { check(); graph(); });
  app.on("entity", () => { renderFindings(); graph(); });
  app.on("view", name => { if (name === "logic") { check(); graph(); } });
}
