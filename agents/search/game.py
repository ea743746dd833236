"""A game as the shared search sees it: its core on one backend and its search verbs,
every decision in the simultaneous form (`SearchGame`).

A turn-based game's step is a simultaneous step in which only the seat to move has legal
actions, so the search treats every game alike: `masks(state)` is bool[B, P, A] (a
turn-based game's row of the seat to move, the others empty) and `step(state, joint)`
takes int[B, P] (a turn-based game reads the mover's column). Rewards are per seat,
float[B, P]: a finished game's by the reward scheme on its `scores`, an unfinished one's
by the scheme on the game's `leaf_scores` estimate.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents.base import Agent
from agents.models import MODELS
from agents.spec import game_agents
from asara_env.common import batch
from asara_env.common.backend import resolve_backend
from asara_env.common.outcome import RewardSchemes, check_scheme, terminal_rewards
from asara_env.common.sampling import uniform_legal
from asara_env.games import CoreVerbs, game_card, reward_schemes

from .verbs import DEFAULT_VERBS, Playout, SearchVerbs

RANDOM = "random"  # the uniform playout every game has


def load_verbs(game: str) -> SearchVerbs:
    """Game `game`'s search verbs (its agents table's `search`), or the defaults."""
    verbs = game_agents(game).search
    return DEFAULT_VERBS if verbs is None else verbs


@dataclass
class SearchGame:
    """Game `name`'s core on `backend` with its search verbs (see the module docstring)."""

    name: str
    backend: str | None = None

    def __post_init__(self) -> None:
        card = game_card(self.name)
        self.backend = resolve_backend(self.backend)
        self.core: CoreVerbs = card.load_core(self.backend)
        self.simultaneous = card.simultaneous
        self.verbs: SearchVerbs = load_verbs(self.name).on(self.backend)
        self.schemes: RewardSchemes = reward_schemes(self.name)

    # ------------------------------------------------------------------ the state
    def take(self, state: Any, rows: NDArray[np.int64]) -> Any:
        """Games `rows` of a batch, copied."""
        return batch.take(state, rows)

    def put(self, state: Any, rows: NDArray[np.int64], part: Any) -> None:
        """Write the batch `part` into games `rows` of `state`."""
        kind: type = type(state)
        for name in batch.array_fields(kind):
            getattr(state, name)[rows] = getattr(part, name)

    def players(self, state: Any) -> int:
        return int(state.config.num_players)

    def is_terminal(self, state: Any) -> NDArray[np.bool_]:
        return np.asarray(self.core.is_terminal(state), bool)

    def to_move(self, state: Any) -> NDArray[np.int64]:
        """int64[B]: a turn-based game's seat to move."""
        verb = self.verbs.to_move
        return np.asarray(state.seat if verb is None else verb(state), np.int64)

    def masks(self, state: Any) -> NDArray[np.bool_]:
        """bool[B, P, A]: every seat's legal actions (a turn-based game's movers' only)."""
        legal = np.asarray(self.core.legal_action_mask(state), bool)
        if self.simultaneous:
            return legal
        out = np.zeros((legal.shape[0], self.players(state), legal.shape[1]), bool)
        out[np.arange(len(legal)), self.to_move(state)] = legal
        return out

    def step(self, state: Any, joint: NDArray[np.int64]) -> None:
        """Advance every game by the joint actions int[B, P] (a turn-based game: the
        mover's; finished games take their first legal action or 0)."""
        if self.simultaneous:
            self.core.step(state, joint)
        else:
            self.core.step(state, joint[np.arange(len(joint)), self.to_move(state)])

    def observe(self, state: Any, seats: NDArray[np.int64]) -> NDArray[np.float32]:
        """float32[B, N]: game i's observation for seats[i]."""
        if self.verbs.observe is not None:
            return np.asarray(self.verbs.observe(state, seats), np.float32)
        if self.simultaneous:
            return np.asarray(self.core.observe(state), np.float32)[np.arange(len(seats)), seats]
        return np.asarray(self.core.observe(state, seats), np.float32)

    def determinise(
        self,
        state: Any,
        games: NDArray[np.int64],
        seats: NDArray[np.int64],
        rng: np.random.Generator,
    ) -> Any:
        """One world per entry of `games`, as seats[i] may imagine game games[i]."""
        verb = self.verbs.determinise
        if verb is None:
            return self.take(state, np.asarray(games, np.int64))
        return verb(state, np.asarray(games, np.int64), np.asarray(seats, np.int64), rng)

    def public_key(self, state: Any, actions: NDArray[np.int64]) -> NDArray[np.int64]:
        """What the other seats see of each action of a game of `state`'s configuration
        (the same key: moves they cannot tell apart)."""
        verb = self.verbs.public_key
        return actions if verb is None else np.asarray(verb(state.config, actions), np.int64)

    # ------------------------------------------------------------------ rewards
    def check_scheme(self, scheme: str) -> str:
        return check_scheme(scheme, self.schemes)

    def rewards(self, state: Any, scheme: str) -> NDArray[np.float64]:
        """float[B, P]: the scheme's reward of every seat, finished games by their
        `scores`, the others by `leaf_scores`."""
        done = self.is_terminal(state)
        final = np.asarray(self.core.scores(state))
        if done.all() or self.verbs.leaf_scores is None:
            return terminal_rewards(final, scheme, self.schemes).astype(np.float64)
        guess = np.asarray(self.verbs.leaf_scores(state))
        scores = np.where(done[:, None], final, guess)
        return terminal_rewards(scores, scheme, self.schemes).astype(np.float64)

    # ------------------------------------------------------------------ playouts
    @cached_property
    def playout_names(self) -> tuple[str, ...]:
        """The playouts: `random`, the game's own (its verbs'), its baselines and its
        shipped models (their most probable action; the `train` extra)."""
        agents = {*game_agents(self.name).baselines, *MODELS.get(self.name, {})}
        return tuple(sorted({RANDOM, *self.verbs.playouts, *agents}))

    def playout(self, name: str, seed: int | None) -> Playout:
        """The playout policy `name` (see `agents.search.verbs`), seeded."""
        if name not in self.playout_names:
            raise ValueError(f"playout must be one of {list(self.playout_names)}, got {name!r}")
        if name in self.verbs.playouts:
            return self.verbs.playouts[name](self.backend or "numpy", seed)
        if name == RANDOM:
            return self._random_playout
        if name in MODELS.get(self.name, {}):
            return self._model_playout(name)
        return self._agent_playout(game_agents(self.name).baselines[name](seed))

    def _random_playout(self, state: Any, rng: np.random.Generator) -> NDArray[np.int64]:
        legal = np.asarray(self.core.legal_action_mask(state), bool)
        flat = legal.reshape(-1, legal.shape[-1]).copy()
        flat[~flat.any(axis=1), 0] = True  # a seat without a move sends 0 (ignored)
        return uniform_legal(flat, rng.random(len(flat))).reshape(legal.shape[:-1])

    def _agent_playout(self, agent: Agent[Any]) -> Playout:
        """Every seat with a move asks `agent` (`act_batch` on its observation)."""
        return self._seats_playout(agent.act_batch)

    def _model_playout(self, model: str) -> Playout:
        """Every seat with a move plays shipped model `model`'s most probable legal
        action (its policy head alone, as its agent plays deterministically)."""
        from agents.network import load_net

        net = load_net(self.name, model)
        one_torch_thread()

        def most_probable(obs: NDArray[np.float32], masks: NDArray[np.bool_]) -> NDArray[np.int64]:
            return np.argmax(net.priors(obs, masks), axis=1).astype(np.int64)

        return self._seats_playout(most_probable)

    def _seats_playout(
        self, choose: Callable[[NDArray[np.float32], NDArray[np.bool_]], NDArray[np.int64]]
    ) -> Playout:
        def play(state: Any, rng: np.random.Generator) -> NDArray[np.int64]:
            masks = self.masks(state)
            actions = np.argmax(masks, axis=2).astype(np.int64)
            games, seats = np.nonzero(masks[:, :, 1:].any(axis=2) | (masks.sum(axis=2) > 1))
            if games.size and self.simultaneous and self.verbs.observe is None:
                obs = np.asarray(self.core.observe(state), np.float32)[games, seats]
                actions[games, seats] = choose(obs, masks[games, seats])
            elif games.size:
                obs = self.observe(self.take(state, games), seats)
                actions[games, seats] = choose(obs, masks[games, seats])
            if self.simultaneous:
                return actions
            return actions[np.arange(len(actions)), self.to_move(state)]

        return play

    def native(self, state: Any, actions: NDArray[np.int64]) -> NDArray[np.int64]:
        """Joint actions int[B, P] from a playout's actions in the core's form."""
        if self.simultaneous:
            return actions
        joint = np.zeros((len(actions), self.players(state)), np.int64)
        joint[np.arange(len(actions)), self.to_move(state)] = actions
        return joint


def one_torch_thread() -> None:
    """Run torch on one thread: a search calls its network many times on small batches,
    and torch's pool of threads spins between the calls, costing several times the work
    (measured: 48 BASARI playouts with a shipped model took 0.66 CPU s per decision on the
    default pool under load, 0.027 on one thread)."""
    import torch

    torch.set_num_threads(1)
