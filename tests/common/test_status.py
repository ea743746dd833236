"""A slow step says what it is doing on a terminal and erases the line when it ends
(asara_env/common/status.py); elsewhere (pipes, logs, captures) it writes nothing, so a
command's output and its one-line errors stay as they are."""

from __future__ import annotations

import io
import sys

import pytest

from apps.scripts import BY_NAME, Script
from asara_env.common.status import ERASE_LINE, status


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


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
