"""Baseline agents that act on observations and action masks (see agents/base.py), the
shipped models (agents/models.py), and search agents that simulate the game from what
their seat knows (agents/search.py: flat Monte Carlo; agents/ismcts.py: information-set MCTS).

`make_agent(spec, seed)` builds one from an agent spec: a registry name (`AGENTS`, the
baselines; `MODELS`, the shipped models; `SEARCH_AGENTS`), optionally followed by
`:key=value` options, e.g. `flatmc:sims=256:playout=greedy` (a bare number is `sims`:
`flatmc:256`), or `policy:model=PATH` for any saved MaskablePPO model (`PolicyAgent`).
`agent_names()` lists the registry names.
"""

from collections.abc import Collection, Iterator

from .base import Agent, pick_best
from .heuristic import GreedyAgent, TallAgent, TowersAgent
from .ismcts import ISMCTSAgent
from .models import MODELS, make_model_agent
from .policy_agent import PolicyAgent
from .random_agent import RandomAgent
from .search import FlatMCAgent, SearchAgent

AGENTS: dict[str, type[Agent]] = {
    a.name: a for a in (RandomAgent, GreedyAgent, TowersAgent, TallAgent)
}
SEARCH_AGENTS: dict[str, type[SearchAgent]] = {a.name: a for a in (FlatMCAgent, ISMCTSAgent)}
# options each spec accepts beyond the registry name
_OPTIONS: dict[str, set[str]] = {
    **{name: set() for name in [*AGENTS, *MODELS]},
    "flatmc": {"sims", "seconds", "playout", "value", "batch", "horizon"},
    "ismcts": {
        "sims",
        "seconds",
        "playout",
        "value",
        "batch",
        "horizon",
        "c",
        "wave",
        "expand",
        "widen",
    },
    "policy": {"model", "deterministic"},
}


def _value(text: str) -> int | float | bool | str:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def parse_spec(spec: str) -> tuple[str, dict]:
    """(registry name, options) of an agent spec; ValueError naming what is wrong."""
    name, *parts = spec.split(":")
    if name not in _OPTIONS:
        raise ValueError(
            f"unknown agent {name!r}; known agents: {sorted(AGENTS)}, shipped models: "
            f"{sorted(MODELS)}, search agents: {sorted(SEARCH_AGENTS)}, policy:model=PATH"
        )
    options = {}
    for part in parts:
        key, eq, text = part.partition("=")
        if not eq and name in SEARCH_AGENTS and key.isdigit():
            key, text = "sims", key
        if key not in _OPTIONS[name] or not text:
            raise ValueError(
                f"bad option {part!r} in agent spec {spec!r}; {name} takes "
                f"{sorted(_OPTIONS[name]) or 'no options'} as key=value"
            )
        options[key] = _value(text)
    if name == "policy" and "model" not in options:
        raise ValueError(f"agent spec {spec!r}: policy needs model=PATH")
    return name, options


def agent_names() -> list[str]:
    """Every registry name a spec may start with: the baselines, the shipped models, the
    search agents, `policy`."""
    return sorted(AGENTS) + sorted(MODELS) + sorted(SEARCH_AGENTS) + ["policy"]


def check_agent(spec: str) -> str:
    """`spec` if it names an agent (see the module docstring), else ValueError."""
    parse_spec(spec)
    return spec


def is_agent(spec: str) -> bool:
    """Whether `spec` names an agent (with valid options)."""
    try:
        parse_spec(spec)
    except ValueError:
        return False
    return True


def unknown_agents_error(names: list[str]) -> str | None:
    """None if every spec is known; otherwise a message naming the unknown ones and the
    agents that exist."""
    unknown = [n for n in names if not is_agent(n)]
    if not unknown:
        return None
    return (
        f"unknown agent(s) {unknown}; known agents: {sorted(AGENTS)}, "
        f"shipped models: {sorted(MODELS)}, search agents: {sorted(SEARCH_AGENTS)} "
        "(with :key=value options), policy:model=PATH"
    )


class _Specs(Collection[str]):
    """Every agent spec, as a collection: `spec in AGENT_SPECS` checks a spec (options
    included), iterating gives the registry names."""

    def __contains__(self, spec: object) -> bool:
        return isinstance(spec, str) and is_agent(spec)

    def __iter__(self) -> Iterator[str]:
        return iter(agent_names())

    def __len__(self) -> int:
        return len(agent_names())


AGENT_SPECS: Collection[str] = _Specs()


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """The agent of `spec` (a registry name with optional options), seeded."""
    name, options = parse_spec(spec)
    if name in MODELS:
        return make_model_agent(name, seed)
    if name == "policy":
        return PolicyAgent(str(options.pop("model")), seed=seed, **options)
    return {**AGENTS, **SEARCH_AGENTS}[name](seed, **options)


__all__ = [
    "AGENTS",
    "AGENT_SPECS",
    "MODELS",
    "SEARCH_AGENTS",
    "Agent",
    "FlatMCAgent",
    "GreedyAgent",
    "ISMCTSAgent",
    "PolicyAgent",
    "RandomAgent",
    "SearchAgent",
    "TallAgent",
    "TowersAgent",
    "agent_names",
    "check_agent",
    "is_agent",
    "make_agent",
    "make_model_agent",
    "parse_spec",
    "pick_best",
    "unknown_agents_error",
]
