"""Nobody recovers a hidden value from the hash chain: the attack, mounted on every event
type of every game.

Seeded games are played until every event type of the game has occurred. Then, for a few
occurrences of each type, every value hidden from some reader (a field whose value differs
between the full event and what that reader receives) is attacked by that reader — the
spectator and each seat that does not see it — with everything it reads of the event
(public form, commitments, hashes; a seat also its salt and its own view): every value
the content allows for that field is tried, by recomputing what the chain would give.
Every candidate must agree with the reading, so the reader learns nothing. The same
attack with the seed known (after the end, when every salt can be derived) must recover
every hidden value exactly, which shows the attack itself misses nothing.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from functools import partial
from typing import Any

import pytest

import engines
from engines.core.bots import GreedyBot, RandomBot
from engines.core.contract import TableConfig
from engines.core.disclosure import render
from engines.core.hashchain import Salts
from engines.core.play import Table
from tests.chain_attack import attack, domains, readers

# Table configurations the games cycle through (seat counts and options that change
# which events occur).
CONFIGS: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "freunde": [(seats, {"round_limit": limit}) for seats in (2, 3, 4) for limit in (4, 100)],
    "harvest": [
        (seats, {"draft": draft, "first_game": first})
        for seats in (1, 2, 3, 4)
        for draft, first in ((False, False), (True, False), (False, True))
    ],
    "bardwood": [
        (seats, options)
        for seats in (2, 3, 4)
        for options in ({"short_game": True}, {"loudstones": True, "unlocked": True})
    ],
}
MAX_GAMES = 300
# Occurrences attacked per event type and seat count.
ATTACKED_PER_TYPE = 1


def _choose(engine: Any, bot: GreedyBot | RandomBot, table: Table, seat: int) -> Any:
    return bot.choose(engine, table.state, seat)


def _play_until_every_event_type(game: str) -> tuple[list[Table], Counter[str]]:
    engine = engines.get(game)
    kinds = {field.name for field in engine.event_type.DESCRIPTOR.oneofs[0].fields}
    tables: list[Table] = []
    seen: Counter[str] = Counter()
    for n, (seats, options) in enumerate(
        itertools.islice(itertools.cycle(CONFIGS[game]), MAX_GAMES)
    ):
        table = Table.create(engine, TableConfig(f"secrecy-{n}", seats, options), b"seed-%d" % n)
        # Only a purposeful player earns Freunde's Emperor; random play meets the rest sooner.
        bot: GreedyBot | RandomBot = GreedyBot(n) if game == "freunde" and n % 2 else RandomBot(n)
        table.play(partial(_choose, engine, bot))
        tables.append(table)
        seen.update(event.WhichOneof("kind") for event in table.events)
        if kinds <= set(seen):
            break
    missing = kinds - set(seen)
    assert not missing, f"{len(tables)} {game} games never produced {sorted(missing)}"
    return tables, seen


@pytest.mark.parametrize("game", ["freunde", "harvest", "bardwood"])
def test_no_reader_recovers_a_hidden_value_and_the_seed_recovers_all(game: str) -> None:
    engine = engines.get(game)
    tables, seen = _play_until_every_event_type(game)
    attacked: Counter[tuple[str, int]] = Counter()
    fields_attacked: defaultdict[str, int] = defaultdict(int)
    recovered = 0
    for table in tables:
        log = table.stored_log()
        salts = Salts(table.seed, table.config.table_id)
        seats = table.config.seats
        for stored, event in zip(log, table.events, strict=False):
            kind = event.WhichOneof("kind")
            if attacked[kind, seats] >= ATTACKED_PER_TYPE:
                continue
            attacked[kind, seats] += 1
            for viewer in readers(seats):
                readable = render(engine, stored, viewer, salts)
                for attempt in attack(engine, event, readable, viewer):
                    assert attempt.learned_nothing, (
                        f"{game} {kind}: reader {viewer} narrows {attempt.field} "
                        f"(truly {attempt.truth!r}) to {attempt.agreeing!r}"
                    )
                    fields_attacked[attempt.field] += 1
            spectator = render(engine, stored, None, salts)
            for attempt in attack(
                engine, event, spectator, None, seed_known=(salts, stored.command, seats)
            ):
                assert attempt.recovered, (
                    f"{game} {kind}: with the seed, {attempt.field} (truly {attempt.truth!r})"
                    f" gives {attempt.agreeing!r}"
                )
                recovered += 1
    assert {kind for kind, _ in attacked} == set(seen), "every event type was attacked"
    assert set(fields_attacked) == set(domains(game)), "every hidden field was attacked"
    assert recovered > 0
