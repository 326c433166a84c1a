"""RULES.md stays true: every function it names exists, and so does every test."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import engines.freunde

_PACKAGE = Path(engines.freunde.__file__).parent
_TESTS = Path(__file__).parent
_PROPERTY = _TESTS.parents[1] / "property" / "test_freunde_properties.py"


def _rows() -> list[list[str]]:
    """The cells of every table row with a Where and a Test column (both rule tables)."""
    rows = []
    for line in (_PACKAGE / "RULES.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0] not in ("Section › rule", "Property", "---"):
            rows.append(cells)
    return rows


def test_every_place_named_in_rules_md_exists() -> None:
    """Each `module.name` of the Where column is an attribute of that engine module."""
    named = 0
    for _, where, _, _ in _rows():
        for module, name in re.findall(r"`(\w+)\.(\w+)`", where):
            assert hasattr(importlib.import_module(f"engines.freunde.{module}"), name), where
            named += 1
        for data in re.findall(r"`(data/[\w.]+)`", where):
            assert (_PACKAGE / data).is_file(), data
    assert named > 40


def test_every_test_named_in_rules_md_exists() -> None:
    """Each `file › test; test` reference names a test function of that file."""
    checked = 0
    for _, _, tests, _ in _rows():
        path: Path | None = None
        for part in tests.split(";"):
            part = part.strip()
            if "›" in part:
                file, _, part = (s.strip() for s in part.partition("›"))
                path = _PROPERTY if file == "property" else _TESTS / f"{file}.py"
            elif part.startswith(("test_", "property")) and "(all)" in part:
                file = part.split()[0]
                path = _PROPERTY if file == "property" else _TESTS / f"{file}.py"
                part = ""
            assert path is not None and path.is_file(), tests
            name = part.split(" ")[0]
            if name.startswith("test_"):
                assert re.search(rf"^def {name}\(", path.read_text(), re.MULTILINE), name
                checked += 1
    assert checked > 60
