"""The client's bots are each game's own: looked up by name in the engine's ``bots``."""

from __future__ import annotations

from typing import Any

import pytest

import engines
from engines.core.bots import GreedyBot, RandomBot
from engines.core.canonical import message_bytes
from engines.core.contract import TableConfig
from engines.core.play import Table
from engines.freunde.bots import GreedyFreundeBot
from gateway.client import game_bot


def test_a_game_on_the_kit_seats_its_own_greedy_player() -> None:
    """Freunde's greedy bot is Freunde's, not the generic one; random is the kit's."""
    freunde = engines.get("freunde")
    assert isinstance(game_bot(freunde, "greedy", 1), GreedyFreundeBot)
    assert isinstance(game_bot(freunde, "random", 1), RandomBot)


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_the_same_seed_plays_the_same_game(name: str) -> None:
    """A bot's seed fixes its choices, so a table played twice plays alike."""
    freunde = engines.get("freunde")

    def played(bot_seed: int) -> list[bytes]:
        bot = game_bot(freunde, name, bot_seed)
        table = Table.create(freunde, TableConfig("bots", 2, {"round_limit": 2}), b"seed")
        table.play(lambda t, seat: bot.choose(freunde, t.state, seat))
        return [message_bytes(r.command) for r in table.commands]

    assert played(7) == played(7)
    assert played(7) != played(8)


def test_an_unknown_bot_is_refused_with_the_names_offered() -> None:
    """Asking for a bot the game does not offer names those it does."""
    with pytest.raises(ValueError, match="freunde offers greedy, random"):
        game_bot(engines.get("freunde"), "clever", 1)


def test_each_game_seats_its_own_greedy_player() -> None:
    """Harvest's greedy bot is Harvest's: the lookup knows no game by name."""
    harvest = engines.get("harvest")
    greedy = game_bot(harvest, "greedy", 1)
    assert type(greedy) is harvest.bots["greedy"]  # type: ignore[attr-defined]
    assert not isinstance(greedy, (GreedyBot, GreedyFreundeBot))


def test_an_engine_that_names_no_bots_offers_none() -> None:
    """An engine without bots of its own is refused, naming none."""

    class Bare:
        info: Any = engines.get("freunde").info

    with pytest.raises(ValueError, match=r"freunde offers $"):
        game_bot(Bare(), "random", 2)  # type: ignore[arg-type]
