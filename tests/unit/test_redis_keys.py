"""Redis key names are written in one place, services/eventstore/keys.py: every other
module of the services and the gateway asks it, so no key is spelled twice."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OWNER = ROOT / "services" / "eventstore" / "keys.py"


def _key_literals(path: Path) -> list[tuple[int, str]]:
    """String literals (f-string parts included; docstrings aside) that spell a key."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    prose = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    found = []
    for node in ast.walk(tree):
        if id(node) in prose or not isinstance(node, ast.Constant):
            continue
        text = node.value
        if not isinstance(text, str) or text.startswith("/"):
            continue  # an HTTP route ("/tables/{table_id}/seats/{seat}") is no key
        if text.startswith("bw:") or ":t:" in text or "{s" in text:
            found.append((node.lineno, text))
    return found


def test_no_module_but_keys_py_spells_a_redis_key() -> None:
    modules = sorted((ROOT / "services").rglob("*.py")) + sorted((ROOT / "gateway").rglob("*.py"))
    assert OWNER in modules
    spelled = {
        f"{path.relative_to(ROOT)}:{line}": text
        for path in modules
        if path != OWNER
        for line, text in _key_literals(path)
    }
    assert spelled == {}
    assert _key_literals(OWNER), "the check finds keys where they are"
