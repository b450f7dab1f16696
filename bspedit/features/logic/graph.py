"""The graph of a map's entity logic: a node per entity that a link leaves or reaches,
labelled with its name and class, and an edge per link and entity it reaches (`links`):
outputs labelled with output, input, parameter and delay, keys with the key's name.

A link that reaches no entity goes to a red placeholder node named after the missing name
(one per name), drawn with a red edge; a name only the running map resolves (`!activator`,
a name given to spawned entities, a class the game creates) goes to a grey dashed
placeholder. `around` keeps the neighbourhood of some entities; `to_dot` writes Graphviz's
DOT language, `render` runs Graphviz's `dot` to make SVG or PNG from it.
"""
from __future__ import annotations

import shutil
import subprocess
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ...errors import BspError
from ...format.names import fold
from ...lumps.connections import names_match
from ...lumps.entities import Entity
from .classes import Classes, Rules
from .links import Link, Names, links

__all__ = ["INSTALL_HINT", "Edge", "Graph", "Node", "build", "render", "to_dot"]

ENTITY, DANGLING, RUNTIME = "entity", "dangling", "runtime"
INSTALL_HINT = ("install Graphviz (Debian/Ubuntu: apt install graphviz; Fedora: dnf install "
                "graphviz; macOS: brew install graphviz; Windows: winget install graphviz) so "
                "that `dot` is on the PATH")


@dataclass(frozen=True, slots=True)
class Node:
    """An entity (`index` its place in the lump) or a placeholder for a name (`kind`
    "dangling": no entity has it; "runtime": only the running map resolves it)."""

    id: str
    kind: str
    name: str
    classname: str = ""
    index: int | None = None

    @property
    def label(self) -> str:
        if self.kind == ENTITY:
            return f"{self.name or '(unnamed)'}\n{self.classname} #{self.index}"
        return f"{self.name or '(empty)'}\n({'no entity' if self.kind == DANGLING else 'at run time'})"


@dataclass(frozen=True, slots=True)
class Edge:
    source: str
    target: str
    link: Link
    dangling: bool

    @property
    def label(self) -> str:
        link = self.link
        if link.input is None:
            return link.key
        text = f"{link.key} > {link.input}"
        if link.parameter:
            text += f"({link.parameter})"
        try:
            delay = float(link.delay)
        except ValueError:
            delay = 0.0
        return text + (f" +{link.delay}s" if delay else "")


@dataclass
class Graph:
    nodes: dict[str, Node] = field(default_factory=dict)
    edges: list[Edge] = field(default_factory=list)

    @property
    def dangling(self) -> int:
        """How many edges lead to a missing name."""
        return sum(edge.dangling for edge in self.edges)

    def around(self, nodes: Iterable[str], depth: int) -> Graph:
        """The nodes within `depth` edges of `nodes` (either way) and the edges between them."""
        neighbours: dict[str, set[str]] = {}
        for edge in self.edges:
            neighbours.setdefault(edge.source, set()).add(edge.target)
            neighbours.setdefault(edge.target, set()).add(edge.source)
        seen = {node: 0 for node in nodes}
        queue = deque(seen)
        while queue:
            node = queue.popleft()
            if seen[node] < depth:
                for other in neighbours.get(node, ()):
                    if other not in seen:
                        seen[other] = seen[node] + 1
                        queue.append(other)
        return Graph({k: v for k, v in self.nodes.items() if k in seen},
                     [e for e in self.edges if e.source in seen and e.target in seen])

    def named(self, name: str, rules: Rules) -> list[str]:
        """The nodes whose name is `name` under the engine's rules (a trailing `*` matches a
        prefix on Source maps), placeholders included."""
        if rules.source:
            return [k for k, n in self.nodes.items() if names_match(name, n.name)]
        same = (lambda a: a == name) if rules.exact_case else (lambda a: fold(a) == fold(name))
        return [k for k, n in self.nodes.items() if n.name and same(n.name)]


def build(entities: Sequence[Entity], rules: Rules, classes: Classes | None = None) -> Graph:
    """The graph of the entities' links (see the module's doc)."""
    names = Names(entities, rules, classes)
    graph = Graph()

    def entity_node(index: int) -> str:
        key = f"e{index}"
        if key not in graph.nodes:
            entity = entities[index]
            graph.nodes[key] = Node(key, ENTITY, entity.get("targetname", ""),
                                    entity.get("classname", ""), index)
        return key

    placeholders: dict[tuple[str, str], str] = {}

    def placeholder(kind: str, name: str) -> str:
        folded = (kind, name if rules.exact_case else fold(name))
        if folded not in placeholders:
            placeholders[folded] = key = f"{kind}{len(placeholders)}"
            graph.nodes[key] = Node(key, kind, name)
        return placeholders[folded]

    for link in links(entities, rules, classes):
        source = entity_node(link.source)
        targets = names.resolve(link)
        if targets is None:
            graph.edges.append(Edge(source, placeholder(RUNTIME, link.name), link, False))
        elif not targets:
            graph.edges.append(Edge(source, placeholder(DANGLING, link.name), link, True))
        else:
            graph.edges += [Edge(source, entity_node(t), link, False) for t in targets]
    return graph


def _quoted(text: str) -> str:
    """A DOT quoted string showing `text`: quotes and backslashes escaped, line breaks as
    DOT's `\\n`, other control characters and undecodable bytes shown as escapes."""
    text = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif char < " " or char == "\x7f":
            out.append(f"\\\\x{ord(char):02x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


_NODE_STYLE = {ENTITY: "", DANGLING: ", color=red, fontcolor=red, style=\"rounded,bold\"",
               RUNTIME: ", color=grey50, fontcolor=grey40, style=\"rounded,dashed\""}


def to_dot(graph: Graph, title: str = "entity logic") -> str:
    """The graph in Graphviz's DOT language; each edge carries `class="output"` or
    `class="key"` (SVG keeps it as the element's class)."""
    lines = [f"digraph {_quoted(title)} {{",
             "  graph [rankdir=LR];",
             '  node [shape=box, style=rounded, fontname="Helvetica"];',
             '  edge [fontname="Helvetica", fontsize=10];']
    for node in graph.nodes.values():
        lines.append(f'  "{node.id}" [label={_quoted(node.label)}{_NODE_STYLE[node.kind]}];')
    for edge in graph.edges:
        kind = "output" if edge.link.is_output else "key"
        red = ", color=red, fontcolor=red" if edge.dangling else ""
        lines.append(f'  "{edge.source}" -> "{edge.target}" [label={_quoted(edge.label)}, '
                     f'class="{kind}"{red}];')
    lines.append("}")
    return "\n".join(lines) + "\n"


def render(dot: str, fmt: str) -> bytes:
    """DOT text drawn by Graphviz as `fmt` (svg, png); BspError when `dot` is not installed
    (with how to install it) or fails."""
    program = shutil.which("dot")
    if program is None:
        raise BspError(f"Graphviz's dot is not installed: {INSTALL_HINT}")
    done = subprocess.run([program, f"-T{fmt}"], input=dot.encode("utf-8"),
                          capture_output=True, check=False)
    if done.returncode:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise BspError(f"Graphviz's dot failed (exit {done.returncode}): "
                       f"{message[-1] if message else 'no message'}")
    return done.stdout
