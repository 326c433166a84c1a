"""The rules speed-ups changed no behaviour: seeded random games hash as they did before.

Each hash covers every event of a few seeded random games per player count and every
list of legal commands offered on the way (``benchmarks.digest``). The recorded values
were produced by the code before the speed-ups of issue 12 (main at d579a24), so a
failure here means the rules now play differently. A deliberate rule change that alters
them re-records them with the same functions, saying so in its commit; the larger check
(300 games per count) is ``python -m benchmarks.bench_<game> --digest 300`` (README ›
Benchmarks).
"""

from __future__ import annotations

from benchmarks import bench_freunde, bench_harvest

# Two games per player count (2 to 4 players), options rotating as in the benchmark.
FREUNDE_BEFORE = "all: d0c387755891357f6916ae571b02ad896f0a7ee193cf895494953a11da55aa47"
# Two games per player count (1 to 4 players), plain / draft / first game, a solo Challenge.
HARVEST_BEFORE = "e6915ab912f398c98c36496673efa44ef68a7f6a672d51b284b64a769adada87"


def test_freunde_plays_seeded_games_as_before_the_speed_ups() -> None:
    assert bench_freunde.log_digest(2)[-1] == FREUNDE_BEFORE


def test_harvest_plays_seeded_games_as_before_the_speed_ups() -> None:
    assert bench_harvest.log_digest(2) == HARVEST_BEFORE
