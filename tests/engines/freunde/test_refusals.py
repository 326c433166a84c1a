"""Refusal codes are named once (codes.py), each with a message, and each has a scenario."""

from __future__ import annotations

from pathlib import Path

from engines.freunde import codes

_HERE = Path(__file__).parent
# With 27 plots a garden always has a free spot beside the pond or two plots: a guard only.
_CANNOT_ARISE = {"plot.no_space"}


def test_codes_are_unique_dotted_and_explained() -> None:
    """Every code is given once, reads ``area.reason`` and has a message for the player."""
    seen = [refusal.code for refusal in codes.ALL]
    assert len(seen) == len(set(seen)) == len(codes.ALL) > 30
    for refusal in codes.ALL:
        area, _, reason = refusal.code.partition(".")
        assert area and reason and refusal.message


def test_no_rule_builds_a_refusal_inline() -> None:
    """Rules raise the refusals of codes.py (or the kit's shared ones), never a new code."""
    package = Path(codes.__file__).parent
    inline = [p.name for p in package.glob("*.py") if "RuleViolation(" in p.read_text()]
    assert inline == []


def test_every_refusal_has_a_scenario() -> None:
    """Each code is asserted by some scenario test of this folder."""
    scenarios = "".join(
        p.read_text() for p in _HERE.glob("test_*.py") if p.name != Path(__file__).name
    )
    missing = [r.code for r in codes.ALL if f'"{r.code}"' not in scenarios]
    assert sorted(missing) == sorted(_CANNOT_ARISE)
