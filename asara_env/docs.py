"""Every game's generated docs, written by one command: `python -m asara_env.docs [DIR]`
(`make docs`) writes each game's pages into DIR/<game>/ (default: the repository's docs/):
actions.md, observation.md, state.md, and state.schema.json where the game has one. Each
game's card names its writer (`asara_env/<game>/docs.py: write_docs(out_dir) -> list[Path]`);
a game's modules are imported only when its pages are written.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

from asara_env.games import available_games, game_card, resolve

DOCS = Path(__file__).resolve().parents[1] / "docs"


def write_docs(docs_dir: Path = DOCS, games: Iterable[str] | None = None) -> list[Path]:
    """Write the pages of `games` (default: every registered game with docs) into
    docs_dir/<game>/; the paths written."""
    written: list[Path] = []
    for name in available_games() if games is None else games:
        card = game_card(name)
        if card.docs is not None:
            written += resolve(card.docs)(docs_dir / name)
    return written


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    for path in write_docs(Path(args[0]) if args else DOCS):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
