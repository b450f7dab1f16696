"""The Logic view's data: `ent check`'s findings (each naming its entity's index, so the page
links it to the entity) and the I/O graph around one entity (`ent graph --around`), with a
column per node for drawing it left to right."""
from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import BspError

if TYPE_CHECKING:
    from ..bsp import Bsp
    from ..features.logic.graph import Graph
    from ..lumps.entities import Entity

#: the most links away the graph reaches (the page's depth field)
MAX_DEPTH = 6


def findings(bsp: Bsp, entities: Sequence[Entity]) -> dict[str, Any]:
    """What `ent check` finds in `entities` (the map's with the pending edits applied):
    `{"findings": [Finding.to_dict()...], "counts": {severity: n}}` (no game: asset keys are
    `ent check --game`'s)."""
    from ..features.logic.check import check, summary

    found = check(bsp, entities=entities)
    return {"findings": [f.to_dict() for f in found], "counts": summary(found)}


def graph_around(bsp: Bsp, entities: Sequence[Entity], index: int, depth: int = 2
                 ) -> dict[str, Any]:
    """The links within `depth` of entity `index`, as `ent graph --around` draws them:
    `{"nodes": [{id, kind, name, classname, index, column}], "edges": [{source, target, key,
    input, parameter, delay, label, output, dangling}]}`. A node's column counts the links
    from the entity, following them (right, +1) or against them (left, -1); the entity is in
    column 0 even when nothing links to it or from it."""
    from ..features.logic.classes import Classes, rules_for
    from ..features.logic.graph import ENTITY, Node, build

    if not 0 <= index < len(entities):
        raise BspError(f"no entity {index} (the map has {len(entities)})")
    if not 0 <= depth <= MAX_DEPTH:
        raise BspError(f"depth {depth}: give 0 to {MAX_DEPTH} links")
    rules = rules_for(bsp.family.engine)
    whole = build(entities, rules, Classes() if rules.source else None)
    start = f"e{index}"
    graph = whole.around([start], depth)
    if start not in graph.nodes:
        entity = entities[index]
        graph.nodes[start] = Node(start, ENTITY, entity.get("targetname", ""),
                                  entity.get("classname", ""), index)
    columns = _columns(graph, start)
    return {"nodes": [{"id": n.id, "kind": n.kind, "name": n.name, "classname": n.classname,
                       "index": n.index, "label": n.label, "column": columns[n.id]}
                      for n in graph.nodes.values()],
            "edges": [{"source": e.source, "target": e.target, "key": e.link.key,
                       "input": e.link.input, "parameter": e.link.parameter,
                       "delay": e.link.delay, "label": e.label, "output": e.link.is_output,
                       "dangling": e.dangling} for e in graph.edges]}


def _columns(graph: Graph, start: str) -> dict[str, int]:
    """Each node's signed distance from `start` (breadth first, an edge followed +1, against
    -1); nodes it cannot reach (none, after `around`) in column 0."""
    steps: dict[str, list[tuple[str, int]]] = {}
    for edge in graph.edges:
        steps.setdefault(edge.source, []).append((edge.target, 1))
        steps.setdefault(edge.target, []).append((edge.source, -1))
    column = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for other, step in steps.get(node, ()):
            if other not in column:
                column[other] = column[node] + step
                queue.append(other)
    return {node: column.get(node, 0) for node in graph.nodes}
