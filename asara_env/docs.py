"""Every game's generated docs, written by one command: `python -m asara_env.docs [DIR]`
(`make docs`) writes each game's pages into DIR/<game>/ (default: the repository's docs/):
actions.md, observation.md, state.md, and state.schema.json where the game has one. Each
game's `asara_env/<game>/docs.py` provides `write_docs(out_dir) -> list[Path]`; a game's
modules are imported only when its pages are written.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterable
from pathlib import Path

GAMES: Iterable[str] = ("asara", "basari")  # the game registry (its names) can take its place
DOCS = Path(__file__).resolve().parents[1] / "docs"


def write_docs(docs_dir: Path = DOCS, games: Iterable[str] = GAMES) -> list[Path]:
    """Write every game's pages into docs_dir/<game>/; the paths written."""
    written: list[Path] = []
    for name in games:
        game_docs = importlib.import_module(f"asara_env.{name}.docs")
        written += game_docs.write_docs(docs_dir / name)
    return written


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    for path in write_docs(Path(args[0]) if args else DOCS):
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
