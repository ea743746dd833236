"""The terminal widgets every game's terminal front end uses: where the game talks to the
person (`Console`), answers read as numbers, items set in columns."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass
class Console:
    """Where the game talks to the person: `input`/`print` unless a test scripts them."""

    input: Callable[[str], str]
    print: Callable[[str], None]

    def confirm(self, question: str) -> bool:
        return (self.ask(f"{question} [y/N] ") or "").lower() in ("y", "yes")

    def ask(self, prompt: str) -> str | None:
        """The stripped answer, or None at the end of the input (Ctrl-D)."""
        try:
            return self.input(prompt).strip()
        except EOFError:
            self.print("")
            return None


def columns(items: Sequence[str], width: int, indent: str = "  ") -> list[str]:
    """The items left-aligned in as many equal columns as fit in `width`."""
    cell = max(map(len, items)) + 3
    per_line = max(1, (width - len(indent)) // cell)
    rows = [items[i : i + per_line] for i in range(0, len(items), per_line)]
    return [indent + "".join(item.ljust(cell) for item in row).rstrip() for row in rows]


def as_number(answer: str) -> int | None:
    try:
        return int(answer)
    except ValueError:
        return None
