"""Self-play: many games at once on a game's batched core, every seat's decision by a
search, and the positions they leave for the learner.

A `Searcher` decides a list of decisions of a batch at once: given the state, the games
and the deciding seats (with their observations and masks), it returns an action for each
and the improved policy the search found (a distribution over the legal actions). How it
searches (the shared search's Gumbel root, guided by the network being trained) is
training/selfplay/search.py's; the game, its seats and their decisions are the game's
`SelfPlay` (training/imitation.py: for BASARI every seat with a real choice decides at
once). A decision with one legal action is not searched: its target is that action.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from training.imitation import Decisions, SelfPlay

from .buffer import Positions, relative_outcomes

# the searched decisions' actions int64[N], improved policies float32[N, A] and whether
# each policy is a target bool[N] (a fast search's is not: playout cap randomisation)
Decided = tuple[NDArray[np.int64], NDArray[np.float32], NDArray[np.bool_]]
# (state, decisions: games, seats, observations, masks) -> what the search decided
Searcher = Callable[[Any, Decisions], Decided]


def decide(searcher: Searcher, state: Any, decisions: Decisions) -> Decided:
    """(actions, improved policies, policy targets) of the decisions: the searched ones by
    `searcher`, the forced ones (one legal action) directly."""
    games, seats, observations, masks = decisions
    actions = masks.argmax(axis=1).astype(np.int64)
    policies = masks.astype(np.float32)  # a forced decision: its one action
    targets = np.ones(len(actions), bool)
    real = np.flatnonzero(masks.sum(axis=1) > 1)
    if len(real):
        searched = (games[real], seats[real], observations[real], masks[real])
        actions[real], policies[real], targets[real] = searcher(state, searched)
    return actions, policies, targets


def play_games(
    game: SelfPlay,
    searcher: Searcher,
    seeds: NDArray[np.uint64],
    reward: str,
    first_game: int = 0,
    on_step: Callable[[int], None] | None = None,
) -> Positions:
    """Every decision of the games seeded `seeds`, played together to their ends by
    `searcher`, with its targets; games numbered from `first_game`. `on_step(n)` is told
    of each batch of n decisions (a progress bar)."""
    state = game.init(np.asarray(seeds, np.uint64))
    logs: tuple[list[NDArray[Any]], ...] = ([], [], [], [], [], [])
    while not game.over(state):
        g, s, o, m = decisions = game.decisions(state)
        actions, policies, targets = decide(searcher, state, decisions)
        for log, item in zip(logs, (g, s, o, m, policies, targets)):
            log.append(item)
        game.step(state, g, s, actions)
        if on_step is not None:
            on_step(len(g))
    g, s, o, m, pi, t = (np.concatenate(log) for log in logs)
    outcomes = relative_outcomes(game.rewards(state, reward), g, s)
    return Positions(
        o.astype(np.float32),
        m.astype(bool),
        pi.astype(np.float32),
        outcomes,
        first_game + g,
        t.astype(bool),
    )


@dataclass(frozen=True)
class WorkerSettings:
    """Everything a worker needs to build its game, network and search (picklable)."""

    game: str  # the game's registered name
    config: Any  # the game's config
    reward: str
    simulations: int  # the search's budget per decision
    search: str  # the searcher's name (training/selfplay/search.py)
    seed: int
    architecture: dict[str, Any]  # the network's policy_kwargs (the learner's)
    backend: str = "numba"
    threads: int = 1  # torch threads of a worker
    leaf: str = "net"  # how the search scores its leaves: "net" (value head) or "playout"
    playout: str = "random"  # the playout policy of leaf="playout" (SearchGame.playout_names)
    c_scale: float = 0.1  # the Gumbel root's sigma scale (agents.search.mcts.C_SCALE)
    # flat search: (playout name, weight) of the other seats' policies, drawn per world
    # (agents.search.mcts.Settings.opponents); empty: every seat plays `playout`
    playout_mix: tuple[tuple[str, float], ...] = ()
    # flat search: the reward scheme its playouts are scored by (the game's card's)
    search_reward: str = "win"
    # flat search: its target, "improved" (the improved policy) or "best" (one-hot)
    flat_target: str = "improved"
    # playout cap randomisation: the share of decisions searched in full (a policy
    # target), the others at `fast` simulations (value data only)
    full: float = 1.0
    fast: int = 0
