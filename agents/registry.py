"""Agents by name, for every game: `make_agent(game, spec, seed)`.

An agent spec is a name, optionally followed by options, separated by colons:
`name:key=value:key=value` (`flatmc:sims=256:playout=towers`). A bare value sets the
agent's main option (`flatmc:256` is `flatmc:sims=256`). Colons and not commas, because the
command lines list agents with commas (`--agents towers,flatmc:64:playout=towers`).

The names a spec of `game` may start with (`agent_names(game)`):
- the game's own agents, from the table `GAME_AGENTS` of `agents/<game>/__init__.py`: its
  baselines, built from a seed alone, then its configurable agents with the options each
  takes (ASARA's own search agents);
- the shared search agents of every game with a card (`agents.search.agent`: `flatmc`,
  `ismcts`, `gumbel`; the modules of `SHARED_KINDS`), where the game's table does not
  give its own under that name;
- its shipped models, `agents.models.MODELS[game]`;
- `policy:model=PATH`, any saved MaskablePPO model (`deterministic=false` samples).

A game's table is imported when the game is first named (importlib), so importing the
registry loads no game. A game defined outside agents/ gives its table with
`register_game(name, table)` (and takes it back with `unregister_game(name)`). A spec is
checked in full before anything is built, and one that names no agent is refused with a
one-line ValueError naming what is wrong: the game, the agent (with the known ones), the
option (with the ones the agent takes) or the value (the type or range it must have).
"""

from __future__ import annotations

import importlib
import json
import math
import zipfile
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache, partial
from pathlib import Path
from typing import Any, Literal, NamedTuple

from .base import Agent
from .models import MODELS, make_model_agent
from .policy_agent import PolicyAgent

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


def _policy(seed: int | None, model: str, deterministic: bool = True) -> PolicyAgent:
    return PolicyAgent(model, seed=seed, deterministic=deterministic)


POLICY = AgentKind(
    _policy, {"model": Option("file"), "deterministic": Option("bool")}, required=("model",)
)


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


_REGISTERED: dict[str, GameAgents] = {}  # games whose table lives outside agents/


def register_game(game: str, table: GameAgents) -> None:
    """Give game `game` the agents `table` without a package `agents/<game>/` (a game
    defined elsewhere, e.g. a test's: `tests/toygame/`); `unregister_game` undoes it."""
    if not isinstance(table, GameAgents):
        raise TypeError(f"table must be a GameAgents, got {type(table).__name__}")
    if game in games() and _REGISTERED.get(game) is not table:
        raise ValueError(f"game {game!r} already has agents")
    _REGISTERED[game] = table
    _table.cache_clear()
    _kinds_of.cache_clear()


def unregister_game(game: str) -> None:
    """Forget the table `register_game` gave game `game`."""
    del _REGISTERED[game]
    _table.cache_clear()
    _kinds_of.cache_clear()


def games() -> list[str]:
    """The registered games (`asara_env.games`, in registration order) with agents: a
    package `agents/<game>/`, or the table `register_game` gave it. (The registry loads
    the cards only when asked: importing it loads nothing of `asara_env`.)"""
    from asara_env.games import available_games, games_with

    with_package = games_with("agents.{game}")
    return [name for name in available_games() if name in _REGISTERED or name in with_package]


def game_agents(game: str) -> GameAgents:
    """`game`'s table (`agents/<game>/__init__.py`: `GAME_AGENTS`), imported on first use;
    ValueError for a game without agents."""
    if not isinstance(game, str):
        raise TypeError(f"game must be a game's name (str), got {type(game).__name__}")
    if game not in games():
        raise ValueError(f"unknown game {game!r}; games with agents: {games()}")
    return _table(game)


@cache
def _table(game: str) -> GameAgents:
    if game in _REGISTERED:
        return _REGISTERED[game]
    table = importlib.import_module(f"agents.{game}").GAME_AGENTS
    if not isinstance(table, GameAgents):
        raise TypeError(f"agents.{game}.GAME_AGENTS must be a GameAgents, not {type(table)}")
    return table


def _kinds(game: str) -> dict[str, AgentKind]:
    """Every name of `game`, in the order of `agent_names`."""
    game_agents(game)  # the checks
    return _kinds_of(game)


@cache
def _kinds_of(game: str) -> dict[str, AgentKind]:
    table = _table(game)
    models = sorted(MODELS.get(game, {}))
    configurable = _configurable(game, table)
    groups = [sorted(table.baselines), models, sorted(configurable), ["policy"]]
    names = [name for group in groups for name in group]
    if len(set(names)) != len(names):
        raise TypeError(f"{game}'s agents, models and `policy` share a name: {names}")
    kinds = {name: AgentKind(table.baselines[name]) for name in groups[0]}
    kinds.update((name, AgentKind(partial(make_model_agent, game, name))) for name in models)
    kinds.update((name, configurable[name]) for name in groups[2])
    kinds["policy"] = POLICY
    return kinds


