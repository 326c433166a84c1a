"""The Solo Challenge Almanac: each challenge's set-up changes, and its goal judged at Game End."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engines.core.errors import RuleViolation
from engines.core.options import OptionError, resolve_options
from engines.harvest.challenges import goal_met
from engines.harvest.content import DATA, Challenge, content
from engines.harvest.engine import ENGINE
from engines.harvest.state import Built, HarvestState

from .helpers import block, crop, game_over, table, with_player

CHALLENGES = content().challenges
FOREST_BLOCKS = content().forests


def finished(challenge: Challenge, score: int = 0, **measures: int) -> HarvestState:
    """A finished game of ``challenge`` whose farm shows exactly these Game End measures:
    Forests kept from the start, Buildings on cleared 2x2 blocks, Bushes and Crops in the
    open strip (a Strawberry and a bare Bush unless told otherwise; a third Crop type is
    a Blueberry on the first Bush)."""
    state = table(1, challenge=challenge.id).state
    start = state.players[0].forests
    buildings = measures.get("buildings", 0)
    forests = measures.get("forests", min(len(start), len(FOREST_BLOCKS) - buildings))
    types = measures.get("crop_types", 1)
    bushes = measures.get("bushes", 1)
    assert forests <= len(start) and 1 <= bushes <= 3 and types <= 3
    cleared = [top for top in FOREST_BLOCKS if top not in start[:forests]]
    assert buildings <= len(cleared)
    built = tuple(Built("mercantile", block(*top)) for top in cleared[:buildings])
    farm = [crop("bush", (r, 0), (r, 1), berry=r == 0 and types >= 3) for r in range(bushes)]
    if types >= 1:
        farm.append(crop("strawberry", (3, 0)))
    if types >= 2:
        farm.append(crop("wheat", (3, 1), (4, 1), (5, 1)))
    state = with_player(state, 0, forests=start[:forests], buildings=built, crops=tuple(farm))
    return game_over(state, score)


def _meeting(challenge: Challenge) -> dict[str, int]:
    """Each goal's measure exactly on its bound."""
    values: dict[str, int] = {}
    for goal in challenge.goals:
        bound = goal.at_least if goal.at_least is not None else goal.at_most
        assert bound is not None
        values[goal.measure] = bound
    return values


def _result(state: HarvestState) -> Any:
    return ENGINE.outcome(state).breakdown["challenge"]


@pytest.mark.parametrize("challenge", CHALLENGES, ids=lambda c: c.id)
def test_a_challenge_changes_the_set_up_as_written(challenge: Challenge) -> None:
    """Game Setup › Solo Challenge Almanac: the starting goods move by the challenge's
    amounts, and its Forests and Workshop spaces replace the usual ones; the rest of
    the set-up is drawn as in a plain solo game."""
    plain = table(1, seed=3).state
    chosen = table(1, seed=3, challenge=challenge.id).state
    assert chosen.challenge == challenge.id and plain.challenge == ""
    start = dict(challenge.start)
    before, after = plain.players[0], chosen.players[0]
    for good in ("coins", "water", "bucket", "fertilizer"):
        assert getattr(after, good) == getattr(before, good) + start.get(good, 0)
    for index, seed in enumerate(("wheat", "strawberry", "blueberry", "pumpkin")):
        assert after.seeds[index] == before.seeds[index] + start.get(seed, 0)
    forests = challenge.forests if challenge.forests is not None else FOREST_BLOCKS
    assert after.forests == tuple(sorted(forests))
    slots = challenge.workshop_slots
    filled = tuple(i for i, b in enumerate(chosen.workshop) if b)
    assert filled == (tuple(sorted(slots)) if slots is not None else (0, 1, 2, 3))
    assert chosen.workshop[:4] == plain.workshop[:4] or slots is not None
    assert after.dealt_characters == before.dealt_characters
    assert ENGINE.view(chosen, 0)["board"]["challenge"]["title"] == challenge.title


@pytest.mark.parametrize("challenge", CHALLENGES, ids=lambda c: c.id)
def test_a_challenge_is_met_on_its_bounds_and_missed_one_short(challenge: Challenge) -> None:
    """Game End: every goal reached is "met"; one goal one step short misses the challenge."""
    values = _meeting(challenge)
    met = _result(finished(challenge, **values))
    assert met["met"] is True and met["id"] == challenge.id
    assert [(g["measure"], g["value"], g["met"]) for g in met["goals"]] == [
        (goal.measure, values[goal.measure], True) for goal in challenge.goals
    ]
    for goal in challenge.goals:
        short = dict(values)
        short[goal.measure] += -1 if goal.at_least is not None else 1
        missed = _result(finished(challenge, **short))
        assert missed["met"] is False
        assert [g["met"] for g in missed["goals"]] == [g is not goal for g in challenge.goals]


def test_goal_bounds_are_inclusive() -> None:
    """A goal "at least 30" is met by 30 and missed by 29; "at most 0" met by 0 only."""
    at_least = next(g for c in CHALLENGES for g in c.goals if g.at_least is not None)
    at_most = next(g for c in CHALLENGES for g in c.goals if g.at_most is not None)
    assert at_least.at_least is not None and at_most.at_most is not None
    assert goal_met(at_least, at_least.at_least) and not goal_met(at_least, at_least.at_least - 1)
    assert goal_met(at_most, at_most.at_most) and not goal_met(at_most, at_most.at_most + 1)


def test_a_game_without_a_challenge_has_no_challenge_result() -> None:
    """Only a challenge game's outcome carries a challenge result."""
    assert "challenge" not in ENGINE.outcome(game_over(table(1).state, 80)).breakdown
    assert ENGINE.view(table(1).state, 0)["board"]["challenge"] is None


def test_the_challenge_option_lists_every_challenge_and_is_solo_only() -> None:
    """The table option names each challenge (or none); a challenge needs one player."""
    spec = next(o for o in ENGINE.info.options if o.name == "challenge")
    assert spec.kind == "choice" and spec.default == "none"
    assert spec.choices == ("none", *(c.id for c in CHALLENGES))
    with pytest.raises(OptionError):
        resolve_options(ENGINE.info.options, {"challenge": "moon_landing"})
    with pytest.raises(RuleViolation) as refused:
        table(2, challenge=CHALLENGES[0].id)
    assert refused.value.code == "challenge.solo"


def test_challenges_are_reconstructed_and_start_within_the_tracks() -> None:
    """Every challenge is marked reconstructed, has a goal, and starts with goods the
    Farm Board can hold (Water below the Bucket, nothing negative)."""
    raw = json.loads((DATA / "challenges.json").read_text(encoding="utf-8"))
    assert all(entry["source"] == "reconstructed" for entry in raw["challenges"])
    assert len({c.id for c in CHALLENGES}) == len(CHALLENGES) >= 5
    for challenge in CHALLENGES:
        assert challenge.goals
        player = table(1, challenge=challenge.id).state.players[0]
        assert 0 <= player.water < player.bucket and player.coins >= 0
        assert player.fertilizer >= 0 and min(player.seeds) >= 0
