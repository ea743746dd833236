"""A slow step says what it is doing on a terminal and erases the line when it ends
(asara_env/common/status.py); elsewhere (pipes, logs, captures) it writes nothing, so a
command's output and its one-line errors stay as they are."""

from __future__ import annotations

import io
import sys
import threading
import time
import types

import pytest

from apps.scripts import BY_NAME, Script
from asara_env import games
from asara_env.common import status as status_module
from asara_env.common.status import ERASE_LINE, slow_status, status

WAIT = 60.0  # the most a test waits for the status timer's thread (it fires at once)


class Terminal(io.StringIO):
    """A stream that says it is a terminal; `written` is set at its first write."""

    def __init__(self) -> None:
        super().__init__()
        self.written = threading.Event()

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> int:
        count = super().write(text)
        self.written.set()
        return count


def test_the_text_is_shown_while_the_step_runs_then_erased():
    out = Terminal()
    with status("loading the model x.zip", out):
        assert out.getvalue() == "loading the model x.zip..."
    assert out.getvalue() == "loading the model x.zip..." + ERASE_LINE


def test_the_line_is_erased_when_the_step_fails():
    out = Terminal()
    with pytest.raises(KeyError), status("reading", out):
        raise KeyError("data")
    assert out.getvalue().endswith(ERASE_LINE)


def test_nothing_is_written_where_the_stream_is_not_a_terminal():
    out = io.StringIO()
    with status("loading", out):
        pass
    assert out.getvalue() == ""
    closed = io.StringIO()
    closed.close()
    with status("loading", closed):  # isatty raises ValueError on a closed stream
        pass


def test_the_training_commands_say_what_they_load(monkeypatch):
    assert BY_NAME["asara-train"].loads == BY_NAME["basari-train"].loads != ""
    monkeypatch.setitem(sys.modules, "fake_command", type(sys)("fake_command"))
    shown = []

    def main(argv):
        shown.append(err.getvalue())
        return 0

    sys.modules["fake_command"].main = main  # type: ignore[attr-defined]
    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    assert Script("x-train", "fake_command:main", (), "PyTorch")([]) == 0
    assert shown == ["x-train: loading PyTorch..." + ERASE_LINE]  # erased before it runs


def test_loading_a_model_says_so_on_a_terminal(monkeypatch):
    pytest.importorskip("sb3_contrib")
    from agents.models import model_path
    from agents.policy_agent import load_model

    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    load_model(model_path("basari", "ppo_2p"))
    assert err.getvalue() == "loading the model basari_2p.zip (PyTorch)..." + ERASE_LINE


# ------------------------------------------------------------------ slow starts
@pytest.fixture
def slow(monkeypatch: pytest.MonkeyPatch) -> None:
    """The start has taken longer than a second: a step's status shows at once."""
    monkeypatch.setattr(status_module, "SLOW_SECONDS", 1.0)
    monkeypatch.setattr(status_module, "STARTED", time.monotonic() - 5.0)


def test_a_quick_start_says_nothing(monkeypatch):
    monkeypatch.setattr(status_module, "SLOW_SECONDS", 3600.0)
    monkeypatch.setattr(status_module, "STARTED", time.monotonic())
    out = Terminal()
    with slow_status("loading", out):
        pass
    assert out.getvalue() == ""


def test_a_step_off_the_main_thread_says_nothing(slow, monkeypatch):
    out, timers = Terminal(), []
    monkeypatch.setattr(status_module.threading, "Timer", lambda *a: timers.append(a))

    def step() -> None:
        with slow_status("loading", out):
            pass

    worker = threading.Thread(target=step)
    worker.start()
    worker.join()
    assert out.getvalue() == "" and timers == []  # no status timer was even set


def test_a_slow_step_says_what_it_does_while_it_runs_then_erases_it(slow):
    out = Terminal()
    with slow_status("asara: loading", out):
        assert out.written.wait(WAIT)  # the step lasts until the text is shown
        assert out.getvalue() == "asara: loading..."
    assert out.getvalue() == "asara: loading..." + ERASE_LINE


def test_a_slow_step_says_nothing_when_something_else_has_said_it(slow):
    out, asked = Terminal(), threading.Event()

    def said() -> bool:
        asked.set()
        return True

    with slow_status("loading", out, unless=said):
        assert asked.wait(WAIT)
    assert out.getvalue() == ""


def test_a_slow_step_writes_nothing_off_a_terminal(slow):
    out = io.StringIO()
    with slow_status("loading", out):
        pass
    assert out.getvalue() == ""


def test_a_slow_load_of_the_kernels_from_numbas_cache_says_so(slow, monkeypatch):
    pytest.importorskip("numba")
    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    core = types.ModuleType("tests_slow_cached_core")  # warms up once per process: a new one
    core.warm_up = lambda: err.written.wait(WAIT)  # type: ignore[attr-defined]
    games.warm_up("asara", core)
    text = "asara: loading the numba kernels from numba's cache..."
    assert err.getvalue() == text + ERASE_LINE  # said once, and no compile notice


SLOW_COMMAND = """
import sys

sys.stderr.written.wait(60)  # the import lasts until the status is shown
shown = []


def main(argv):
    shown.append(sys.stderr.getvalue())
    return 0
"""


def test_a_command_whose_import_is_slow_says_it_is_loading(slow, monkeypatch, tmp_path):
    (tmp_path / "tests_slow_command.py").write_text(SLOW_COMMAND)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "tests_slow_command", raising=False)
    monkeypatch.setattr(sys, "stderr", Terminal())
    assert Script("x", "tests_slow_command:main")([]) == 0
    shown = sys.modules["tests_slow_command"].shown
    assert shown == ["x: loading its modules..." + ERASE_LINE]  # erased before it runs
