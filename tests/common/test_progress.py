"""The suite's reporting (tests/progress.py, wired in tests/conftest.py), run on a small
suite of its own in a fresh pytest: one line per file in place of dots, and a closing
section naming a missing Chromium with the command that installs it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.progress import CHROMIUM, elapsed

ROOT = Path(__file__).resolve().parents[2]
SUITE = {
    "conftest.py": "from tests.conftest import pytest_configure, pytest_terminal_summary\n",
    "pytest.ini": "[pytest]\nmarkers =\n    browser: needs Chromium\n",
    "test_a.py": """
import pytest

@pytest.mark.parametrize("n", [1, 2, 3])
def test_passes(n):
    assert n

def test_skips():
    pytest.skip("not here")

def test_fails():
    assert False
""",
    "test_b.py": """
import pytest
from tests.progress import CHROMIUM, needs

pytestmark = [pytest.mark.browser, needs(CHROMIUM)]

def test_clicks():
    pass

def test_uploads():
    pass
""",
}


UNUSED_PLUGINS = ("cacheprovider", "randomly", "hypothesispytest", "nbmake", "anyio")  # speed


def run_suite(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The small suite run by pytest with `args`, where no Chromium is on PATH."""
    for name, text in SUITE.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "bin").mkdir(exist_ok=True)  # an empty PATH: no chromium to be found
    env = {**os.environ, "PATH": str(tmp_path / "bin"), "PYTHONPATH": str(ROOT)}
    env.pop("ASARA_REQUIRE_BROWSER", None)
    unused = [arg for name in UNUSED_PLUGINS for arg in ("-p", f"no:{name}")]
    return subprocess.run(
        [sys.executable, "-m", "pytest", *unused, *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.fixture(scope="module")
def quiet(tmp_path_factory: pytest.TempPathFactory) -> subprocess.CompletedProcess[str]:
    """The suite run as `make test` runs it, in one process: `pytest -q`."""
    return run_suite(tmp_path_factory.mktemp("quiet"), "-q", "-p", "no:xdist")


@pytest.mark.parametrize("how", ["quiet", "xdist"])
def test_one_line_per_file_in_place_of_dots(tmp_path, quiet, how):
    done = quiet if how == "quiet" else run_suite(tmp_path, "-n", "2")
    assert done.returncode == 1, done.stdout + done.stderr  # test_fails
    lines = done.stdout.splitlines()
    a = [line for line in lines if "test_a.py  " in line]
    b = [line for line in lines if "test_b.py  " in line]
    assert len(a) == 1 and re.fullmatch(
        r"\[\d/7\] +\d+s  test_a\.py  1 failed, 3 passed, 1 skipped", a[0]
    )
    assert len(b) == 1 and re.fullmatch(r"\[\d/7\] +\d+s  test_b\.py  2 skipped", b[0])
    assert any(line.startswith("[7/7]") for line in a + b)
    assert not any(re.fullmatch(r"[.sF]+( +\[.*\])?", line) for line in lines)  # no dots
    assert "FAILED test_a.py::test_fails" in done.stdout  # the closing summary keeps its words
    assert "2 tests need Chromium and did not run (test_b.py)" in done.stdout
    assert not any(line.strip().startswith("[100%]") for line in lines)


def test_the_default_output_of_a_single_process_is_left_alone(tmp_path):
    done = run_suite(tmp_path, "-p", "no:xdist")
    assert re.search(r"^test_a\.py \.\.\.sF", done.stdout, re.MULTILINE), done.stdout
    assert not re.search(r"^\[\d/7\]", done.stdout, re.MULTILINE)


def test_a_missing_chromium_is_named_with_its_install_command(quiet):
    section = quiet.stdout[quiet.stdout.index("Chromium is missing") :]
    assert "2 tests need Chromium and did not run (test_b.py)" in section
    assert f"`{CHROMIUM.install}`" in section
    assert CHROMIUM.install == "apt-get install chromium fonts-dejavu-core"


def test_nothing_is_said_about_chromium_when_no_test_needing_it_was_skipped(tmp_path):
    done = run_suite(tmp_path, "-q", "-p", "no:xdist", "test_a.py")
    assert "Chromium" not in done.stdout


@pytest.mark.parametrize(
    ("seconds", "said"), [(0.4, "0s"), (59, "59s"), (185, "3m05s"), (3720, "1h02m")]
)
def test_elapsed_time(seconds, said):
    assert elapsed(seconds) == said
