"""Replaying a game record, for every game's reference engine (imports nothing of a game).

A record is a configuration, a seed and the actions taken; `replay_actions` plays the
actions on the new game in order and turns the first one the engine refuses into the
game's own corrupt-record error, naming the action's index.

A saved game (`SavedGame`, what the terminal games' `--save` writes and `--resume`
reads) is a record with the game's name and who sits in each seat; `read_saved_game`
takes a bare record as well, and refuses another game's save naming that game.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from asara_env.common.files import atomic_write_text


def a_or_an(word: str) -> str:
    """`word` after its indefinite article: "an ASARA", "an 'asara'", "a BASARI"."""
    return ("an " if word.lstrip("'\"").lower()[:1] in tuple("aeiou") else "a ") + word


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


# ------------------------------------------------------------------------ saved games
SAVE_SCHEMA = "asara-env/saved-game"
SAVE_VERSION = 1
SAVE_KEYS = ("schema", "version", "game", "record", "seats")


@dataclass(frozen=True)
class SavedGame:
    """A game saved by a terminal game: the game's name, its record (`config`, `seed`,
    `actions`, the game's own record format) and who sits where (an agent spec per seat,
    None for the person). A bare record has `seats` None."""

    game: str
    record: dict[str, Any]
    seats: list[str | None] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SAVE_SCHEMA,
            "version": SAVE_VERSION,
            "game": self.game,
            "record": self.record,
            "seats": self.seats,
        }


def saved_game_from_dict(data: object, game: str) -> SavedGame:
    """The saved game (or bare record: a dict with the keys `config`, `seed`, `actions`)
    of `game` in `data`; a ValueError naming what is wrong, or the game it belongs to."""
    if not isinstance(data, dict):
        raise ValueError(f"a saved game is a JSON object, got {type(data).__name__}")
    if data.get("schema") != SAVE_SCHEMA:
        if {"config", "seed", "actions"} <= set(data):
            return SavedGame(game, data)
        raise ValueError(f"neither a saved game ({SAVE_SCHEMA}) nor a game record")
    if set(data) != set(SAVE_KEYS) or data["version"] != SAVE_VERSION:
        raise ValueError(f"a saved game (version {SAVE_VERSION}) has the keys {list(SAVE_KEYS)}")
    if data["game"] != game:
        raise ValueError(f"it is a saved {data['game']!r} game, not {a_or_an(repr(game))} one")
    seats = data["seats"]
    if seats is not None and not (
        isinstance(seats, list) and all(s is None or isinstance(s, str) for s in seats)
    ):
        raise ValueError("seats must be a list of agent specs (null for the person)")
    if not isinstance(data["record"], dict):
        raise ValueError("record must be a game record (a JSON object)")
    return SavedGame(game, data["record"], seats)


def read_saved_game(path: Path, game: str) -> SavedGame:
    """The saved game or record of `game` at `path`; a ValueError naming the file and
    what is wrong with it."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read {path}: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not JSON: {exc}") from exc
    try:
        return saved_game_from_dict(data, game)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from exc


def write_saved_game(path: Path, saved: SavedGame) -> None:
    """Write `saved` as JSON to `path`, whole or not at all."""
    atomic_write_text(Path(path), json.dumps(saved.to_dict()), encoding="utf-8")
