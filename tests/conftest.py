"""The whole suite's reporting (tests/progress.py): one line per test file where pytest
would print dots, and a closing section naming any missing system part (Chromium) with
the command that installs it."""

from __future__ import annotations

import pytest

from tests import progress


@pytest.hookimpl(trylast=True)  # after pytest's terminal reporter is registered
def pytest_configure(config: pytest.Config) -> None:
    progress.register(config)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    progress.missing_parts_summary(terminalreporter)
