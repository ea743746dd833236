"""Files written whole or not at all (stdlib only).

- `replacing(path, temporary)`: a block that writes `temporary`; when it ends without an
  exception `temporary` is renamed over `path` (`os.replace`), otherwise it is removed.
- `atomic_open(path, mode)`: a file opened for writing in a temporary file beside `path`
  (flushed and synced to disk), renamed over `path` when the block ends cleanly.
- `atomic_write_text` and `atomic_write_bytes`: `path.write_text` / `path.write_bytes`,
  atomically.

An interrupted write leaves the old file or the new one, never half of one.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any


@contextlib.contextmanager
def replacing(path: Path, temporary: Path | str) -> Iterator[None]:
    """`temporary` renamed over `path` when the block ends without an exception, removed
    (if it exists) when it raises."""
    try:
        yield
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


@contextlib.contextmanager
def atomic_open(path: Path, mode: str = "w", **kw: Any) -> Iterator[IO[Any]]:
    """A file opened for writing that replaces `path` only when the block ends without an
    exception (a temporary file in the same folder, flushed and synced, then `os.replace`)."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    with replacing(path, tmp), os.fdopen(fd, mode, **kw) as f:
        yield f
        f.flush()
        os.fsync(f.fileno())


def atomic_write_text(path: Path, text: str, encoding: str | None = None) -> None:
    """`path.write_text(text, encoding)`, atomically."""
    with atomic_open(path, "w", encoding=encoding) as f:
        f.write(text)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """`path.write_bytes(data)`, atomically."""
    with atomic_open(path, "wb") as f:
        f.write(data)
