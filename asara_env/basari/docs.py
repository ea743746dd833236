"""BASARI's generated docs: `write_docs(out_dir)` writes actions.md, observation.md and
state.md (run every game's with `python -m asara_env.docs`)."""

from __future__ import annotations

from pathlib import Path

from asara_env.basari.actions import layout_markdown
from asara_env.basari.core.observation import observation_markdown
from asara_env.common.markdown import write_pages


def pages() -> dict[str, str]:
    """file name -> text of every generated page."""
    from asara_env.basari.reference.serialize import schema_markdown  # pydantic

    return {
        "actions.md": layout_markdown(),
        "observation.md": observation_markdown(),
        "state.md": schema_markdown(),
    }


def write_docs(out_dir: Path) -> list[Path]:
    """Write the pages into `out_dir` (created if missing); the paths written."""
    return write_pages(out_dir, pages())
