"""The shape of the code: kg imports none of the apps built on it; those apps change the
research through kg.commands and read it through kg.read_models; no two modules import each
other, directly or round a loop."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APPS = ("kg", "chat", "artifacts", "orgmemory", "config")
BUILT_ON_KG = ("chat", "artifacts", "orgmemory")

# What the apps built on kg may import of it besides its commands and read models: its models
# and tenancy (who may see what), the model port (their own prompts run through it), the
# ontology and language analysis, the API's building blocks, and the real-data suite's registry.
SHARED = (
    "kg.commands",
    "kg.read_models",
    "kg.models",
    "kg.tenancy",
    "kg.web.page_access",
    "kg.llm",
    "kg.ontology",
    "kg.language",
    "kg.web.api.converters",
    "kg.web.api.fields",
    "kg.web.api.views",
    "kg.realdata",
)


def _modules() -> dict[str, Path]:
    found = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def _imports(path: Path, *, top_level_only: bool) -> set[str]:
    """The project modules a file imports (`from a.b import c` counts a.b, and a.b.c when that
    is a module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    names: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return {n for n in names if n.split(".")[0] in APPS}


def _within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def test_kg_imports_none_of_the_apps_built_on_it():
    wrong = {
        f"{name} imports {target}"
        for name, path in _modules().items()
        if name.split(".")[0] == "kg"
        for target in _imports(path, top_level_only=False)
        if _within(target, BUILT_ON_KG)
    }
    assert not wrong, sorted(wrong)


def test_the_apps_built_on_kg_use_its_commands_and_read_models():
    modules = _modules()
    wrong = {
        f"{name} imports {target}"
        for name, path in modules.items()
        if name.split(".")[0] in BUILT_ON_KG
        for target in _imports(path, top_level_only=False)
        if target.split(".")[0] == "kg"
        and target != "kg"
        and not _within(target, SHARED)
        # `from kg.commands import x` also counts kg.commands.x: a name, not a module
        and not (target.rsplit(".", 1)[0] in SHARED and target not in modules)
    }
    assert not wrong, sorted(wrong)


def test_no_import_cycles_between_modules():
    modules = _modules()
    graph = {
        name: {t for t in _imports(path, top_level_only=True) if t in modules and t != name}
        for name, path in modules.items()
    }
    # A package's __init__ imported on the way to its submodule is not an edge of its own.
    cycles: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(name: str) -> None:
        state[name] = 1
        stack.append(name)
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                cycles.append(stack[stack.index(target) :] + [target])
            elif target not in state:
                visit(target)
        stack.pop()
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)
    assert not cycles, [" → ".join(c) for c in cycles]
