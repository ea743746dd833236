"""The Gumbel root for a batch of states, with a network: the entry point of self-play.

    from agents.search.gumbel import gumbel_search
    decision = gumbel_search("basari", state, seats, evaluate, simulations=32, rng=rng)
    decision.actions     # int64[n]: the action of seat seats[i] in game games[i]
    decision.policies    # float32[n, A]: the improved policy (the training target)
    decision.values      # float[n]: the root's mean reward for the seat

`evaluate(observations float32[m, N], masks bool[m, A]) -> (logits float[m, A], values)`
is the network, called in batches (the root's observations, then per depth of every wave
the priors of the seats with a choice, then the leaves' values); `values` is float[m]
(the observing seat's expected win share, 0 to 1) or float[m, P] (every seat's, column j
for the seat j places clockwise of the observer: an ego-centric value head). The
observations are always the deciding or observing seat's own (`SearchGame.observe`) in a
world drawn by the game's `determinise`: the network never sees what the searching seat
cannot. A finished game's leaf is scored by its win shares, the scale of the values.

The algorithm is `agents.search.mcts` with `root="gumbel"`: Gumbel-top-k over the prior's
logits, sequential halving, the completed-Q improved policy (Danihelka et al. 2022).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .game import SearchGame
from .mcts import C_SCALE, Decision, Evaluate, Search, Settings

DEFAULT_CONSIDERED = 16  # actions drawn at the root (Danihelka et al.'s m)
DEFAULT_C = 1.25  # PUCT's constant below the root


@cache
def search_game(game: str, backend: str | None = None) -> SearchGame:
    """Game `game`'s core on `backend` with its search verbs, made once per process."""
    return SearchGame(game, backend)


def gumbel_search(
    game: str | SearchGame,
    state: Any,
    seats: ArrayLike,
    evaluate: Evaluate,
    simulations: int,
    rng: np.random.Generator | int | None = None,
    *,
    games: ArrayLike | None = None,
    considered: int = DEFAULT_CONSIDERED,
    c: float = DEFAULT_C,
    c_scale: float = C_SCALE,
    wave: int | None = None,
    backend: str | None = None,
    value_net: bool = True,
    playout: str = "random",
    horizon: int | None = None,
    pick: str = "root",
) -> Decision:
    """The decision of seat seats[i] in game games[i] (default: game i) of the core batch
    `state` of `game` (a registered game's name, or a `SearchGame`), each with
    `simulations` Gumbel-root simulations guided by `evaluate` (see the module
    docstring). `rng`: the generator (or a seed) of the Gumbel noise and the
    determinisations. `pick`: the move played, the root's survivor ("root") or the
    improved policy's most probable action ("improved"). `value_net=False` scores leaves
    by playouts (`playout`, `horizon`)
    instead of the network's values. `c_scale`: the scale of q in the Gumbel sigma. A
    decision with one legal action is not searched (its policy is that action)."""
    where = search_game(game, backend) if isinstance(game, str) else game
    seat_array = np.asarray(seats, np.int64)
    game_rows = np.arange(len(seat_array)) if games is None else np.asarray(games, np.int64)
    if game_rows.shape != seat_array.shape:
        raise ValueError(
            f"games and seats must match, got {game_rows.shape} and {seat_array.shape}"
        )
    settings = Settings(
        sims=int(simulations),
        wave=int(simulations if wave is None else wave),
        c=float(c),
        playout=playout,
        horizon=horizon,
        root="gumbel",
        considered=int(considered),
        c_scale=float(c_scale),
        pick=pick,
    )
    search = Search(where, settings, None, evaluate, prior=True, value_net=value_net)
    if isinstance(rng, np.random.Generator):
        search.rng = rng
    elif rng is not None:
        search.rng = np.random.default_rng(rng)
    return search.run(state, game_rows, seat_array)
