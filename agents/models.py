"""The shipped trained models, usable by name wherever an agent is named (`asara play
--opponents ppo_2p`, `asara-tournament --agents ppo_4p,towers`, `asara-evaluate
--opponents ppo_2p`; BASARI: `basari play --opponents ppo_4p`, `basari-tournament
--agents value,ppo_4p`).

`MODELS` (ASARA) and `BASARI_MODELS` map a name to a file of `models/`;
`make_model_agent(name, seed, models)` loads it (once per process) as a `PolicyAgent`
playing its most probable legal action. Loading needs the
`train` extra (torch, sb3-contrib), imported only then.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from .policy_agent import PolicyAgent

MODELS_DIR = Path(__file__).resolve().parents[1] / "models"
MODELS: dict[str, str] = {
    "ppo_2p": "asara_2p.zip",  # MaskablePPO trained for 2 players
    "ppo_4p": "asara_4p.zip",  # MaskablePPO trained for 4 players
}
BASARI_MODELS: dict[str, str] = {
    "ppo_4p": "basari_4p.zip",  # MaskablePPO trained for 4-player BASARI (README: BASARI)
}


def model_path(name: str, models: dict[str, str] = MODELS) -> Path:
    """The file of the shipped model `name` among `models`; a clear error for an unknown
    name or a missing file."""
    if name not in models:
        raise ValueError(f"unknown model {name!r}; shipped models: {sorted(models)}")
    path = MODELS_DIR / models[name]
    if not path.exists():
        raise FileNotFoundError(f"model {name!r} should be at {path}, which does not exist")
    return path


@cache
def _load(path: Path):
    from sb3_contrib import MaskablePPO

    return MaskablePPO.load(path, device="cpu")


def make_model_agent(
    name: str, seed: int | None = None, models: dict[str, str] = MODELS
) -> PolicyAgent:
    """The shipped model `name` of `models` as a seeded agent (its most probable legal
    action)."""
    agent = PolicyAgent(_load(model_path(name, models)), seed)
    agent.name = name
    return agent
