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
  `ismcts`, `gumbel`), where the game's table does not give its own under that name;
- its shipped models, `agents.models.MODELS[game]`;
- `policy:model=PATH`, any saved MaskablePPO model (`deterministic=false` samples).

The grammar and the tables are `agents.spec`'s. A game's table is imported when the
game is first named (importlib), so importing the registry loads no game. A game defined
outside agents/ gives its table with `register_game(name, table)` (and takes it back with
`unregister_game(name)`). A spec is checked in full before anything is built, and one
that names no agent is refused with a one-line ValueError naming what is wrong: the game,
the agent (with the known ones), the option (with the ones the agent takes) or the value
(the type or range it must have).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from functools import cache, partial
from typing import Any

from .base import Agent
from .models import MODELS, make_model_agent
from .policy_agent import PolicyAgent
from .spec import (
    MAX_BATCH,
    MAX_SECONDS,
    MAX_SIMS,
    MAX_WAVE,
    MIX_ITEM,
    MIX_WEIGHT,
    REGISTERED,
    AgentKind,
    GameAgents,
    Mixture,
    Option,
    OptionValue,
    Spec,
    game_agents,
    games,
    mixture_text,
    parse_spec,
    read_mixture,
    saved_model_problem,
    table_of,
)

__all__ = [
    "MAX_BATCH",
    "MAX_SECONDS",
    "MAX_SIMS",
    "MAX_WAVE",
    "MIX_ITEM",
    "MIX_WEIGHT",
    "POLICY",
    "AgentKind",
    "AgentSpecs",
    "GameAgents",
    "Mixture",
    "Option",
    "OptionValue",
    "Spec",
    "agent_names",
    "agent_specs",
    "check_agent",
    "check_spec",
    "game_agents",
    "games",
    "is_agent",
    "known_agents",
    "make_agent",
    "mixture_text",
    "parse_spec",
    "read_mixture",
    "register_game",
    "saved_model_problem",
    "spec_error",
    "unknown_agents_error",
    "unregister_game",
]


def _policy(seed: int | None, model: str, deterministic: bool = True) -> PolicyAgent:
    return PolicyAgent(model, seed=seed, deterministic=deterministic)


POLICY = AgentKind(
    _policy, {"model": Option("file"), "deterministic": Option("bool")}, required=("model",)
)


def register_game(game: str, table: GameAgents) -> None:
    """Give game `game` the agents `table` without a package `agents/<game>/` (a game
    defined elsewhere, e.g. a test's: `tests/toygame/`); `unregister_game` undoes it."""
    if not isinstance(table, GameAgents):
        raise TypeError(f"table must be a GameAgents, got {type(table).__name__}")
    if game in games() and REGISTERED.get(game) is not table:
        raise ValueError(f"game {game!r} already has agents")
    REGISTERED[game] = table
    table_of.cache_clear()
    _kinds_of.cache_clear()


def unregister_game(game: str) -> None:
    """Forget the table `register_game` gave game `game`."""
    del REGISTERED[game]
    table_of.cache_clear()
    _kinds_of.cache_clear()


def _kinds(game: str) -> dict[str, AgentKind]:
    """Every name of `game`, in the order of `agent_names`."""
    game_agents(game)  # the checks
    return _kinds_of(game)


@cache
def _kinds_of(game: str) -> dict[str, AgentKind]:
    table = table_of(game)
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


def _configurable(game: str, table: GameAgents) -> dict[str, AgentKind]:
    """The game's configurable agents: its table's, then the shared search's
    (`agents.search.agent.shared_kinds`) under the names its table leaves free."""
    from .search.agent import shared_kinds  # imported on first use: it loads the cards

    kinds = dict(table.configurable)
    for name, kind in shared_kinds(game).items():
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
