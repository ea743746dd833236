"""Regenerate the generated documentation: `python -m asara_env.docs`."""

from pathlib import Path

from .actions import layout_markdown
from .core.observation import observation_markdown

DOCS = Path(__file__).resolve().parents[1] / "docs"


def main() -> None:
    (DOCS / "actions.md").write_text(layout_markdown())
    print(f"wrote {DOCS / 'actions.md'}")
    (DOCS / "observation.md").write_text(observation_markdown())
    print(f"wrote {DOCS / 'observation.md'}")


if __name__ == "__main__":
    main()
