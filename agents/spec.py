"""The agent-spec grammar and the games' agent tables, below the registry and the search:
how a `name:key=value:...` spec is taken apart (`parse_spec`) and how one option's text
is read (`Option`, `read_mixture`), what a game's folder gives (`GameAgents`: its
baselines, its configurable agents, its search verbs) and where the tables are found
(`game_agents`). The registry (`agents.registry`) builds agents from them; the shared
search reads a game's table from here, so neither imports the other by name.
"""

from __future__ import annotations

import importlib
import json
import math
import zipfile
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal, NamedTuple

from .base import Agent
from .search.verbs import SearchVerbs

OptionValue = int | float | bool | str
TRUE, FALSE = ("true", "1"), ("false", "0")  # how a bool option is written (any case)


# the bounds of every search agent's budget options (the games' own and the shared ones)
MAX_SIMS = 1_000_000  # the largest budget a spec may ask: a decision still ends in minutes
MAX_SECONDS = 3600.0
MAX_BATCH = 65_536  # games per core batch: a batch's arrays stay well under a GiB
MAX_WAVE = 4096


@dataclass(frozen=True)
class Option:
    """How the text of one `key=value` option is read, and the values it may take."""

    kind: Literal["int", "float", "bool", "str", "file", "mix"]
    low: float | None = None  # the smallest value allowed
    low_open: bool = False  # `low` itself is not allowed
    high: float | None = None  # the largest value allowed
    # the values a "str" option may take (any if empty); a "mix" option's names
    choices: tuple[str, ...] = ()

    def read(self, text: str) -> OptionValue:
        """The value `text` stands for; ValueError saying what the option takes."""
        if self.kind == "mix":
            read_mixture(text, self.choices)
            return text
        value = _READERS[self.kind](text)
        if self.choices and value not in self.choices:
            raise ValueError(f"must be one of {list(self.choices)}, got {text!r}")
        if isinstance(value, (int, float)) and not self.allows(value):
            raise ValueError(f"must be {self.range()}, got {text}")
        return value

    def allows(self, value: float) -> bool:
        """Whether a number is in the option's range."""
        above = self.low is None or (value > self.low if self.low_open else value >= self.low)
        return above and (self.high is None or value <= self.high)

    def range(self) -> str:
        """The option's range in words: `>= 1`, `> 0`, `in (0, 1]`, `in [1, 1000000]`."""
        low = "any" if self.low is None else _plain(self.low)
        if self.high is not None:
            return f"in {'(' if self.low_open else '['}{low}, {_plain(self.high)}]"
        return f"{'>' if self.low_open else '>='} {low}"


