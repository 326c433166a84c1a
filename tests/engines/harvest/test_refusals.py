"""Commands that break a rule are refused with a stable code, and change nothing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engines.core.canonical import digest
from engines.core.errors import RuleViolation
from engines.core.rng import Rng
from engines.harvest import codes
from engines.harvest.engine import ENGINE
from engines.harvest.state import HarvestState
from proto import harvest_pb2 as pb

from .helpers import command, game_over, placing, resolving, started, with_player


def refusal_of(state: HarvestState, seat: int, cmd: pb.Command) -> RuleViolation:
    before = digest(state)
    with pytest.raises(RuleViolation) as error:
        ENGINE.decide(state, cmd, seat, Rng(b"r", "t", 0))
    assert digest(state) == before
    assert error.value.message
    return error.value


def code_of(state: HarvestState, seat: int, cmd: pb.Command) -> str:
    return refusal_of(state, seat, cmd).code


# What each stage says to a command it does not take (``command.not_now``).
WAITING_FOR = {
    "sunrise": "Choose a Sunrise tile first.",
    "placing": "Place a Player Piece first.",
    "plant": "Finish your plant action first.",
    "store": "That is not one of the actions waiting.",
}


@pytest.mark.parametrize(
    ("situation", "cmd", "code"),
    [
        ("sunrise", command(choose_sunrise=pb.ChooseSunrise(tile=99)), "sunrise.not_in_display"),
        ("sunrise", command(finish=pb.Finish()), "command.not_now"),
        (
            "sunrise",
            command(place_worker=pb.PlaceWorker(space="store_3", payment=pb.Payment())),
            "command.not_now",
        ),
        (
            "placing",
            command(place_worker=pb.PlaceWorker(space="nowhere", payment=pb.Payment())),
            "space.unknown",
        ),
        ("placing", command(take_benefit=pb.TakeBenefit(task=0)), "command.not_now"),
        ("placing", command(), "command.empty"),
        ("store", command(build=pb.Build(slot=0, cell=0, payment=pb.Payment())), "build.none"),
        (
            "store",
            command(plant_seed=pb.PlantSeed(seed="wheat", cells=[0, 6, 12])),
            "plant.not_now",
        ),
        ("store", command(take_benefit=pb.TakeBenefit(task=0)), "benefit.needs_action"),
        ("store", command(purchase=pb.Purchase(item="wheat")), "payment.missing"),
        ("placing", command(place_worker=pb.PlaceWorker(space="store_2")), "payment.missing"),
        (
            "store",
            command(purchase=pb.Purchase(item="tractor", payment=pb.Payment())),
            "purchase.unknown",
        ),
        (
            "store",
            command(purchase=pb.Purchase(item="pumpkin", payment=pb.Payment(coins=3))),
            "payment.cannot_afford",
        ),
        (
            "store",
            command(purchase=pb.Purchase(item="wheat", payment=pb.Payment(water=1))),
            "payment.coins_only",
        ),
        ("plant", command(field_action=pb.FieldAction(kind="tend")), "command.not_now"),
        ("store", command(keep_start=pb.KeepStart()), "command.not_now"),
        (
            "plant",
            command(plant_seed=pb.PlantSeed(seed="pumpkin", cells=[0, 6, 7])),
            "plant.no_seed",
        ),
        (
            "plant",
            command(plant_seed=pb.PlantSeed(seed="wheat", cells=[0, 0, 1])),
            "field.cells_order",
        ),
        (
            "plant",
            command(plant_seed=pb.PlantSeed(seed="wheat", cells=[12, 6, 0])),
            "field.cells_order",
        ),
        (
            "plant",
            command(plant_seed=pb.PlantSeed(seed="wheat", cells=[0, 6, 99])),
            "field.bad_cells",
        ),
    ],
)
def test_rule_breaking_commands_are_refused(situation: str, cmd: pb.Command, code: str) -> None:
    """Each refusal carries its code and a message, and the state is untouched."""
    state = started(3)
    seat = ENGINE.outcome(state).to_act[0]
    if situation == "placing":
        state = placing(state, seat)
    elif situation == "store":
        state = resolving(with_player(state, seat, coins=0), seat, ("purchase", 1))
    elif situation == "plant":
        state = resolving(with_player(state, seat, seeds=(1, 0, 0, 0)), seat, mode="plant")
    refused = refusal_of(state, seat, cmd)
    assert refused.code == code
    if code == "command.not_now":
        assert refused.message == WAITING_FOR[situation]


def test_nothing_is_accepted_once_the_game_is_over() -> None:
    """After Game End every command is refused."""
    state = game_over(started(2))
    assert code_of(state, 0, command(finish=pb.Finish())) == "game.over"
    assert ENGINE.legal_commands(state, 0) == []


def test_a_seat_out_of_turn_is_refused_even_with_a_legal_command() -> None:
    """Commands from seats not to act are refused."""
    state = started(3)
    seat = ENGINE.outcome(state).to_act[0]
    other = (seat + 1) % 3
    legal = ENGINE.legal_commands(state, seat)
    assert legal and ENGINE.legal_commands(state, other) == []
    assert code_of(state, other, legal[0]) == "turn.not_yours"


def test_every_refusal_has_one_stable_code_and_a_player_message() -> None:
    """Refusal codes are named once (``codes.py``): unique, dotted, each with a message."""
    seen = [r.code for r in codes.ALL]
    assert len(seen) == len(set(seen))
    for refusal in codes.ALL:
        assert re.fullmatch(r"[a-z_]+\.[a-z_]+", refusal.code), refusal.code
        assert refusal.message.strip().endswith(".")


def test_rules_refuse_only_through_the_named_codes() -> None:
    """No rule module builds a RuleViolation with an inline code."""
    package = Path(codes.__file__).parent
    inline = [
        path.name
        for path in package.glob("*.py")
        if path.name != "codes.py" and "RuleViolation(" in path.read_text()
    ]
    assert inline == []


def test_a_refusal_message_names_what_the_command_asked_for() -> None:
    """A message with a placeholder is filled from the refused command."""
    state = with_player(started(), 0, fertilizer=1)
    state = resolving(state, 0, ("trade", 1))
    with pytest.raises(RuleViolation) as error:
        ENGINE.decide(
            state, command(trade=pb.Trade(give="fertilizer", action="field")), 0, Rng(b"r", "t", 0)
        )
    assert (error.value.code, error.value.message) == (
        "trade.cannot_afford",
        "A trade costs 2 fertilizer.",
    )
