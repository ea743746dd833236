"""The verbs a game gives the shared search, beside its core: `SearchVerbs`, given on the
game's agents table (`agents.spec.GameAgents.search`, e.g. `agents/basari/__init__.py`).

Every verb is optional; a game whose table gives none is searched with the defaults:

- `determinise(state, games, seats, rng) -> worlds`: one world per entry of `games`, game
  games[i] as seats[i] may imagine it, everything that seat cannot know redrawn from `rng`
  (default: the game copied: a seat sees the whole state);
- `to_move(state) -> int[B]`: a turn-based game's seat to move (default: `state.seat`;
  a simultaneous game, `GameCard.simultaneous`, needs none);
- `observe(state, seats) -> float32[B, N]`: each game's observation for seats[i] (the
  network's input; default: the core's `observe`, its row of the seat for a simultaneous
  game, `observe(state, seats)` for a turn-based one);
- `public_key(config, actions) -> int[...]`: what the other seats see of each action id
  in a game of `config` (two moves that look alike to them are one edge of the tree;
  default: the action itself);
- `leaf_scores(state) -> float[B, P]`: an estimate of the final `scores` of unfinished
  games, what a playout stopped at its horizon is scored by (default: the core's
  `scores` now);
- `from_reference(state) -> batch`: one game of the game's reference engine as a
  one-game core batch (for the applications that hold one game: the terminal games, the
  web page);
- `env_state(env) -> batch`: the game of a PettingZoo env (AEC or parallel) as a
  one-game core batch of its own, what `act_env` searches (default: a copy of the env's
  `core`, `env.unwrapped.core`);
- `playouts`: playout policies by name, each a factory `(backend, seed) -> Playout`, a
  Playout being `(state, rng) -> actions` in the core's form (int[B], or int[B, P] for a
  simultaneous game). Besides these, "random", any baseline of the game's agents table and
  any shipped model of the game (asked on the observations) are always available.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

Determinise = Callable[[Any, NDArray[np.int64], NDArray[np.int64], np.random.Generator], Any]
Playout = Callable[[Any, np.random.Generator], NDArray[np.int64]]
PlayoutFactory = Callable[[str, "int | None"], Playout]


@dataclass(frozen=True)
class SearchVerbs:
    """What the shared search needs of one game beyond its core (see the module
    docstring); None: the default."""

    determinise: Determinise | None = None
    to_move: Callable[[Any], NDArray[np.integer]] | None = None
    observe: Callable[[Any, NDArray[np.int64]], NDArray[np.float32]] | None = None
    public_key: Callable[[Any, NDArray[np.int64]], NDArray[np.int64]] | None = None
    leaf_scores: Callable[[Any], NDArray[np.number[Any]]] | None = None
    playouts: Mapping[str, PlayoutFactory] = field(default_factory=dict)
    from_reference: Callable[[Any], Any] | None = None
    env_state: Callable[[Any], Any] | None = None
    # the backend-bound variants, for verbs whose implementation differs per backend:
    # backend name -> the verbs to use there instead of these (their own `by_backend` unread)
    by_backend: Mapping[str, SearchVerbs] = field(default_factory=dict)

    def on(self, backend: str) -> SearchVerbs:
        """The verbs for `backend`."""
        return self.by_backend.get(backend, self)


DEFAULT_VERBS = SearchVerbs()
