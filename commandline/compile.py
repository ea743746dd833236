"""Compile every game's numba kernels now, so that no later start waits for the compiler
(`make setup` runs it): `python -m commandline.compile`.

Each game whose card names a compiled core is warmed up in turn, one line each with the
seconds it took; the kernels land in numba's on-disk cache, where every later process
loads them in about a second. Without numba there is nothing to compile, and it says so.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Sequence

from asara_env import games
from asara_env.common.backend import numba_available
from commandline import command


def compiled_games() -> list[str]:
    """The registered games with a compiled core, in the registry's order."""
    return [name for name in games.available_games() if games.game_card(name).compiled_core]


@command.run_main("python -m commandline.compile")
def main(argv: Sequence[str] | None = None) -> int:
    """Warm up every compiled core, printing progress; exit status 0."""
    parser = command.parser("python -m commandline.compile", __doc__)
    parser.parse_args(argv)
    if not numba_available():
        print("numba is not installed: the games run on their numpy cores, nothing to compile")
        return 0
    names = compiled_games()
    start = time.perf_counter()
    for i, name in enumerate(names, 1):
        ref = games.game_card(name).compiled_core
        assert ref is not None  # compiled_games() keeps only these
        print(f"[{i}/{len(names)}] {name}: numba kernels ...", end=" ", flush=True)
        seconds = games.warm_up(name, importlib.import_module(ref), notice=False)
        print(f"{seconds:.1f} s", flush=True)
    total = time.perf_counter() - start
    print(f"{len(names)} games' kernels compiled or loaded from numba's cache in {total:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
