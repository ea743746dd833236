"""What a slow step is doing, said on a terminal while it runs (stdlib only).

`with status("loading the model asara_2p.zip"):` writes the text, followed by "...", on
stderr when stderr is a terminal, and erases the line when the block ends, however it
ends: a start that takes seconds (importing PyTorch, loading a model) never looks hung,
and what the command prints afterwards (its output, its one-line errors) is unchanged.
Where stderr is not a terminal (a pipe, a CI log, a test's capture) nothing is written.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import TextIO

ERASE_LINE = "\r\x1b[K"  # back to the line's start, then clear it (ANSI)


def on_terminal(stream: TextIO) -> bool:
    """Whether `stream` is an interactive terminal (False for a closed or odd stream)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


@contextlib.contextmanager
def status(what: str, stream: TextIO | None = None) -> Iterator[None]:
    """`what` shown on `stream` (stderr) while the block runs, where it is a terminal."""
    out = sys.stderr if stream is None else stream
    shown = on_terminal(out)
    if shown:
        out.write(f"{what}...")
        out.flush()
    try:
        yield
    finally:
        if shown:
            out.write(ERASE_LINE)
            out.flush()