# modules whose `shared_kinds(game) -> {name: AgentKind}` gives every game configurable
# agents (the shared search's flatmc, ismcts and gumbel), imported by name on first use as
# the games' tables are
SHARED_KINDS = ("agents.search.agent",)


def _configurable(game: str, table: GameAgents) -> dict[str, AgentKind]:
    """The game's configurable agents: its table's, then the shared ones (SHARED_KINDS)
    under the names its table leaves free."""
    kinds = dict(table.configurable)
    for module in SHARED_KINDS:
        shared: Mapping[str, AgentKind] = importlib.import_module(module).shared_kinds(game)
        for name, kind in shared.items():
            if name not in kinds and name not in table.baselines:
                kinds[name] = kind
    return kinds


def agent_names(game: str) -> list[str]:
    """Every name a spec of `game` may start with: the baselines, the shipped models, the
    configurable agents, `policy`."""
    return list(_kinds(game))


def known_agents(game: str) -> str:
    """The names of `game`'s agents in words, for error messages and help texts."""
    table = game_agents(game)
    configurable = sorted(_configurable(game, table))
    return (
        f"known agents: {sorted(table.baselines)}, shipped models: {sorted(MODELS.get(game, {}))}"
        + (f", with key=value options: {configurable}" if configurable else "")
        + ", policy:model=PATH"
    )


def check_spec(game: str, spec: str) -> tuple[str, dict[str, OptionValue]]:
    """(name, options read) of a spec of `game`; ValueError naming the unknown agent, the
    unknown option or the option whose value is wrong."""
    name, texts, bare = parse_spec(spec)
    kinds = _kinds(game)
    if name not in kinds:
        raise ValueError(f"unknown agent {name!r} (game {game}); {known_agents(game)}")
    kind = kinds[name]
    if bare is not None:
        if kind.main is None:
            raise ValueError(f"agent spec {spec!r}: {bare!r} is not key=value; {_takes(kind)}")
        if kind.main in texts:
            raise ValueError(f"agent spec {spec!r}: option {kind.main!r} is given twice")
        texts = {kind.main: bare, **texts}
    options = {key: _read(spec, name, kind, key, text) for key, text in texts.items()}
    missing = [key for key in kind.required if key not in options]
    if missing:
        raise ValueError(f"agent spec {spec!r}: {name} needs {missing[0]}=...")
    return name, options


def _read(spec: str, name: str, kind: AgentKind, key: str, text: str) -> OptionValue:
    if key not in kind.options:
        raise ValueError(f"agent spec {spec!r}: {name} has no option {key!r}; {_takes(kind)}")
    try:
        return kind.options[key].read(text)
    except ValueError as e:
        raise ValueError(f"agent spec {spec!r}: option {key!r} {e}") from None


def _takes(kind: AgentKind) -> str:
    return f"it takes {sorted(kind.options)}" if kind.options else "it takes no options"


def make_agent(game: str, spec: str, seed: int | None = None) -> Agent[Any]:
    """The agent of `game` that `spec` names (see the module docstring), seeded."""
    name, options = check_spec(game, spec)
    return _kinds(game)[name].build(seed, **options)


def check_agent(game: str, spec: str) -> str:
    """`spec` if it names an agent of `game`, else ValueError (an argparse `type`)."""
    check_spec(game, spec)
    return spec


def is_agent(game: str, spec: str) -> bool:
    """Whether `spec` names an agent of `game` (with valid options)."""
    return spec_error(game, spec) is None


def unknown_agents_error(game: str, specs: Collection[str]) -> str | None:
    """None if every spec names an agent of `game`; otherwise one line: the specs whose
    name is unknown with the agents that exist, or else the first bad spec's own error (the
    option and what is wrong with it)."""
    errors = {spec: spec_error(game, spec) for spec in specs}
    bad = [spec for spec, error in errors.items() if error is not None]
    if not bad:
        return None
    unknown = [spec for spec in bad if spec.partition(":")[0] not in _kinds(game)]
    return f"unknown agent(s) {unknown}; {known_agents(game)}" if unknown else errors[bad[0]]


def spec_error(game: str, spec: str) -> str | None:
    """None if `spec` names an agent of `game`, else the one-line reason."""
    try:
        check_spec(game, spec)
    except ValueError as e:
        return str(e)
    return None


@dataclass(frozen=True)
class AgentSpecs(Collection[str]):
    """Every agent spec of one game, as a collection: `spec in agent_specs(game)` checks a
    spec (options included), iterating gives the names."""

    game: str

    def __contains__(self, spec: object) -> bool:
        return isinstance(spec, str) and is_agent(self.game, spec)

    def __iter__(self) -> Iterator[str]:
        return iter(agent_names(self.game))

    def __len__(self) -> int:
        return len(agent_names(self.game))


def agent_specs(game: str) -> AgentSpecs:
    """Every agent spec of `game` as a collection (see `AgentSpecs`)."""
    return AgentSpecs(game)
