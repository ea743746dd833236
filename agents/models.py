"""The shipped trained models of every game, usable by name wherever an agent is named
(`asara play --opponents ppo_2p`, `asara-tournament --agents ppo_4p,towers`,
`asara-evaluate --opponents ppo_2p`, `basari play --opponents ppo_4p`,
`basari-tournament --agents value,ppo_2p --players 2`, `make_agent("basari", "ppo_3p")`).
Each is trained for the player count in its name (it plays the others too, less well).

The models are package data: files of `agents/weights/` (`WEIGHTS`), installed with the
package and found with `importlib.resources`. `MODELS[game]` maps a name to its file
there; a new model is its file in `agents/weights/` and one entry here.
`make_model_agent(game, name, seed)` loads it (once per process) as a `PolicyAgent`
playing its most probable legal action. Loading needs the `train` extra (torch,
sb3-contrib), imported only then.

Beside each model's file lies its card, `<file stem>.json` (`model_card(game, name)`):
how it was trained (the commands, the settings, the CPU-hours, the commit that shipped it)
and how it was measured (win rates with 95% Wilson intervals, each with its command).
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .policy_agent import PolicyAgent, load_model

if TYPE_CHECKING:
    from sb3_contrib import MaskablePPO

WEIGHTS = "weights"  # the folder of this package holding the models
LOADING_NEEDS = ("torch", "sb3_contrib")  # the modules loading a model imports
CARD_SUFFIX = ".json"  # a model's card: its file's stem with this suffix, beside it
# what every card gives (docs/agents.md, "Model cards"), and every row of its evaluation
CARD_FIELDS = (
    "game", "name", "file", "players", "reward", "method", "started_from", "date", "commit",
    "commands", "settings", "cpu_hours", "cpu_hours_note", "evaluation", "docs",
)  # fmt: skip
EVALUATION_FIELDS = (
    "agent", "opponents", "players", "games", "win_rate", "interval", "fair_share", "seed",
    "date", "command",
)  # fmt: skip
MODELS: dict[str, dict[str, str]] = {
    "asara": {
        "ppo_2p": "asara_2p.zip",  # MaskablePPO trained for 2 players
        "ppo_4p": "asara_4p.zip",  # MaskablePPO trained for 4 players
        # self-play from ppo_2p / ppo_4p towards the Gumbel root's improved policy over
        # ppo_2p's / ppo_4p's playouts (docs/training.md)
        "sp_2p": "asara_sp_2p.zip",
        "sp_4p": "asara_sp_4p.zip",
    },
    "basari": {
        "ppo_2p": "basari_2p.zip",  # MaskablePPO trained for 2-player BASARI (docs/agents.md)
        "ppo_3p": "basari_3p.zip",  # MaskablePPO trained for 3-player BASARI
        "ppo_4p": "basari_4p.zip",  # MaskablePPO trained for 4-player BASARI
        # self-play from ppo_2p / ppo_4p towards flat search's improved policy
        # (docs/training.md)
        "sp_2p": "basari_sp_2p.zip",
        "sp_4p": "basari_sp_4p.zip",
    },
}

TRAINED_FOR: dict[str, dict[str, int]] = {  # the player count each model was trained for
    "asara": {"ppo_2p": 2, "ppo_4p": 4, "sp_2p": 2, "sp_4p": 4},
    "basari": {"ppo_2p": 2, "ppo_3p": 3, "ppo_4p": 4, "sp_2p": 2, "sp_4p": 4},
}
# the reward scheme (the env's `reward=`) each model's value head was trained on
TRAINED_ON: dict[str, dict[str, str]] = {
    "asara": dict.fromkeys(("ppo_2p", "ppo_4p", "sp_2p", "sp_4p"), "win"),
    "basari": dict.fromkeys(("ppo_2p", "ppo_3p", "ppo_4p", "sp_2p", "sp_4p"), "rank"),
}
# each game's strongest shipped model for each player count, each set by a measured match
# (docs/performance.md, "The strongest model at every player count"): where a command needs
# "the game's model" (self-play's start and evaluation), this is it
STRONGEST: dict[str, dict[int, str]] = {
    "asara": {2: "sp_2p", 3: "sp_4p", 4: "sp_4p"},
    "basari": {2: "sp_2p", 3: "ppo_3p", 4: "sp_4p"},
}
assert all(
    TRAINED_FOR[game].keys() == TRAINED_ON[game].keys() == MODELS[game].keys() for game in MODELS
)
assert all(set(STRONGEST[game].values()) <= MODELS[game].keys() for game in MODELS)


def trained_players(game: str, name: str) -> int:
    """The player count `game`'s shipped model `name` was trained for (it plays the others
    too, less well); a clear error for an unknown name."""
    shipped = TRAINED_FOR.get(game, {})
    if name not in shipped:
        raise ValueError(f"unknown {game} model {name!r}; shipped models: {sorted(shipped)}")
    return shipped[name]


def weights_dir() -> Path:
    """The folder of the installed shipped models (FileNotFoundError where the package is
    imported from an archive, which has no files to load)."""
    folder = files("agents") / WEIGHTS
    if not isinstance(folder, Path):
        raise FileNotFoundError(
            f"the shipped models are inside an archive ({folder}): "
            "install the package into a folder to load them"
        )
    return folder


def model_path(game: str, name: str) -> Path:
    """The file of `game`'s shipped model `name`; a clear error for an unknown name or a
    missing file."""
    shipped = MODELS.get(game, {})
    if name not in shipped:
        raise ValueError(f"unknown {game} model {name!r}; shipped models: {sorted(shipped)}")
    path = weights_dir() / shipped[name]
    if not path.is_file():
        raise FileNotFoundError(f"model {name!r} should be at {path}, which does not exist")
    return path


def card_path(game: str, name: str) -> Path:
    """The card of `game`'s shipped model `name`: its file's stem with `CARD_SUFFIX`."""
    return model_path(game, name).with_suffix(CARD_SUFFIX)


def model_card(game: str, name: str) -> dict[str, Any]:
    """The card of `game`'s shipped model `name` (how it was trained and measured); a clear
    error for an unknown name, a missing card or one without every field of `CARD_FIELDS`."""
    path = card_path(game, name)
    if not path.is_file():
        raise FileNotFoundError(f"model {name!r} has no card: {path} does not exist")
    card: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    missing = [field for field in CARD_FIELDS if field not in card]
    missing += [
        f"evaluation[{i}].{field}"
        for i, row in enumerate(card.get("evaluation", []))
        for field in EVALUATION_FIELDS
        if field not in row
    ]
    if missing:
        raise ValueError(f"the card {path} lacks {', '.join(missing)}")
    return card


@cache
def _load(path: Path) -> MaskablePPO:
    return load_model(path)


def make_model_agent(game: str, name: str, seed: int | None = None) -> PolicyAgent:
    """`game`'s shipped model `name` as a seeded agent (its most probable legal action);
    `MissingExtraError` naming the extra to install where torch or sb3-contrib is not."""
    from asara_env.common.extras import require

    path = model_path(game, name)
    require(f"the shipped model {name!r}", LOADING_NEEDS)
    agent = PolicyAgent(_load(path), seed)
    agent.name = name
    return agent
