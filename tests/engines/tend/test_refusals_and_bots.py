"""Refusals carry a stable code named once in codes.py and a message a player reads; the
bots only play legal commands, and the greedy one outscores the random one."""

from __future__ import annotations

import random
import re
from pathlib import Path

from engines.core import codes as shared
from engines.core.contract import TableConfig
from engines.core.options import resolve_options
from engines.core.play import Table
from engines.tend import codes
from engines.tend.bots import GreedyBot, RandomBot
from engines.tend.engine import ENGINE
from proto import tend_pb2 as pb
from tests.engines.tend.given import cmd, gained, opening, position

TEND = Path(codes.__file__).parent


def test_every_refusal_has_one_stable_code_and_a_player_message() -> None:
    found = codes.ALL
    assert len({r.code for r in found}) == len(found), "codes are unique"
    assert not {r.code for r in found} & {r.code for r in shared.RULES}
    for refusal in found:
        assert re.fullmatch(r"[a-z_]+\.[a-z_]+", refusal.code), refusal.code
        assert refusal.message and refusal.message[0].isupper()


def test_rules_refuse_only_through_the_named_codes() -> None:
    """No rule writes a code inline: every RuleViolation comes from codes.py (or the kit's
    shared codes)."""
    for path in sorted(TEND.glob("*.py")):
        if path.name == "codes.py":
            continue
        text = path.read_text(encoding="utf-8")
        assert "Refusal(" not in text and "RuleViolation(" not in text, path.name


def test_a_refusal_names_what_the_command_asked_for() -> None:
    history = [*opening(), gained(0, "wood")]
    refused = position(history).when(0, cmd(sell=pb.Sell(good="wood"))).refused("sell.unlisted")
    assert refused.message == "The commissary does not buy wood."
    refused = position(history).when(0, cmd(chop=pb.Chop(square=3))).refused("command.not_now")
    assert "Use what you gained first" in refused.message


def _game(bots: list[type[RandomBot] | type[GreedyBot]], seed: int) -> Table:
    seats = len(bots)
    config = TableConfig(f"bots-{seed}", seats, resolve_options(ENGINE.info.options, {}))
    table = Table.create(ENGINE, config, seed.to_bytes(8, "big"))
    players = [bot(seed * 10 + n) for n, bot in enumerate(bots)]
    rnd = random.Random(seed)
    while not ENGINE.outcome(table.state).finished:
        seat = rnd.choice(ENGINE.outcome(table.state).to_act)
        command = players[seat].choose(ENGINE, table.state, seat)
        listed = ENGINE.legal_commands(table.state, seat)
        assert command in listed
        table.execute(seat, command)
    return table


def test_the_greedy_bot_outscores_the_random_bot() -> None:
    """Greedy against random at one table, seats swapped: greedy wins every game."""
    for seed in range(2):
        order: list[type[RandomBot] | type[GreedyBot]] = [GreedyBot, RandomBot]
        if seed % 2:
            order.reverse()
        table = _game(order, seed)
        greedy = order.index(GreedyBot)
        scores = ENGINE.outcome(table.state).scores
        assert scores[greedy] > scores[1 - greedy], scores
