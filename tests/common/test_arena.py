"""The one arena loop (agents/arena.py) and both games' arenas on it: chunks cut and put
back in order, every seating row kept with its game, games independent of the chunk they
are played in, the seating checked, the progress bar advanced."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

from agents import arena
from agents.asara.arena import play_batch as asara_play_batch
from agents.basari.arena import play_batch as basari_play_batch
from agents.base import Agent
from asara_env.asara.config import GameConfig
from asara_env.basari.config import BasariConfig


def rotated_seating(games: int, players: int) -> np.ndarray:
    """Agent 0 in seat g mod P of game g, agent 1 in the other seats (as tournaments seat
    one agent against copies of another)."""
    seating = np.ones((games, players), np.int64)
    seating[np.arange(games), np.arange(games) % players] = 0
    return seating


def fake_chunk(agents: Sequence[str], seating: np.ndarray, seeds: np.ndarray) -> np.ndarray:
    """A game whose score of seat s is its agent's index * 1000 + the game's seed."""
    return seating * 1000 + seeds[:, None].astype(np.int64)


class Bar:
    def __init__(self) -> None:
        self.done: list[int] = []
        self.closed = False

    def update(self, n: int) -> None:
        self.done.append(n)

    def close(self) -> None:
        self.closed = True


@pytest.mark.parametrize("batch_size", [1, 3, 7, 100])
def test_chunks_are_played_in_order_with_their_seating_rows(batch_size: int) -> None:
    seeds = np.array([11, 3, 8, 5, 2, 9, 4], np.uint64)
    seating = rotated_seating(len(seeds), 3)
    calls: list[int] = []

    def chunk(agents: Sequence[str], table: np.ndarray, games: np.ndarray) -> np.ndarray:
        calls.append(len(games))
        return fake_chunk(agents, table, games)

    bar = Bar()
    out = arena.play_batch(chunk, ["a", "b"], seating, seeds, 3, batch_size, bar)
    assert (out == seating * 1000 + seeds[:, None].astype(np.int64)).all()
    assert calls == [min(batch_size, 7 - lo) for lo in range(0, 7, batch_size)]
    assert bar.done == calls and not bar.closed  # a bar passed in is the caller's to close


def test_the_seating_is_checked() -> None:
    seeds = np.arange(4, dtype=np.uint64)
    agents = ["a", "b"]
    with pytest.raises(ValueError, match=r"seating must be int\[G, 3\], got \(4, 2\)"):
        arena.play_batch(fake_chunk, agents, np.zeros((4, 2)), seeds, 3)
    with pytest.raises(ValueError, match="3 seatings but 4 seeds"):
        arena.play_batch(fake_chunk, agents, np.zeros((3, 3)), seeds, 3)
    with pytest.raises(ValueError, match=r"agent indices outside 0\.\.1"):
        arena.play_batch(fake_chunk, agents, np.full((4, 3), 2), seeds, 3)
    with pytest.raises(ValueError, match="batch_size must be at least 1"):
        arena.play_batch(fake_chunk, agents, np.zeros((4, 3)), seeds, 3, batch_size=0)


def test_progress_true_makes_and_closes_a_bar_false_and_none_make_none() -> None:
    assert arena.progress_bar(False, 3) is None and arena.progress_bar(None, 3) is None
    bar = Bar()
    assert arena.progress_bar(bar, 3) is bar
    out = arena.play_batch(fake_chunk, ["a"], np.zeros((2, 2)), np.arange(2), 2, 1, True)
    assert out.shape == (2, 2)


class FirstLegal(Agent[object]):
    """The lowest legal id (or the highest): no random numbers, so chunks cannot matter."""

    def __init__(self, last: bool = False) -> None:
        super().__init__(0)
        self.last = last

    def choose(self, observations: Any, masks: np.ndarray, u: np.ndarray) -> np.ndarray:
        ids = np.arange(masks.shape[1])
        return (np.where(masks, ids, -1).max(1) if self.last else np.argmax(masks, 1)).astype(
            np.int64
        )


GAMES: dict[str, tuple[Callable[..., np.ndarray], Callable[[int], Any]]] = {
    "asara": (asara_play_batch, lambda p: GameConfig(num_players=p)),
    "basari": (basari_play_batch, lambda p: BasariConfig(num_players=p)),
}


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_games_results_do_not_depend_on_the_chunk_for_rng_free_agents(
    game: str, players: int
) -> None:
    """Seats rotated over the games (one agent against copies of another): every game's
    scores are those of the game played alone, whatever the chunk it is played in."""
    play_batch, config_of = GAMES[game]
    config = config_of(players)
    seeds = np.array([3, 1, 4, 1, 5, 9], np.uint64)
    seating = rotated_seating(len(seeds), players)
    agents = [FirstLegal(), FirstLegal(last=True)]
    whole = play_batch(config, agents, seating, seeds, len(seeds))
    assert whole.shape == (len(seeds), players) and whole.dtype == np.int64
    assert (play_batch(config, agents, seating, seeds, 4) == whole).all()
    for g in range(len(seeds)):
        alone = play_batch(config, agents, seating[g : g + 1], seeds[g : g + 1], 1)
        assert (alone[0] == whole[g]).all(), g
    if (seating[1] == seating[3]).all():  # games 1 and 3: the same seed and seating
        assert (whole[1] == whole[3]).all()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_games_arena_checks_the_seating_through_the_shared_loop(game: str) -> None:
    play_batch, config_of = GAMES[game]
    with pytest.raises(ValueError, match=r"seating must be int\[G, 3\]"):
        play_batch(config_of(3), [FirstLegal()], np.zeros((2, 2), np.int64), np.arange(2))
