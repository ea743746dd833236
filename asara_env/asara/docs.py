"""Regenerate the generated documentation: `python -m asara_env.asara.docs`."""

from pathlib import Path

from asara_env.asara.actions import layout_markdown
from asara_env.asara.core.observation import observation_markdown
from asara_env.asara.reference.schema import json_schema_text, state_markdown

DOCS = Path(__file__).resolve().parents[2] / "docs"


def main() -> None:
    (DOCS / "actions.md").write_text(layout_markdown())
    print(f"wrote {DOCS / 'actions.md'}")
    (DOCS / "observation.md").write_text(observation_markdown())
    print(f"wrote {DOCS / 'observation.md'}")
    (DOCS / "state.md").write_text(state_markdown())
    print(f"wrote {DOCS / 'state.md'}")
    (DOCS / "state.schema.json").write_text(json_schema_text())
    print(f"wrote {DOCS / 'state.schema.json'}")


if __name__ == "__main__":
    main()
