"""Outputs that are never lost: every command's files written atomically, and an output
folder that holds another run refused unless the user says what to do with it.

- `atomic_write_text`, `atomic_write_bytes`, `atomic_open` and `atomic_save` (a model)
  write a temporary file beside the target and rename it over the target (`os.replace`):
  an interrupted command leaves the old file or the new one, never half of one (the first
  three are asara_env/common/files.py's, shared with the server).
  `append_line` adds one line to a JSON-lines log and flushes it to disk.
- `out_problem` is what the parsers ask before any work: a folder that exists and is not
  empty holds a started or finished run, and is refused (one line naming it and the ways
  on: `--resume`, `--force`, a new `--out`) unless the command continues it.
- `prepare_out_dir(out, force)` makes the folder; with `--force` an existing one is first
  moved aside to `<out>.old-<n>` (the smallest free n), never deleted.
- `fresh_dir(stem)`: a default output folder new for every run, `<stem>-<YYYYmmdd-HHMMSS>`
  (`-2`, `-3`, ... when two runs start in the same second).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from asara_env.common.files import atomic_open as atomic_open
from asara_env.common.files import atomic_write_bytes as atomic_write_bytes
from asara_env.common.files import atomic_write_text as atomic_write_text
from asara_env.common.files import replacing


def atomic_save(model: Any, path: Path) -> None:
    """`model.save(path)` (a stable-baselines3 model, `path` ending .zip), atomically."""
    path = Path(path)
    tmp = path.with_name(f".{path.stem}.tmp-{os.getpid()}.zip")
    with replacing(path, tmp):
        model.save(tmp)


def append_line(path: Path, line: str) -> None:
    """One line appended to a log and flushed to disk (a crash loses at most this line,
    which readers of the log skip when it is incomplete)."""
    with open(path, "a") as f:
        f.write(line.rstrip("\n") + "\n")
        f.flush()
        os.fsync(f.fileno())


def holds_run(out: Path) -> bool:
    """Whether `out` is a folder with something in it (a started or finished run)."""
    return out.is_dir() and any(out.iterdir())


def aside_path(out: Path) -> Path:
    """`<out>.old-<n>`, the smallest n not taken."""
    n = 1
    while out.with_name(f"{out.name}.old-{n}").exists():
        n += 1
    return out.with_name(f"{out.name}.old-{n}")


def out_problem(out: Path, what: str, resume: str | None = None, flag: str = "--out") -> str:
    """'' if a new run may write into `out`; else one line naming it and the ways on
    (`resume`: how to continue it, if the command can)."""
    if out.exists() and not out.is_dir():
        return f"argument {flag}: {out} is a file, not a folder"
    if not holds_run(out):
        return ""
    ways = [f"continue it with {resume}"] if resume else []
    ways += [f"replace it with --force (the old one is moved to {aside_path(out)})"]
    ways += [f"or name a new {flag}"]
    return f"argument {flag}: {out} already holds {what}; " + ", ".join(ways)


def prepare_out_dir(out: Path, force: bool = False) -> Path | None:
    """Make `out`; with `force` a non-empty `out` is first moved aside. Returns where the
    old one went (None if nothing was moved)."""
    moved = None
    if force and (holds_run(out) or (out.exists() and not out.is_dir())):
        moved = aside_path(out)
        out.rename(moved)
    out.mkdir(parents=True, exist_ok=True)
    return moved


def fresh_dir(stem: str) -> Path:
    """`<stem>-<YYYYmmdd-HHMMSS>`, with `-2`, `-3`, ... if that already exists."""
    base = Path(f"{stem}-{time.strftime('%Y%m%d-%H%M%S')}")
    path, n = base, 1
    while path.exists():
        n += 1
        path = base.with_name(f"{base.name}-{n}")
    return path
