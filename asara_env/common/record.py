"""Replaying a game record, for every game's reference engine (imports nothing of a game).

A record is a configuration, a seed and the actions taken; `replay_actions` plays the
actions on the new game in order and turns the first one the engine refuses into the
game's own corrupt-record error, naming the action's index.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

State = TypeVar("State")
Action = TypeVar("Action")


def replay_actions(
    state: State,
    actions: Iterable[Action],
    step: Callable[[State, Action], object],
    corrupt: Callable[[str], Exception],
) -> State:
    """`state` after `step(state, action)` for each action in turn; an action `step`
    refuses (a ValueError) raises `corrupt("record action #i cannot be replayed: ...")`."""
    for i, action in enumerate(actions):
        try:
            step(state, action)
        except ValueError as exc:
            raise corrupt(f"record action #{i} cannot be replayed: {exc}") from exc
    return state
