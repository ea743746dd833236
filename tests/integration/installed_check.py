"""What the wheel test runs with an installed package's own Python, outside the repository
(`python -I installed_check.py [--train]`): the four packages come from the venv with
their `py.typed`, both games play to the end on random legal moves, and every shipped model
is an installed file. Without `--train` loading a model must say which extra to install;
with it, ASARA's 2-player model plays a whole game of legal moves. Prints one line per
check; an AssertionError (exit status 1) names what failed."""

from __future__ import annotations

import argparse
import sys
import zipfile
from importlib import import_module
from pathlib import Path
from typing import Any

import numpy as np

PACKAGES = ("asara_env", "agents", "commandline", "apps", "training")
GAMES = {"asara": 2, "basari": 4}  # a game -> the players of its check game
SEED = 3


def check_imported_from_venv() -> None:
    """Each package is imported from this venv and marks itself typed (PEP 561)."""
    prefix = Path(sys.prefix).resolve()
    for name in PACKAGES:
        folder = Path(import_module(name).__file__ or "").resolve().parent
        assert folder.is_relative_to(prefix), f"{name} imported from {folder}, not {prefix}"
        assert (folder / "py.typed").is_file(), f"{name} has no py.typed"
    print(f"imported {', '.join(PACKAGES)} from {prefix}")


def play(game: str, players: int, seats: dict[int, Any]) -> int:
    """Decisions of one `game` to its end: `seats[i]` (an agent) moves for seat i, random
    legal moves for the others; every move is checked legal first."""
    from asara_env.games import make

    env = make(game, num_players=players)
    env.reset(seed=SEED)
    rng, decisions = np.random.default_rng(SEED), 0
    for name in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        action = None
        if not (termination or truncation):
            mask = np.asarray(obs["action_mask"])
            agent = seats.get(env.possible_agents.index(name))
            if agent is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action = int(agent.act(obs["observation"], mask))
            assert mask[action], f"{game}: seat {name} chose illegal action {action}"
            decisions += 1
        env.step(action)
    assert all(env.terminations.values()) or not env.agents, f"{game} did not end"
    return decisions


def check_models_installed() -> None:
    """Every shipped model is a zip archive inside the installed `agents` package."""
    import agents
    from agents.models import MODELS, model_path

    package = Path(agents.__file__ or "").resolve().parent
    for game, models in MODELS.items():
        for name in models:
            path = model_path(game, name)
            assert path.resolve().is_relative_to(package), f"{game} {name} at {path}"
            assert zipfile.is_zipfile(path), f"{path} is not a saved model"
            print(f"{game} model {name}: {path.name}, {path.stat().st_size} bytes")


def check_model_needs_train() -> None:
    """Without the `train` extra, a shipped model names the extra to install."""
    from agents.registry import make_agent
    from asara_env.common.extras import MissingExtraError

    try:
        make_agent("asara", "ppo_2p", 0)
    except MissingExtraError as e:
        assert e.extra == "train" and "asara-env[train]" in str(e), str(e)
        print(f"without train: {e}")
    else:
        raise AssertionError("the shipped model loaded without the train extra")


def check_model_plays() -> None:
    """With the `train` extra, ASARA's 2-player model plays a game of legal moves."""
    from agents.registry import make_agent

    decisions = play("asara", 2, {0: make_agent("asara", "ppo_2p", SEED)})
    print(f"asara: ppo_2p played a 2-player game, {decisions} decisions")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--train", action="store_true", help="the train extra is installed")
    train = parser.parse_args().train
    check_imported_from_venv()
    for game, players in GAMES.items():
        print(f"{game}: a {players}-player game, {play(game, players, {})} decisions")
    check_models_installed()
    if train:
        check_model_plays()
    else:
        check_model_needs_train()


if __name__ == "__main__":
    main()
