"""asara_env/common/files.py: files written whole or not at all, with the permissions
`open()` gives (0666 less the umask for a new file, an existing file's own when replaced)."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from asara_env.common.files import atomic_open, atomic_write_bytes, atomic_write_text

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX permission bits")


@pytest.fixture
def umask() -> Iterator[None]:
    """The process's umask restored after the test (each test sets its own)."""
    before = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(before)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("mask", [0o022, 0o002, 0o077])
@pytest.mark.parametrize("write", [atomic_write_text, atomic_write_bytes])
def test_a_new_file_gets_0666_less_the_umask(tmp_path, umask, mask, write):
    os.umask(mask)
    path = tmp_path / "new.txt"
    write(path, "data" if write is atomic_write_text else b"data")
    assert mode(path) == 0o666 & ~mask
    assert path.read_bytes() == b"data"


def test_a_replaced_file_keeps_its_permissions(tmp_path, umask):
    path = tmp_path / "kept.csv"
    path.write_text("old")
    path.chmod(0o640)
    with atomic_open(path, "w") as f:
        f.write("new")
    assert path.read_text() == "new" and mode(path) == 0o640


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, umask):
    path = tmp_path / "old.txt"
    path.write_text("old")
    with pytest.raises(RuntimeError), atomic_open(path, "w") as f:
        f.write("half")
        raise RuntimeError("interrupted")
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["old.txt"]
