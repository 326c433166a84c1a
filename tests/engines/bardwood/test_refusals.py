"""Refusals: stable codes named once, each with a sentence for the player."""

from __future__ import annotations

import re
from pathlib import Path

from engines.bardwood import codes
from engines.core import codes as shared
from proto import bardwood_pb2 as pb
from tests.engines.bardwood.given import cmd, opening, position, singing

RULES = Path(codes.__file__).parent


def test_every_refusal_has_one_stable_code_and_a_player_message() -> None:
    """Codes are unique (and distinct from the kit's shared ones); every message is a
    sentence."""
    found = [r.code for r in codes.ALL]
    assert len(found) == len(set(found)) and len(found) > 40
    assert not set(found) & {r.code for r in (*shared.RULES, *shared.SERVICE)}
    for refusal in codes.ALL:
        assert re.fullmatch(r"[a-z]+\.[a-z_]+", refusal.code), refusal.code
        opening_word = refusal.message.lstrip("{")
        assert opening_word[0].isalpha() and refusal.message.endswith("."), refusal.code


def test_rules_refuse_only_through_the_named_codes() -> None:
    """No module but ``codes.py`` writes a refusal inline."""
    for module in RULES.glob("*.py"):
        if module.name == "codes.py":
            continue
        text = module.read_text(encoding="utf-8")
        assert "Refusal(" not in text and "RuleViolation(" not in text, module.name


def test_a_refusal_names_what_the_command_asked_for() -> None:
    """Messages are filled from the refused command."""
    song = position(opening(), singing(0, space="s1"))
    refused = song.when(0, cmd("perform", spot=4, rune=0)).refused("cost.cannot_pay")
    assert refused.message == "You cannot pay 5 Lyric."
    slot = song.when(0, cmd("pay_volume", slot=7)).refused("song.no_such_card")
    assert "7" in slot.message


def test_the_shared_checks_come_first() -> None:
    """Not your turn, empty command and a command of another stage use the kit's codes."""
    start = position(opening())
    start.when(1, cmd("place_bard", space="s3")).refused("turn.not_yours")
    start.when(0, pb.Command()).refused("command.empty")
    not_now = start.when(0, cmd("finish")).refused("command.not_now")
    assert "starting space" in not_now.message
