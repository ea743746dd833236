"""Every Python example in the README and the documentation pages runs as written. The
blocks of one page run in order in one namespace, so a page can build on its earlier
blocks, as a reader would type them."""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
EMPTY = ("{}", "[]", "()", "set()")  # what a print of a result never should be


def examples(page: Path) -> list[str]:
    return BLOCK.findall(page.read_text())


WITH_EXAMPLES = [p for p in PAGES if examples(p)]


def test_the_readme_has_examples():
    assert len(examples(ROOT / "README.md")) >= 3


@pytest.mark.parametrize(
    "page", WITH_EXAMPLES, ids=[str(p.relative_to(ROOT)) for p in WITH_EXAMPLES]
)
def test_every_example_of_the_page_runs(page: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)  # examples that write files write them here
    monkeypatch.syspath_prepend(str(ROOT))
    namespace: dict[str, object] = {"__name__": "example"}
    for i, code in enumerate(examples(page)):
        with contextlib.redirect_stdout(io.StringIO()) as out:
            exec(compile(code, f"{page.name} example {i}", "exec"), namespace)
        assert "print(" not in code or out.getvalue(), f"example {i} printed nothing"
        empty = [line for line in out.getvalue().splitlines() if line.strip() in EMPTY]
        assert not empty, f"example {i} printed an empty container: {empty}"
    assert os.getcwd() == str(tmp_path)


SHELL_BLOCK = re.compile(r"^```(?:sh|bash|shell|console)?\n(.*?)^```", re.S | re.M)
UNQUOTED_EXTRA = re.compile(r"pip install[^\n#]*\s[^\s'\"]*\[[\w,]+\]")  # zsh globs [..]


def test_every_pip_install_of_an_extra_is_quoted() -> None:
    """`pip install -e .[web]` fails in zsh ("no matches found"): the docs quote it."""
    unquoted = [
        f"{page.relative_to(ROOT)}: {match.group(0)}"
        for page in PAGES
        for block in SHELL_BLOCK.findall(page.read_text())
        for match in UNQUOTED_EXTRA.finditer(block)
    ]
    assert not unquoted, unquoted
