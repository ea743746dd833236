"""The batched arena loop of every game: G games played B at a time, agents seated by a
table.

`play_batch(play_chunk, agents, seating, seeds, players=P)` checks the seating, cuts the
games into chunks of `batch_size`, asks the game's `play_chunk(agents, seating, seeds)` for
each (agents/<game>/arena.py: the game's batched core, every agent asked once per step for
all its games) and advances a progress bar. `seating[g, s]` is the index (into `agents`)
of the agent in seat s of game g; an agent may sit in several seats and several games.
Agents draw their random numbers in batch order, so results depend on `batch_size`, and
on nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

A = TypeVar("A")
# (agents, seating int64[B, P], seeds uint64[B]) -> int64[B, P]: the chunk's scores
PlayChunk = Callable[[Sequence[A], NDArray[np.int64], NDArray[np.uint64]], NDArray[np.int64]]


class ProgressBar(Protocol):
    """What the loop needs of a progress bar (a tqdm bar has it)."""

    def update(self, n: int) -> object: ...

    def close(self) -> object: ...


def check_seating(
    seating: NDArray[np.int64], seeds: NDArray[np.uint64], players: int, num_agents: int
) -> None:
    """ValueError unless `seating` is int[G, players] for G = len(seeds), every entry an
    index into `num_agents` agents."""
    if seating.ndim != 2 or seating.shape[1] != players:
        raise ValueError(f"seating must be int[G, {players}], got {seating.shape}")
    if seating.shape[0] != len(seeds):
        raise ValueError(f"{seating.shape[0]} seatings but {len(seeds)} seeds")
    if seating.size and not (seating.min() >= 0 and seating.max() < num_agents):
        raise ValueError(f"seating holds agent indices outside 0..{num_agents - 1}")


def play_batch(
    play_chunk: PlayChunk[A],
    agents: Sequence[A],
    seating: ArrayLike,
    seeds: ArrayLike,
    players: int,
    batch_size: int = 256,
    progress: bool | ProgressBar | None = False,
) -> NDArray[np.int64]:
    """int64[G, P]: `play_chunk`'s scores of G games, game g seeded `seeds[g]` with agent
    `agents[seating[g, s]]` in seat s, played `batch_size` games at a time. `progress`:
    True for a tqdm bar, or a bar to advance by one per game (None or False: no bar)."""
    table, games = np.asarray(seating, np.int64), np.asarray(seeds, np.uint64)
    check_seating(table, games, players, len(agents))
    if batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, got {batch_size}")
    bar = progress_bar(progress, len(games))
    out = np.zeros(table.shape, np.int64)
    for lo in range(0, len(games), batch_size):
        part = slice(lo, lo + batch_size)
        out[part] = play_chunk(agents, table[part], games[part])
        if bar is not None:
            bar.update(len(games[part]))
    if progress is True and bar is not None:
        bar.close()
    return out


def progress_bar(progress: bool | ProgressBar | None, total: int) -> ProgressBar | None:
    """A new tqdm bar of `total` games for True, none for False or None, else `progress`
    itself."""
    if progress is True:
        from tqdm.auto import tqdm

        bar: ProgressBar = tqdm(total=total, unit="game")
        return bar
    return None if progress is False or progress is None else progress
