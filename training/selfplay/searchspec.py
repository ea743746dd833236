"""Self-play's search as one agent spec (`--search`), in the agents' grammar
(`agents.registry.parse_spec`), read into what the workers need (`SearchSpec`).

    gumbel:32:prior=self:value=net        the default: the Gumbel root at 32 simulations,
                                          the network's policy its prior, its value head
                                          scoring the leaves
    gumbel:32:prior=self:playout=ppo_2p   the leaves scored by playouts of ppo_2p to the end
    gumbel:32:prior=self:value=net:full=0.25:fast=8
                                          playout cap randomisation: a quarter of the
                                          decisions searched at 32 simulations (their improved
                                          policy a target), the rest at 8 (value data only)
    flatmc:64:playout=value:opponents=value,random:value=margin:target=best
                                          flat Monte Carlo over playouts (no network)
    prior                                 no search: the network's policy (a control)

Options beside the search agents' own: `prior=self` (the network being trained, the only
prior self-play has), `c_scale=X` (the scale of q in the improved policy, mctx's 0.1),
`target=improved|best` (flat: the improved policy or the played action one-hot),
`full=P` and `fast=N` (playout cap randomisation, KataGo: each decision searched in full
with probability P, else with N simulations and no policy target). `value=` is `net` (the
value head) or a reward scheme of the game (playouts scored by it; the Gumbel root reads
win shares, so only `win` there); gumbel's default is `net`, or `win` where `playout=`
is named.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

DEFAULT_SEARCH = "gumbel:32:prior=self:value=net"
SELF = "self"  # prior=self: the network being trained
NET = "net"  # value=net: its value head
DEFAULT_SIMULATIONS = 32
MAX_SIMULATIONS = 4096
KINDS = {"gumbel": "gumbel", "flatmc": "flat", "prior": "prior"}  # spec name -> searcher
TARGETS = ("improved", "best")
OWN_OPTIONS = {
    "gumbel": ("prior", "value", "playout", "c_scale", "full", "fast", "sims"),
    "flatmc": ("value", "playout", "opponents", "c_scale", "target", "full", "fast", "sims"),
    "prior": (),
}
# the flags older runs recorded their search in (run.json), read by `legacy_spec`
LEGACY = ("simulations", "leaf", "playout", "playout_mix", "search_reward", "flat_target")


@dataclass(frozen=True)
class SearchSpec:
    """A self-play search spec read (module docstring)."""

    search: str  # the searcher's name (training/selfplay/search.py SEARCHERS)
    simulations: int = DEFAULT_SIMULATIONS
    leaf: str = NET  # "net" or "playout"
    playout: str = "random"
    playout_mix: str = ""  # flat: NAME[=WEIGHT],... of the other seats' playout policies
    search_reward: str = "win"  # playout leaves: the scheme they are scored by
    flat_target: str = "improved"
    c_scale: float = 0.1
    full: float = 1.0  # playout cap randomisation: the share of full searches
    fast: int = 0  # ... the simulations of the others (0: every search full)


def _number(key: str, text: str, kind: type, low: float, high: float) -> Any:
    try:
        value = kind(text)
    except ValueError:
        raise ValueError(f"option {key}={text!r} is not a {kind.__name__}") from None
    if not (math.isfinite(value) and low <= value <= high):
        raise ValueError(f"option {key}={text!r} must be between {low} and {high}")
    return value


def read_search(text: str, schemes: tuple[str, ...]) -> SearchSpec:
    """`text` read as a self-play search spec; ValueError naming what is wrong. `schemes`:
    the game's reward schemes. (The playout and mixture names are checked by the game.)"""
    from agents.registry import parse_spec

    spec = parse_spec(text)
    if spec.name not in KINDS:
        raise ValueError(f"search {spec.name!r} is not one of {sorted(KINDS)}")
    options = dict(spec.options)
    if spec.bare is not None:
        options.setdefault("sims", spec.bare)
    unknown = sorted(set(options) - set(OWN_OPTIONS[spec.name]))
    if unknown:
        raise ValueError(
            f"{spec.name} takes no option {unknown[0]!r}; it takes {list(OWN_OPTIONS[spec.name])}"
        )
    if options.get("prior", SELF) != SELF:
        raise ValueError(f"self-play's prior is the network it trains: prior={SELF}")
    # gumbel's leaves: the value head unless playouts are named (`playout=` alone)
    own_leaf = spec.name == "gumbel" and "playout" not in options
    value = options.get("value", NET if own_leaf else "win")
    if value != NET and value not in schemes:
        raise ValueError(f"option value={value!r}: {NET} or a reward scheme {list(schemes)}")
    if spec.name == "gumbel" and value not in (NET, "win"):
        raise ValueError("the Gumbel root reads win shares: value=net or value=win")
    if spec.name == "flatmc" and value == NET:
        raise ValueError("flat Monte Carlo scores its playouts: value=<reward scheme>")
    target = options.get("target", "improved")
    if target not in TARGETS:
        raise ValueError(f"option target={target!r} must be one of {list(TARGETS)}")
    full = _number("full", options.get("full", "1"), float, 0.0, 1.0)
    fast = _number("fast", options.get("fast", "0"), int, 0, MAX_SIMULATIONS)
    if full < 1 and fast < 1:
        raise ValueError("option full=P below 1 needs fast=N, the fast searches' simulations")
    return SearchSpec(
        search=KINDS[spec.name],
        simulations=_number("sims", options.get("sims", "32"), int, 1, MAX_SIMULATIONS),
        leaf=NET if value == NET else "playout",
        playout=options.get("playout", "random"),
        playout_mix=options.get("opponents", ""),
        search_reward="win" if value == NET else value,
        flat_target=target,
        c_scale=_number("c_scale", options.get("c_scale", "0.1"), float, 1e-9, 100.0),
        full=full,
        fast=fast,
    )


