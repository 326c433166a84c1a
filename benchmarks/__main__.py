"""``make bench``: run every ``benchmarks/bench_*.py`` in name order, or those named.

python -m benchmarks                 # all
python -m benchmarks eventstore      # only bench_eventstore.py
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

import benchmarks


def main(argv: list[str]) -> int:
    names = sorted(
        m.name for m in pkgutil.iter_modules(benchmarks.__path__) if m.name.startswith("bench_")
    )
    wanted = [f"bench_{a.removeprefix('bench_')}" for a in argv]
    for name in wanted or names:
        if name not in names:
            print(f"no benchmark {name!r}; have: {', '.join(names)}", file=sys.stderr)
            return 2
        print(f"== {name.removeprefix('bench_')}", flush=True)
        importlib.import_module(f"benchmarks.{name}").main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
