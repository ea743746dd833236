"""Replaying a game record, for every game's reference engine (imports nothing of a game).

A record is a configuration, a seed and the actions taken; `replay_actions` plays the
actions on the new game in order and turns the first one the engine refuses into the
game's own corrupt-record error, naming the action's index.

A saved game (`SavedGame`, what the terminal games' `--save` writes) is a record with
the game's name and who sits in each seat. Every loader (the terminal games' `--resume`,
the web page's upload, the envs' `load_game`) reads every format the project writes
(`saved_game_from_dict`): a terminal game's save, the web page's download, a game record,
a saved position (`env.save_game()`, `asara random --save-state`) and a position with the
actions played after it; another game's file is refused naming that game. `resume` checks
one against a game's reference engine (its `Rules`) and gives where it goes on.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from asara_env.common.errors import CorruptStateError
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
WEB_FORMAT = "asara-env/web-game"  # the web page's downloads: a record with its lineup
WEB_KEYS = ("format", "game", "record", "lineup", "seat")
RECORD_KEYS = ("config", "seed", "actions")  # a game record: every game's `to_dict`
CONTINUED_KEYS = ("state", "actions")  # a game continued from a saved position


def state_schema(game: str) -> str:
    """The `schema` of a saved position of `game` (its reference engine's `state_to_dict`)."""
    return f"{game}-env/state"


@dataclass(frozen=True)
class SavedGame:
    """A game read from a file: the game's name, its record (the game's own record format,
    `config`, `seed`, `actions`, or a saved position and the actions after it, `state`,
    `actions`) and who sits where (an agent spec per seat, None for the person). A bare
    record or position has `seats` None. `to_dict` is what a terminal game's `--save`
    writes."""

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
    """The game of `game` in `data`, in every format the project writes: a terminal game's
    saved game, the web page's download, a game record, a saved position (an env's
    `save_game()`) or a position with the actions played after it. A ValueError naming
    what is wrong, or the game it belongs to."""
    if not isinstance(data, dict):
        raise ValueError(f"a saved game is a JSON object, got {type(data).__name__}")
    if data.get("schema") == SAVE_SCHEMA:
        return _terminal_save(data, game)
    if data.get("format") == WEB_FORMAT:
        return _web_download(data, game)
    if set(RECORD_KEYS) <= set(data) or set(data) == set(CONTINUED_KEYS):
        return SavedGame(game, data)
    schema = data.get("schema")
    if schema == state_schema(game):
        return SavedGame(game, {"state": data, "actions": []})
    if isinstance(schema, str) and schema.endswith(state_schema("")):
        other = schema.removesuffix(state_schema("")).upper()
        raise ValueError(f"it is a saved {other} position, not {a_or_an(game.upper())} one")
    name = game.upper()
    raise ValueError(
        f"neither {a_or_an(name)} game record nor a saved {name} game (a terminal game's "
        "--save, the web page's download or an env's save_game())"
    )


def _terminal_save(data: dict[str, Any], game: str) -> SavedGame:
    """What `--save` writes (`SavedGame.to_dict`), checked."""
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


def _web_download(data: dict[str, Any], game: str) -> SavedGame:
    """The web page's download of a game (`WEB_FORMAT`), checked: the record with its
    lineup, the person's seat the lineup's one null."""
    if set(data) != set(WEB_KEYS):
        raise ValueError(f"a {WEB_FORMAT} file has format, game, record, lineup and seat")
    if data["game"] != game:
        other = str(data["game"]).upper()
        raise ValueError(f"this is {a_or_an(other)} game, not {game.upper()}")
    names, seat = data["lineup"], data["seat"]
    if not isinstance(names, list) or not all(n is None or isinstance(n, str) for n in names):
        raise ValueError("lineup must be a list of agent names and one null (the person)")
    if not isinstance(seat, int) or isinstance(seat, bool) or names.count(None) != 1:
        raise ValueError("seat must be an int, and the lineup have one null (the person)")
    if not 0 <= seat < len(names) or names[seat] is not None:
        raise ValueError(f"seat {seat} is not the lineup's null entry")
    if not isinstance(data["record"], dict):
        raise ValueError("record must be a game record (a JSON object)")
    return SavedGame(game, data["record"], names)


def read_saved_game(path: Path, game: str) -> SavedGame:
    """The saved game or record of `game` at `path` (any format `saved_game_from_dict`
    reads); a ValueError naming the file and what is wrong with it."""
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


# ------------------------------------------------------------------------ resuming
@dataclass(frozen=True)
class Rules(Generic[State, Action]):
    """What resuming a saved game needs of a game's reference engine (each game's
    `reference/record.py` gives its `RULES`). `record` is the game's record class, built
    as `record(config, seed, actions)` (which checks the actions' form) and read by
    `record.from_dict`; `saved_seed` is the seed a saved position's agents derive theirs
    from."""

    game: str
    new_game: Callable[[Any, int], State]
    step: Callable[[State, Action], object]
    state_from_dict: Callable[[dict[str, Any]], State]
    state_to_dict: Callable[[State], dict[str, Any]]
    record: Any
    config_of: Callable[[State], Any]
    saved_seed: Callable[[State], int]


@dataclass(frozen=True)
class Resumed(Generic[State, Action]):
    """A saved game read and checked, ready to play on: its configuration, the seed its
    agents derive theirs from, the saved position it starts from (None: the new game of
    `seed`), the actions after that start (each legal in turn) and who sat where."""

    rules: Rules[State, Action]
    config: Any
    seed: int
    start: dict[str, Any] | None
    actions: list[Action]
    seats: list[str | None] | None = None

    def position(self, actions: Iterable[Action] = ()) -> State:
        """The position after `actions` from the start."""
        rules = self.rules
        state = (
            rules.new_game(self.config, self.seed)
            if self.start is None
            else rules.state_from_dict(self.start)
        )
        for action in actions:
            rules.step(state, action)
        return state

    def final(self) -> State:
        """The position after every action: where the game goes on."""
        return self.position(self.actions)

    def record(self, actions: Iterable[Action]) -> dict[str, Any]:
        """The record of this game with `actions` after its start: the game's own record
        from a seed, else the saved position with the actions after it."""
        actions = list(actions)
        if self.start is None:
            return dict(self.rules.record(self.config, self.seed, actions).to_dict())
        return {"state": self.start, "actions": copy.deepcopy(actions)}


def resume(rules: Rules[State, Action], saved: SavedGame) -> Resumed[State, Action]:
    """`saved` (of `rules.game`) checked in full: its start, and each action legal in
    turn; a CorruptStateError (a ValueError) naming the first thing wrong."""
    record = saved.record
    if set(record) != set(CONTINUED_KEYS):
        read = rules.record.from_dict(record)
        replay_actions(
            rules.new_game(read.config, read.seed), read.actions, rules.step, CorruptStateError
        )
        return Resumed(rules, read.config, read.seed, None, list(read.actions), saved.seats)
    state = rules.state_from_dict(record["state"])
    config, seed = rules.config_of(state), rules.saved_seed(state)
    try:
        actions = list(rules.record(config, seed, record["actions"]).actions)
    except ValueError as exc:
        raise CorruptStateError(f"actions: {exc}", "actions") from exc
    start = rules.state_to_dict(state)
    replay_actions(state, actions, rules.step, CorruptStateError)
    return Resumed(rules, config, seed, start, actions, saved.seats)


def load_game(rules: Rules[State, Action], data: object) -> Resumed[State, Action]:
    """`data` in any format `saved_game_from_dict` reads, resumed (`resume`); a
    ValueError naming what is wrong."""
    return resume(rules, saved_game_from_dict(data, rules.game))


def position_to_load(rules: Rules[State, Action], data: object) -> dict[str, Any]:
    """The saved position (`state_to_dict`) where the game in `data` (any format
    `saved_game_from_dict` reads) goes on: what an env's `load_game` continues."""
    resumed = load_game(rules, data)
    if resumed.start is not None and not resumed.actions:
        return resumed.start
    return rules.state_to_dict(resumed.final())
