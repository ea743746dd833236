"""Writes BASARI's generated docs: `python -m asara_env.basari.docs [docs_dir]`."""

from __future__ import annotations

import sys
from pathlib import Path

from asara_env.basari.actions import layout_markdown
from asara_env.basari.core.observation import observation_markdown
from asara_env.basari.reference.serialize import schema_markdown


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0] if args else "docs")
    for name, text in (
        ("basari_actions.md", layout_markdown()),
        ("basari_state.md", schema_markdown()),
        ("basari_observation.md", observation_markdown()),
    ):
        (out / name).write_text(text)
        print(f"wrote {out / name}")


if __name__ == "__main__":
    main()
