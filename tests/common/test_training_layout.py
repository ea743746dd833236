"""training/ as games-as-peers: the shared modules import no game (by their import
statements, and by what importing them loads), each game's folder touches only its own
game, and every game has the same module names in its two folders (training/<game>/ and its
measuring, training/evaluation/<game>/)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from training.games import game_module, training_games

ROOT = Path(__file__).resolve().parents[2]
TRAINING = ROOT / "training"
EVALUATION = TRAINING / "evaluation"
SHARED = sorted(
    p
    for folder in ("", "selfplay/", "ppo/", "evaluation/")
    for p in TRAINING.glob(f"{folder}*.py")
    if p.name != "__init__.py"
)
# a game's trainers (training/<g>/) and its measuring (training/evaluation/<g>/)
GAME_FILES = {"__init__.py", "train.py", "vec_env.py", "imitation.py", "selfplay.py"}
MEASURING_FILES = {"__init__.py", "tournament.py", "evaluate.py"}
# what belongs to one game: its library package, its agents, its apps and its training
# folder; ASARA's agents are the modules of `agents/` besides the shared base, policy
# agent and models, the search of every game (`agents/search/`), and the package face
# `agents` (ASARA's registry)
GAME_PREFIXES = {
    "asara": (
        "asara_env.asara", "apps.asara", "training.asara", "training.evaluation.asara",
        "agents.asara", "agents.arena",
        "agents.heuristic", "agents.features", "agents.random_agent",
        "agents.ismcts",
    ),
    "basari": ("asara_env.basari", "agents.basari", "apps.basari", "training.basari",
               "training.evaluation.basari"),
}  # fmt: skip
GAME_FACES = {"asara": {"agents", "asara_env.asara"}, "basari": {"asara_env.basari"}}


def imports(path: Path) -> set[str]:
    """Every module `path` imports, at any depth, relative imports made absolute."""
    package = ".".join(path.relative_to(ROOT).parent.parts)
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(p for p in (base, node.module or "") if p)
            found.add(module)
            found |= {f"{module}.{alias.name}" for alias in node.names}
    return found


def of_game(module: str, game: str) -> bool:
    prefixes = GAME_PREFIXES[game]
    return module in GAME_FACES[game] or any(module.startswith(p + ".") for p in prefixes)


def test_the_games_are_found_by_their_folders():
    assert training_games() == ["asara", "basari"]
    assert game_module("basari", "tournament").COMMAND.game == "basari"
    assert game_module("basari", "tournament").__name__ == "training.evaluation.basari.tournament"
    assert game_module("basari", "train").__name__ == "training.basari.train"
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        game_module("chess", "tournament")


@pytest.mark.parametrize("path", SHARED, ids=lambda p: p.name)
def test_a_shared_module_imports_no_game(path: Path):
    found = sorted(m for m in imports(path) for g in GAME_PREFIXES if of_game(m, g))
    assert not found, f"{path.name} imports {found}"


@pytest.mark.parametrize("game", sorted(GAME_PREFIXES))
def test_a_game_folder_has_the_shared_names_and_imports_no_other_game(game: str):
    folder, measuring = TRAINING / game, EVALUATION / game
    assert {p.name for p in folder.glob("*.py")} == GAME_FILES
    assert {p.name for p in measuring.glob("*.py")} == MEASURING_FILES
    others = [g for g in GAME_PREFIXES if g != game]
    for path in [*folder.glob("*.py"), *measuring.glob("*.py")]:
        found = sorted(m for m in imports(path) for g in others if of_game(m, g))
        assert not found, f"{path.relative_to(ROOT)} imports {found}"


def test_importing_the_shared_modules_loads_no_game():
    """In a fresh interpreter: what the shared modules load beyond the package face
    `asara_env` (still ASARA's definition until the face is lazy) holds no game module."""
    names = [".".join(p.relative_to(ROOT).with_suffix("").parts) for p in SHARED]
    code = (
        "import importlib, json, sys; import asara_env; before = set(sys.modules); "
        f"[importlib.import_module(m) for m in {names!r}]; "
        "print(json.dumps(sorted(set(sys.modules) - before)))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    assert set(names) <= set(loaded)
    # a game's card and its package (which imports nothing) are names only: importing
    # gymnasium registers every card's gym id (asara_env.gym_ids), which reads the cards
    cards = {f"asara_env.{g}" for g in GAME_PREFIXES} | {
        f"asara_env.{g}.card" for g in GAME_PREFIXES
    }
    assert not [m for m in loaded for g in GAME_PREFIXES if of_game(m, g) and m not in cards]


@pytest.mark.parametrize(
    "module",
    ["evaluation.tournament_cli", "evaluation.ladder", "evaluation.heads_up", "evaluation.evaluate",
     "ppo.run"],
)  # fmt: skip
@pytest.mark.parametrize(
    "argv, message",
    [([], "the following arguments are required: game"), (["chess"], "invalid choice: 'chess'")],
)
def test_a_shared_command_names_its_game_first(module, argv, message):
    cmd = [sys.executable, "-m", f"training.{module}", *argv]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and message in done.stderr.strip().splitlines()[-1]
    assert "Traceback" not in done.stderr
