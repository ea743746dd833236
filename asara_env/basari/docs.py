"""Writes BASARI's generated docs: `python -m asara_env.basari.docs [docs_dir]`."""

from __future__ import annotations

import sys
from pathlib import Path

from .actions import layout_markdown


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0] if args else "docs")
    (out / "basari_actions.md").write_text(layout_markdown())
    print(f"wrote {out / 'basari_actions.md'}")


if __name__ == "__main__":
    main()
