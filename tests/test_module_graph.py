"""The package graph of ``skeleton`` (issue 30): built from the imports in the
source (every ``import`` and ``from ... import``, at module level or inside a
function), one node per subpackage and per top-level module."""
from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path


ROOT = Path(__file__).resolve().parent.parent / "skeleton"
#: the packages and top-level modules from the floor up (docs/design/README.md): a node
#: imports only nodes of lower layers
LAYERS = (
    {"web", "files", "budget", "redact", "crawl_settings", "items", "browser", "analyses"},
    {"sew", "entropy"},
    {"hierarchy", "navobjects", "wisdom", "schema"},
    {"urlrules", "sitemaps"},
    {"analysis", "tree", "diff"},
    {"template"},
    {"store", "exports"},
    {"middlewares", "setting_types", "recrawl", "cli"},
    {"pipelines"},
    {"extensions"},
    {"spiders"},
    {"commands"},
)


def _node(parts: tuple[str, ...]) -> str:
    """The graph node of module ``skeleton.<parts>``: its subpackage, or itself."""
    return parts[0] if (ROOT / parts[0]).is_dir() else parts[0].removesuffix(".py")


def _imports(path: Path) -> Iterator[str]:
    """The absolute names of the modules ``path`` imports."""
    module = path.relative_to(ROOT.parent).with_suffix("").parts
    package = module[:-1]
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                yield ".".join([*base, *([node.module] if node.module else [])])
            elif node.module:
                yield node.module


def package_graph() -> dict[str, set[str]]:
    """Node -> the other nodes it imports."""
    graph: dict[str, set[str]] = {}
    for path in ROOT.rglob("*.py"):
        source = _node(path.relative_to(ROOT).parts)
        for name in _imports(path):
            parts = name.split(".")
            if parts[0] == "skeleton" and len(parts) > 1:
                target = _node((parts[1],))
                if target != source:
                    graph.setdefault(source, set()).add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_graph_sees_the_imports() -> None:
    graph = package_graph()
    assert {"sew", "web"} <= graph["hierarchy"] and "hierarchy" in graph["analysis"]
    assert "sew" in graph["analysis"] and "analysis" in graph["spiders"]


def test_every_import_goes_down_the_layers() -> None:
    layer = {node: i for i, nodes in enumerate(LAYERS) for node in nodes}
    graph = package_graph()
    assert sorted((set(graph) | {t for ts in graph.values() for t in ts}) - set(layer)) == []
    upward = sorted(f"{source} -> {target}" for source, targets in graph.items() for target in targets
                    if layer[target] >= layer[source])
    assert upward == []


def test_the_algorithm_packages_import_no_higher_one() -> None:
    """``web`` is the floor; ``sew`` (the paper's algorithm) imports only ``web`` and
    the pure helpers; the page analysis, the offline crawl and training sit above
    ``hierarchy`` and ``urlrules``."""
    graph = package_graph()
    assert graph.get("web", set()) == set()
    assert graph["sew"] <= {"web", "budget", "files"}
    assert "analysis" not in graph["hierarchy"] | graph["urlrules"] | graph["sew"] | graph.get("navobjects", set())
    assert "urlrules" not in graph["hierarchy"]


def test_no_package_cycle() -> None:
    assert cycles(package_graph()) == []


def test_only_the_store_imports_redis() -> None:
    outside = sorted(str(path.relative_to(ROOT)) for path in ROOT.rglob("*.py")
                     if not path.relative_to(ROOT).parts[0] == "store"
                     and any(name == "redis" or name.startswith("redis.") for name in _imports(path)))
    assert outside == []
