"""The shipped trained models of every game, usable by name wherever an agent is named
(`asara play --opponents ppo_2p`, `asara-tournament --agents ppo_4p,towers`,
`asara-evaluate --opponents ppo_2p`, `basari play --opponents ppo_4p`,
`basari-tournament --agents value,ppo_2p --players 2`, `make_agent("basari", "ppo_3p")`).
Each is trained for the player count in its name (it plays the others too, less well).

`MODELS[game]` maps a name to a file of `models/`; `make_model_agent(game, name, seed)`
loads it (once per process) as a `PolicyAgent` playing its most probable legal action.
Loading needs the `train` extra (torch, sb3-contrib), imported only then.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from .policy_agent import PolicyAgent

if TYPE_CHECKING:
    from sb3_contrib import MaskablePPO

MODELS_DIR = Path(__file__).resolve().parents[1] / "models"
MODELS: dict[str, dict[str, str]] = {
    "asara": {
        "ppo_2p": "asara_2p.zip",  # MaskablePPO trained for 2 players
        "ppo_4p": "asara_4p.zip",  # MaskablePPO trained for 4 players
    },
    "basari": {
        "ppo_2p": "basari_2p.zip",  # MaskablePPO trained for 2-player BASARI (docs/agents.md)
        "ppo_3p": "basari_3p.zip",  # MaskablePPO trained for 3-player BASARI
        "ppo_4p": "basari_4p.zip",  # MaskablePPO trained for 4-player BASARI
    },
}


def model_path(game: str, name: str) -> Path:
    """The file of `game`'s shipped model `name`; a clear error for an unknown name or a
    missing file."""
    shipped = MODELS.get(game, {})
    if name not in shipped:
        raise ValueError(f"unknown {game} model {name!r}; shipped models: {sorted(shipped)}")
    path = MODELS_DIR / shipped[name]
    if not path.exists():
        raise FileNotFoundError(f"model {name!r} should be at {path}, which does not exist")
    return path


@cache
def _load(path: Path) -> MaskablePPO:
    from sb3_contrib import MaskablePPO

    return MaskablePPO.load(path, device="cpu")


def make_model_agent(game: str, name: str, seed: int | None = None) -> PolicyAgent:
    """`game`'s shipped model `name` as a seeded agent (its most probable legal action)."""
    agent = PolicyAgent(_load(model_path(game, name)), seed)
    agent.name = name
    return agent
