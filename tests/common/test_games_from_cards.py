"""The list of games and their player counts come from the game cards alone
(`asara_env.games`): every layer above the games asks the registry which games there are
(and a folder of its own only whether a registered game has its part there), and no
module outside a game's folder writes the games or their player counts out by hand."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from agents import registry as agents_registry
from asara_env import games
from commandline.command import player_counts
from training.games import training_games

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("asara_env", "agents", "commandline", "training", "apps")
# data keyed by game, each entry about one game's own files: not a list of the games
KEYED_BY_GAME = {"agents/models.py"}  # the shipped model files of each game


def shared_modules() -> list[Path]:
    """The modules of the library outside the game folders (`asara_env/<game>/`,
    `agents/<game>/`, `training/<game>/`, `apps/<game>/`, `commandline/<game>/`)."""
    names = set(games.available_games())
    return [
        path
        for layer in LAYERS
        for path in sorted((ROOT / layer).rglob("*.py"))
        if not names & set(path.relative_to(ROOT).parts[1:-1])
    ]


def by_hand(path: Path) -> list[str]:
    """Where `path` writes two or more games' names, or a card's player counts, out as a
    literal (tuple, list, set, dict keys)."""
    names = set(games.available_games())
    counts = {games.game_card(name).player_counts for name in names}
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            items = node.elts
        elif isinstance(node, ast.Dict) and path.relative_to(ROOT).as_posix() not in KEYED_BY_GAME:
            items = [k for k in node.keys if k is not None]
        else:
            continue
        values = [e.value for e in items if isinstance(e, ast.Constant)]
        if len(values) != len(items) or len(values) < 2:
            continue
        if len(names & {v for v in values if isinstance(v, str)}) >= 2:
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} games {values}")
        if tuple(values) in counts and not isinstance(node, ast.Dict):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} player counts {values}")
    return found


def test_no_shared_module_lists_the_games_or_their_player_counts_by_hand():
    modules = shared_modules()
    assert (
        ROOT / "apps" / "webgame.py" in modules and ROOT / "training" / "ppo" / "run.py" in modules
    )
    assert not [place for path in modules for place in by_hand(path)]


def test_the_check_finds_a_list_written_by_hand(tmp_path, monkeypatch):
    written = tmp_path / "listed.py"
    written.write_text('GAMES = ("asara", "basari")\nCOUNTS = [2, 3, 4]\nAXES = (2, 3)\n')
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    assert by_hand(written) == [
        "listed.py:1 games ['asara', 'basari']",
        "listed.py:2 player counts [2, 3, 4]",
    ]


def test_a_game_without_a_card_is_offered_nowhere(monkeypatch):
    """BASARI's folders stay where they are; without its card no layer offers it."""
    from apps.webgame import web_games

    assert "basari" in training_games() and "basari" in web_games()
    assert "basari" in agents_registry.games()
    without = {name: card for name, card in games.GAMES.items() if name != "basari"}
    monkeypatch.setattr(games, "_CARDS", without)
    assert training_games() == agents_registry.games() == ["asara"]
    assert web_games() == ("asara",)


def test_the_player_counts_of_every_command_are_the_cards(monkeypatch):
    """A card with other player counts changes the scripts' choices, with no other edit."""
    from training.evaluation.asara.tournament import COMMAND

    assert COMMAND.player_counts == player_counts("asara") == (2, 3, 4)
    card = games.game_card("asara")
    fewer = {**games.GAMES, "asara": games.GameCard(**{**card.__dict__, "player_counts": (2, 4)})}
    monkeypatch.setattr(games, "_CARDS", fewer)
    assert COMMAND.player_counts == player_counts("asara") == (2, 4)
    from training.asara.train import SPEC
    from training.ppo.run_args import parse_args

    with pytest.raises(SystemExit) as refused:
        parse_args(SPEC, ["--players", "3"])
    assert refused.value.code == 2
