"""ASARA's verbs for the shared search (`agents.search`), named on its card, from ASARA's
own search modules:

- `determinise`: on the numba backend `asara_env.asara.hidden_core.determinise_games` on
  the core's arrays; on numpy each game through the reference engine
  (`asara_env.asara.hidden.determinise`, the same distribution);
- `public_key`: `agents.asara.ismcts.PUBLIC_KEY`, what the other seats see of a move
  (face-down cards, a kept window: one key whatever the hidden card or colour);
- `leaf_scores`: `agents.asara.search.estimate` (compiled on numba,
  `agents.asara.estimate_compiled`);
- `playouts`: the heuristics `towers`, `greedy` and `tall`, choosing through
  `agents.asara.heuristic_compiled` on the numba backend (the same moves as their
  `act_batch`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents.search.verbs import Playout, PlayoutFactory, SearchVerbs
from asara_env.asara.bridge import from_reference, to_reference
from asara_env.asara.config import GameConfig
from asara_env.asara.core import CoreState, is_terminal
from asara_env.asara.hidden import determinise as determinise_one
from asara_env.asara.reference.serialize import state_from_dict
from asara_env.asara.reference.state import State

from .ismcts import PUBLIC_KEY
from .search import FlatMCAgent, estimate, estimate_compiled, hidden_core

HEURISTIC_PLAYOUTS = ("greedy", "tall", "towers")


def determinise_reference(
    state: CoreState, games: NDArray[np.int64], seats: NDArray[np.int64], rng: np.random.Generator
) -> CoreState:
    """One world per entry of `games` through the reference engine (any backend)."""
    states = {g: to_reference(state, g) for g in set(games.tolist())}
    return from_reference(
        [determinise_one(states[g], s, rng) for g, s in zip(games.tolist(), seats.tolist())]
    )


def determinise_compiled(
    state: CoreState, games: NDArray[np.int64], seats: NDArray[np.int64], rng: np.random.Generator
) -> CoreState:
    """One world per entry of `games` on the core's arrays (numba)."""
    worlds: CoreState = hidden_core().determinise_games(state, games, seats, rng)
    return worlds


def public_key(config: GameConfig, actions: NDArray[np.int64]) -> NDArray[np.int64]:
    return PUBLIC_KEY[actions]


def estimate_numba(state: CoreState) -> NDArray[np.int64]:
    result: NDArray[np.int64] = estimate_compiled().estimate(state)
    return result


def heuristic_playout(name: str) -> PlayoutFactory:
    """The factory of heuristic `name`'s playout on a backend (through `FlatMCAgent`'s
    playout step: compiled on numba)."""

    def factory(backend: str, seed: int | None) -> Playout:
        stepper = FlatMCAgent(seed=None, playout=name, backend=backend)
        stepper.policy = stepper._make_playout(name, seed)

        def play(state: Any, rng: np.random.Generator) -> NDArray[np.int64]:
            done = is_terminal(state)
            return stepper._playout_actions(state, None if not done.any() else ~done)

        return play

    return factory


PLAYOUTS = {name: heuristic_playout(name) for name in HEURISTIC_PLAYOUTS}


def one_game(state: State) -> CoreState:
    """A reference game as a one-game core batch."""
    return from_reference([state])


def env_state(env: Any) -> CoreState:
    """The game of a PettingZoo ASARA env (its saved game) as a one-game core batch."""
    return one_game(state_from_dict(env.unwrapped.save_game()))


_COMMON: dict[str, Any] = {
    "to_move": lambda state: state.seat,
    "from_reference": one_game,
    "env_state": env_state,
    "public_key": public_key,
    "playouts": PLAYOUTS,
}
VERBS = SearchVerbs(
    determinise=determinise_reference,
    leaf_scores=estimate,
    **_COMMON,
    by_backend={
        "numba": SearchVerbs(
            determinise=determinise_compiled, leaf_scores=estimate_numba, **_COMMON
        )
    },
)
