"""The offline engine's modules bind each top-level name once: a second binding silently
replaces the first for every rule that reads it, wherever that rule stands in the file."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

import kg.language
import kg.llm.offline

_MODULES = sorted(
    [
        *Path(kg.llm.offline.__file__).parent.glob("*.py"),
        *Path(kg.language.__file__).parent.glob("*.py"),
    ]
)


def _top_level_names(tree: ast.Module) -> list[str]:
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Assign):
            names += [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.append(node.name)
    return names


@pytest.mark.parametrize("module", _MODULES, ids=lambda p: p.name)
def test_each_top_level_name_is_bound_once(module: Path) -> None:
    names = _top_level_names(ast.parse(module.read_text(encoding="utf-8")))
    twice = sorted(name for name, count in Counter(names).items() if count > 1)
    assert twice == [], f"{module.name} binds {twice} more than once"
