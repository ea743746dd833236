"""What a slow step is doing, said on a terminal while it runs (stdlib only).

`with status("loading the model asara_2p.zip"):` writes the text, followed by "...", on
stderr when stderr is a terminal, and erases the line when the block ends, however it
ends: a start that takes seconds (importing PyTorch, loading a model) never looks hung,
and what the command prints afterwards (its output, its one-line errors) is unchanged.
Where stderr is not a terminal (a pipe, a CI log, a test's capture) nothing is written.

`with slow_status("asara: loading the numba kernels from numba's cache"):` does the same
for a step of a start that is usually quick: its text shows once the process has run
`SLOW_SECONDS` (a second), so a start that is fast prints nothing, and one that takes
longer (a loaded machine, a cold disk) says what it is waiting for from then on, each step
in turn: a command's imports, then the kernels. Only the main thread's steps are shown (a
server's requests, running beside its log, say nothing).
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import TextIO

ERASE_LINE = "\r\x1b[K"  # back to the line's start, then clear it (ANSI)
SLOW_SECONDS = 1.0  # a start running longer than this says what it is doing (`slow_status`)
STARTED = time.monotonic()  # when this module loaded: a console script's first import


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


def start_seconds() -> float:
    """Seconds since the process started (since this module loaded)."""
    return time.monotonic() - STARTED


@contextlib.contextmanager
def slow_status(
    what: str,
    stream: TextIO | None = None,
    unless: Callable[[], bool] = lambda: False,
) -> Iterator[None]:
    """`status(what)` on `stream` (stderr), shown once the process has run `SLOW_SECONDS`
    (at once if it already has) and only if `unless()` is then false (something else has
    said what is happening); erased when the block ends. Nothing at all where `stream` is
    not a terminal or off the main thread."""
    out = sys.stderr if stream is None else stream
    if not on_terminal(out) or threading.current_thread() is not threading.main_thread():
        yield
        return
    lock = threading.Lock()
    state = {"done": False, "shown": False}

    def show() -> None:
        with lock:
            if not state["done"] and not unless():
                out.write(f"{what}...")
                out.flush()
                state["shown"] = True

    timer = threading.Timer(max(0.0, SLOW_SECONDS - start_seconds()), show)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        with lock:
            state["done"] = True
            if state["shown"]:
                out.write(ERASE_LINE)
                out.flush()