def _plain(value: float) -> str:
    """A bound as written: `1000000`, not `1e+06`; `0.5`."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"must be an integer, got {text!r}") from None


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"must be a number, got {text!r}") from None
    if not math.isfinite(value):
        raise ValueError(f"must be a finite number, got {text!r}")
    return value


def _boolean(text: str) -> bool:
    if text.lower() not in TRUE + FALSE:
        raise ValueError(f"must be true or false, got {text!r}")
    return text.lower() in TRUE


MODEL_MEMBERS = ("data", "policy.pth")  # what every saved stable-baselines3 model holds


def saved_model_problem(path: Path) -> str:
    """'' if `path` reads as a saved stable-baselines3 model (a zip archive holding its
    JSON `data` and its weights), else what is wrong; read without loading torch."""
    try:
        with zipfile.ZipFile(path) as archive:
            missing = [m for m in MODEL_MEMBERS if m not in archive.namelist()]
            if missing:
                return f"no {' or '.join(missing)} in the archive"
            data = json.loads(archive.read("data"))
    except (OSError, zipfile.BadZipFile):
        return "not a zip archive"
    except (ValueError, UnicodeDecodeError) as e:
        return f"its data is not JSON: {e}"
    return "" if isinstance(data, dict) else "its data is not a JSON object"


def _file(text: str) -> str:
    """A saved model's path, given with or without its `.zip` (SB3 saves zip archives),
    checked to read as a saved model."""
    found = [p for p in (Path(text), Path(text + ".zip")) if p.is_file()]
    if not found:
        raise ValueError(f"names no file: {text!r}")
    problem = saved_model_problem(found[0])
    if problem:
        raise ValueError(f"{found[0]} is not a saved MaskablePPO model ({problem})")
    return text


MIX_ITEM, MIX_WEIGHT = "+", "*"  # a mixture of policies: `NAME[*WEIGHT]+NAME[*WEIGHT]...`
Mixture = tuple[tuple[str, float], ...]  # (name, weight) pairs, each name once


def read_mixture(text: str, names: Collection[str] = ()) -> Mixture:
    """`NAME[*WEIGHT]+...` -> ((name, weight), ...): the one grammar of a weighted mix of
    policies (a search spec's `opponents=`, self-play's `--playout-mix`, PPO's
    `--opponents`; docs/agents.md), e.g. `ppo_2p*2+value*2+random`. Each name one of
    `names` (any if empty), at most once; each weight a positive finite number (1 if not
    given). ValueError naming what is wrong."""
    mix: dict[str, float] = {}
    for item in text.split(MIX_ITEM):
        name, star, weight_text = (part.strip() for part in item.partition(MIX_WEIGHT))
        if not name or (names and name not in names):
            raise ValueError(f"names {name!r} in {text!r}; the names: {sorted(names)}")
        if name in mix:
            raise ValueError(f"names {name!r} twice in {text!r}")
        weight = _number(weight_text) if star else 1.0
        if weight <= 0:
            raise ValueError(f"gives {name!r} the weight {weight_text}; weights must be > 0")
        mix[name] = weight
    return tuple(mix.items())


def mixture_text(mix: Mixture) -> str:
    """The text `read_mixture` reads back as `mix` (a weight of 1 left out)."""
    return MIX_ITEM.join(n if w == 1 else f"{n}{MIX_WEIGHT}{_weight_text(w)}" for n, w in mix)


def _weight_text(weight: float) -> str:
    """The shortest text of `weight` that reads back as it (2.0 as "2")."""
    return str(weight).removesuffix(".0")


_READERS: dict[str, Callable[[str], OptionValue]] = {
    "int": _integer,
    "float": _number,
    "bool": _boolean,
    "str": str,
    "file": _file,
}


@dataclass(frozen=True)
class AgentKind:
    """One agent name: how it is built (`build(seed, **options)`) and the options its spec
    takes."""

    build: Callable[..., Agent[Any]]
    options: Mapping[str, Option] = field(default_factory=dict)
    main: str | None = None  # the option a bare value sets (`flatmc:256` is sims=256)
    required: tuple[str, ...] = ()  # the options every spec of it must give


@dataclass(frozen=True)
class GameAgents:
    """A game's agents, as its folder gives them to the registry (`GAME_AGENTS` in
    `agents/<game>/__init__.py`)."""

    baselines: Mapping[str, type[Agent[Any]]]  # built from a seed alone: `cls(seed)`
    configurable: Mapping[str, AgentKind] = field(default_factory=dict)
    # what the shared search needs of the game beyond its core (None: the defaults)
    search: SearchVerbs | None = None


class Spec(NamedTuple):
    """An agent spec taken apart by the grammar (nothing checked against a game yet)."""

    name: str
    options: dict[str, str]  # key -> its text, as written
    bare: str | None  # a value written without key (the agent's main option), if any


def parse_spec(spec: str) -> Spec:
    """The parts of `name:key=value:...` (at most one bare value); ValueError for a spec
    the grammar does not allow (an empty name or value, a key given twice)."""
    name, *parts = str(spec).split(":")
    if not name:
        raise ValueError(f"agent spec {spec!r}: no agent name before the options")
    options: dict[str, str] = {}
    bare = None
    for part in parts:
        key, eq, text = part.partition("=")
        if not eq and (bare is not None or not part):
            raise ValueError(f"agent spec {spec!r}: {part!r} is not key=value")
        if not eq:
            bare = part
        elif not key or not text:
            raise ValueError(f"agent spec {spec!r}: {part!r} needs a key and a value")
        elif key in options:
            raise ValueError(f"agent spec {spec!r}: option {key!r} is given twice")
        else:
            options[key] = text
    return Spec(name, options, bare)


# games whose table lives outside agents/ (`agents.registry.register_game`)
REGISTERED: dict[str, GameAgents] = {}


def games() -> list[str]:
    """The registered games (`asara_env.games`, in registration order) with agents: a
    package `agents/<game>/`, or the table `agents.registry.register_game` gave it. (The
    cards are loaded only when asked: importing this loads nothing of `asara_env`.)"""
    from asara_env.games import available_games, games_with

    with_package = games_with("agents.{game}")
    return [name for name in available_games() if name in REGISTERED or name in with_package]


def game_agents(game: str) -> GameAgents:
    """`game`'s table (`agents/<game>/__init__.py`: `GAME_AGENTS`), imported on first use;
    ValueError for a game without agents."""
    if not isinstance(game, str):
        raise TypeError(f"game must be a game's name (str), got {type(game).__name__}")
    if game not in games():
        raise ValueError(f"unknown game {game!r}; games with agents: {games()}")
    return table_of(game)


@cache
def table_of(game: str) -> GameAgents:
    if game in REGISTERED:
        return REGISTERED[game]
    table = importlib.import_module(f"agents.{game}").GAME_AGENTS
    if not isinstance(table, GameAgents):
        raise TypeError(f"agents.{game}.GAME_AGENTS must be a GameAgents, not {type(table)}")
    return table
