"""ASARA's verbs for the shared search (`agents.search`), given on its agents table (ASARA's
own search agents, `search.py` and `ismcts.py`, read `estimate` and the compiled modules
from here):

- `determinise`: on the numba backend `asara_env.asara.hidden_core.determinise_games` on
  the core's arrays; on numpy each game through the reference engine
  (`asara_env.asara.hidden.determinise`, the same distribution);
- `public_key`: `agents.asara.edges.PUBLIC_KEY`, what the other seats see of a move
  (face-down cards, a kept window: one key whatever the hidden card or colour);
- `leaf_scores`: `estimate` (compiled on numba, `agents.asara.estimate_compiled`);
- `playouts`: the heuristics `towers`, `greedy` and `tall`, choosing through
  `agents.asara.heuristic_compiled` on the numba backend (the same moves and random
  numbers as their `act_batch`).
"""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType
from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents.search.verbs import Playout, PlayoutFactory, SearchVerbs
from asara_env.asara.bridge import from_reference, to_reference
from asara_env.asara.config import GameConfig
from asara_env.asara.constants import N_YEARS
from asara_env.asara.core import CoreState, is_terminal, legal_action_mask, scores
from asara_env.asara.core.scoring import final_points, year_end_points
from asara_env.asara.hidden import determinise as determinise_one
from asara_env.asara.reference.serialize import state_from_dict
from asara_env.asara.reference.state import State
from asara_env.games import load_core

from .edges import PUBLIC_KEY
from .heuristic import GreedyAgent, HeuristicAgent, TallAgent, TowersAgent

HEURISTICS: dict[str, type[HeuristicAgent]] = {
    a.name: a for a in (GreedyAgent, TallAgent, TowersAgent)
}
HEURISTIC_PLAYOUTS = tuple(sorted(HEURISTICS))


def estimate(games: CoreState) -> NDArray[np.int64]:
    """int[B, P]: final prestige of finished games; of the others, the prestige now plus
    the final scoring (R8) as if the game ended now plus the end-of-year points (R6.2) of
    the towers now, once per end of year still to come (this year's included)."""
    rows = np.arange(len(games.seat))
    years_left = (N_YEARS + 1 - games.year.astype(np.int64))[:, None]
    now = games.prestige + final_points(games, rows).sum(axis=2)
    guess = now + years_left * year_end_points(games, rows)
    done = is_terminal(games)[:, None]
    return np.where(done, scores(games), guess).astype(np.int64)


@cache
def hidden_core() -> ModuleType:
    """`asara_env.asara.hidden_core`, imported on first use (it needs numba)."""
    return importlib.import_module("asara_env.asara.hidden_core")


@cache
def heuristic_compiled() -> ModuleType:
    """`agents.asara.heuristic_compiled`, imported on first use (it needs numba)."""
    return importlib.import_module("agents.asara.heuristic_compiled")


@cache
def estimate_compiled() -> ModuleType:
    """`agents.asara.estimate_compiled`, imported on first use (it needs numba)."""
    return importlib.import_module("agents.asara.estimate_compiled")


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
    """The factory of heuristic `name`'s playout on a backend: its choice compiled on
    numba where `heuristic_compiled` supports the rules (its own generator's uniforms, as
    its `act_batch` draws them), else its `act_batch` on the observations."""

    def factory(backend: str, seed: int | None) -> Playout:
        if seed is not None:  # the heuristic's own seed, derived from the playout's
            seed = int(np.random.SeedSequence([seed, 1]).generate_state(1)[0])
        agent = HEURISTICS[name](seed)
        core = load_core("asara", backend)
        compiled = backend == "numba" and type(agent).scores is HeuristicAgent.scores

        def play(state: Any, rng: np.random.Generator) -> NDArray[np.int64]:
            masks = legal_action_mask(state)
            rows = np.flatnonzero(~is_terminal(state))
            actions = np.zeros(len(masks), np.int64)  # a finished game ignores its action
            if compiled and heuristic_compiled().supports(state.config):
                u = agent.rng.random(len(rows))
                chosen = heuristic_compiled().choose_games(agent.plan, state, rows, masks[rows], u)
            else:
                observations = core.observe_games(state, rows, state.seat[rows].astype(np.int64))
                chosen = agent.act_batch(observations, masks[rows])
            actions[rows] = chosen
            return actions

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
