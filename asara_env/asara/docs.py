"""ASARA's generated docs: `write_docs(out_dir)` writes actions.md, observation.md, state.md
and state.schema.json (run every game's with `python -m asara_env.docs`)."""

from __future__ import annotations

from pathlib import Path

from asara_env.asara.actions import layout_markdown
from asara_env.asara.core.observation import observation_markdown
from asara_env.common.markdown import write_pages


def pages() -> dict[str, str]:
    """file name -> text of every generated page."""
    from asara_env.asara.reference.schema import json_schema_text, state_markdown  # pydantic

    return {
        "actions.md": layout_markdown(),
        "observation.md": observation_markdown(),
        "state.md": state_markdown(),
        "state.schema.json": json_schema_text(),
    }


def write_docs(out_dir: Path) -> list[Path]:
    """Write the pages into `out_dir` (created if missing); the paths written."""
    return write_pages(out_dir, pages())
