"""The project's modules import each other without a cycle (imports inside functions count too), and the layers
hold: no Streamlit in ``core`` or ``viz``, no Plotly in ``core``."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("core", "viz", "glue", "datasets")


def imports() -> dict[str, set[str]]:
    """Each project module and the project modules it imports, anywhere in its body."""
    out = {}
    for pkg in PACKAGES:
        for path in (ROOT / pkg).glob("*.py"):
            name = f"{pkg}.{path.stem}" if path.stem != "__init__" else pkg
            deps = set()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    deps.add(node.module)
                    deps.update(f"{node.module}.{a.name}" for a in node.names)
                elif isinstance(node, ast.Import):
                    deps.update(a.name for a in node.names)
            out[name] = deps
    return {m: {d for d in deps if d in out and d != m} for m, deps in out.items()}


def test_no_import_cycles():
    graph, state, cycles = imports(), {}, []

    def visit(m: str, path: list[str]) -> None:
        state[m] = "open"
        for d in sorted(graph[m]):
            if state.get(d) == "open":
                cycles.append(path[path.index(d):] + [d])
            elif d not in state:
                visit(d, path + [d])
        state[m] = "done"

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    assert not cycles, cycles
    assert "glue.dataset" in graph["glue.userdata"] and "glue.shared" not in graph["glue.userdata"]


def test_the_layers_hold():
    for pkg, banned in (("core", ("streamlit", "plotly", "glue", "viz")), ("viz", ("streamlit", "glue"))):
        for path in (ROOT / pkg).glob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = ([node.module] if isinstance(node, ast.ImportFrom) and node.module else
                         [a.name for a in node.names] if isinstance(node, ast.Import) else [])
                assert not any(n.split(".")[0] in banned for n in names), (path.name, names)
