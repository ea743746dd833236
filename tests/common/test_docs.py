"""The generated docs: `python -m asara_env.docs` writes every game's pages into
docs/<game>/, and the committed pages are what the code generates."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from asara_env.docs import DOCS, write_docs
from asara_env.games import available_games

ROOT = Path(__file__).resolve().parents[2]
GAMES = available_games()
PAGES = {"asara": 4, "basari": 3}  # state.schema.json: ASARA's only


def test_every_game_has_its_pages() -> None:
    assert set(GAMES) == set(PAGES) and DOCS == ROOT / "docs"


@pytest.mark.parametrize("game", GAMES)
def test_the_committed_pages_are_the_generated_ones(game: str, tmp_path: Path) -> None:
    written = write_docs(tmp_path, (game,))
    assert len(written) == PAGES[game]
    for path in written:
        assert path.parent == tmp_path / game
        committed = DOCS / game / path.name
        assert committed.read_text() == path.read_text(), f"run `make docs` ({committed})"


def test_the_command_writes_every_game_into_its_folder(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "asara_env.docs", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    names = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()}
    assert names == {
        "asara/actions.md",
        "asara/observation.md",
        "asara/state.md",
        "asara/state.schema.json",
        "basari/actions.md",
        "basari/observation.md",
        "basari/state.md",
    }
    assert out.stdout.count("wrote ") == len(names)