def legacy_spec(recorded: dict[str, Any]) -> str | None:
    """The spec that says what an older run's recorded search flags said (None: the
    record has no such flags)."""
    if not any(k in recorded for k in LEGACY):
        return None
    search = str(recorded.get("search", "gumbel"))
    if search == "prior":
        return "prior"
    kind = "flatmc" if search == "flat" else "gumbel"
    parts = [kind, str(recorded.get("simulations", DEFAULT_SIMULATIONS))]
    if kind == "gumbel":
        parts.append(f"prior={SELF}")
    if kind == "gumbel" and recorded.get("leaf", NET) == NET:
        parts.append(f"value={NET}")
    else:
        parts.append(f"playout={recorded.get('playout', 'random')}")
        if kind == "flatmc":
            parts.append(f"value={recorded.get('search_reward', 'win')}")
    if kind == "flatmc" and recorded.get("playout_mix"):
        mix = str(recorded["playout_mix"]).replace("=", "*").replace(",", "+")
        parts.append(f"opponents={mix}")
    if kind == "flatmc" and recorded.get("flat_target", "improved") != "improved":
        parts.append(f"target={recorded['flat_target']}")
    if float(recorded.get("c_scale", 0.1)) != 0.1:
        parts.append(f"c_scale={recorded['c_scale']}")
    return ":".join(parts)


def playout_names(game: str) -> tuple[str, ...]:
    """The names of `game`'s playout policies (agents.search)."""
    from agents.search.gumbel import search_game  # imported only to read the names

    return search_game(game).playout_names


def playout_mix(game: str, search: SearchSpec) -> tuple[tuple[str, float], ...]:
    """The spec's `opponents=` mixture read (the agents' grammar: `value*2+random`);
    ValueError naming what is wrong."""
    from agents.registry import read_mixture

    if not search.playout_mix:
        return ()
    return read_mixture(search.playout_mix, playout_names(game))
