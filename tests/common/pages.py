"""Reading the documentation's pages in tests: the performance page, a table after a
heading, and the anchor MkDocs gives a heading."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "performance.md"


def table_after(text: str, heading: str) -> list[list[str]]:
    """The cells of the first table after `heading` (its header and rule left out)."""
    lines = text[text.index(heading) :].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split(" | ")])
    return rows


def slug(heading: str) -> str:
    """The anchor MkDocs gives a heading (Python-Markdown's toc slugify)."""
    return re.sub(r"[-\s]+", "-", re.sub(r"[^\w\s-]", "", heading).strip().lower())


def headings(page: Path) -> set[str]:
    """The anchors of every heading of `page`."""
    return {slug(line.lstrip("#")) for line in page.read_text().splitlines() if line[:1] == "#"}
