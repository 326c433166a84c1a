"""``make bench``: run every ``benchmarks/bench_*.py`` in name order, or those named.

python -m benchmarks                 # all
python -m benchmarks eventstore      # only bench_eventstore.py

The first line is the machine's yardstick (:func:`benchmarks.cpu.yardstick_ms`), so that
figures taken on different machines, or on different days on a shared one, can be
related.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

import benchmarks
from benchmarks.cpu import yardstick_line


def main(argv: list[str]) -> int:
    names = sorted(
        m.name for m in pkgutil.iter_modules(benchmarks.__path__) if m.name.startswith("bench_")
    )
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "benchmark",
        nargs="*",
        help=f"which to run (all when none): {', '.join(n.removeprefix('bench_') for n in names)}",
    )
    wanted = [f"bench_{a.removeprefix('bench_')}" for a in parser.parse_args(argv).benchmark]
    unknown = [name for name in wanted if name not in names]
    if unknown:
        parser.error(f"no benchmark {', '.join(n.removeprefix('bench_') for n in unknown)}")
    print(yardstick_line(), flush=True)
    for name in wanted or names:
        print(f"== {name.removeprefix('bench_')}", flush=True)
        importlib.import_module(f"benchmarks.{name}").main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
