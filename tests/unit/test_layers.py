"""Each process reaches the others only through shared modules: the projector and the
gateway import nothing of the engine host (its command side, its cache, its queries)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("folder", ["services/projector", "gateway", "services/eventstore"])
def test_a_folder_imports_nothing_of_the_engine_host(folder: str) -> None:
    reached = {
        f"{path.relative_to(ROOT)}: {name}"
        for path in sorted((ROOT / folder).rglob("*.py"))
        for name in _imports(path)
        if name == "services.engine" or name.startswith("services.engine.")
    }
    assert reached == set()
