"""Files written whole or not at all (stdlib only).

- `replacing(path, temporary)`: a block that writes `temporary`; when it ends without an
  exception `temporary` is renamed over `path` (`os.replace`), otherwise it is removed.
- `atomic_open(path, mode)`: a file opened for writing in a temporary file beside `path`
  (flushed and synced to disk), renamed over `path` when the block ends cleanly. The file
  gets the permissions `open(path, "w")` would give it: an existing file's own, or a new
  file's 0666 less the process's umask.
- `atomic_write_text` and `atomic_write_bytes`: `path.write_text` / `path.write_bytes`,
  atomically.

An interrupted write leaves the old file or the new one, never half of one.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
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


NEW_FILE_MODE = 0o666  # what open() asks for; the kernel takes the umask off it
TEMPORARY_NAME_TRIES = 100  # names drawn before giving up (each is 64 random bits)


def _create_temporary(path: Path) -> tuple[int, Path]:
    """A new, empty file beside `path` opened for writing: its descriptor and its path,
    created with `NEW_FILE_MODE` less the umask, as `open` creates files (where
    `tempfile.mkstemp` gives 0600)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for _ in range(TEMPORARY_NAME_TRIES):
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")
        with contextlib.suppress(FileExistsError):
            return os.open(tmp, flags, NEW_FILE_MODE), tmp
    raise FileExistsError(f"no free temporary name beside {path}")


def _permissions(path: Path) -> int | None:
    """`path`'s permission bits, or None where there is no such file."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        return None


@contextlib.contextmanager
def atomic_open(path: Path, mode: str = "w", **kw: Any) -> Iterator[IO[Any]]:
    """A file opened for writing that replaces `path` only when the block ends without an
    exception (a temporary file in the same folder, flushed and synced, then `os.replace`).
    The file gets an existing `path`'s permissions, or 0666 less the umask."""
    path = Path(path)
    fd, tmp = _create_temporary(path)
    with replacing(path, tmp), os.fdopen(fd, mode, **kw) as f:
        kept = _permissions(path)
        if kept is not None:  # as rewriting the file in place would keep them
            os.chmod(tmp, kept)
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
