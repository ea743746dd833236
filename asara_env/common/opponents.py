"""The opponents' loop, written once for every turn-based game and every consumer (the
single-agent gymnasium env, the training VecEnv, the batched arena): in each unfinished
game, the agent seated at the seat to move acts, until every game waits for its learner or
is over. Agents are passed in (anything with `act_batch`), so the library never imports
the `agents` package.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar, runtime_checkable

import numpy as np
from numpy.typing import NDArray

S = TypeVar("S")
S_contra = TypeVar("S_contra", contravariant=True)
NO_LEARNER = -1  # a learner seat that never comes: the game is played to its end


class Actor(Protocol):
    """What the loop needs of an agent: one legal action per row of a batch. An actor that
    is also a `StateActor` with `needs_state` true is asked `act_games` instead."""

    def act_batch(
        self, observations: NDArray[np.float32], action_masks: NDArray[np.bool_]
    ) -> NDArray[np.int64]: ...


@runtime_checkable
class StateActor(Protocol[S_contra]):
    """An actor that may read the game state (agents/base.py `Agent` declares both): with
    `needs_state` true (a search agent, agents/asara/search.py) it is asked
    `act_games(state, games)`: the game state and the games where it is to move; it must
    read only what the seat to move knows."""

    @property
    def needs_state(self) -> bool: ...

    def act_games(self, state: S_contra, games: NDArray[np.int64]) -> NDArray[np.int64]: ...


@dataclass(frozen=True)
class TurnBased(Generic[S]):
    """How the loop reaches a batch of games of one turn-based game (its core, or a B = 1
    adapter over an environment)."""

    seat: Callable[[S], NDArray[np.integer]]  # int[B]: the seat to move
    is_terminal: Callable[[S], NDArray[np.bool_]]  # bool[B]
    observe: Callable[[S, NDArray[np.int64], NDArray[np.int64]], NDArray[np.float32]]
    # (state, games, their seats to move) -> float[len(games), N] observations
    mask: Callable[[S, NDArray[np.int64]], NDArray[np.bool_]]  # (state, games) -> bool[n, A]
    step: Callable[[S, NDArray[np.int64], NDArray[np.int64]], None]  # (state, actions, games)


def choose_actions(
    actors: Sequence[Actor],
    mover: NDArray[np.int64],
    observations: NDArray[np.float32],
    masks: NDArray[np.bool_],
    state: object = None,
    games: NDArray[np.int64] | None = None,
) -> NDArray[np.int64]:
    """int64[n]: row j's action from `actors[mover[j]]`; one `act_batch` call per actor
    (`act_games(state, games[rows])` for an actor that needs the state)."""
    actions = np.zeros(len(mover), np.int64)
    for k, actor in enumerate(actors):
        rows = np.flatnonzero(mover == k)
        if rows.size and games is not None and isinstance(actor, StateActor) and actor.needs_state:
            actions[rows] = actor.act_games(state, games[rows])
        elif rows.size:
            actions[rows] = actor.act_batch(observations[rows], masks[rows])
    return actions


def play_opponents(
    game: TurnBased[S],
    state: S,
    learner_seat: NDArray[np.int64],
    seat_actor: NDArray[np.int64],
    actors: Sequence[Actor],
    after_step: Callable[[], None] | None = None,
) -> int:
    """Let the actors move in every unfinished game until it waits for its learner
    (`learner_seat[b]`, or NO_LEARNER: until it is over). `seat_actor[b, s]` is the index
    in `actors` of the agent in seat s of game b (a learner's entry is never read).
    `after_step` is called after each batched step. Returns the decisions made."""
    decisions = 0
    while True:
        seat = np.asarray(game.seat(state), np.int64)
        rows = np.flatnonzero(~game.is_terminal(state) & (seat != learner_seat))
        if not rows.size:
            return decisions
        seats = seat[rows]
        observations = game.observe(state, rows, seats)
        actions = choose_actions(
            actors, seat_actor[rows, seats], observations, game.mask(state, rows), state, rows
        )
        game.step(state, actions, rows)
        decisions += rows.size
        if after_step is not None:
            after_step()
