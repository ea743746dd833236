"""What pytest shows while the suite runs and what it says at the end (tests/conftest.py
loads it; it needs only pytest and the standard library).

- `FileProgress`: where pytest would print a dot per test (`-q`, or the workers of
  pytest-xdist, which print no file names), one line per test file as its last test
  finishes: how many of all the tests are done, the time since the start, the file and
  its results. A suite of minutes then shows which file it is in, readable in a CI log.
- `SYSTEM_PARTS`: the programs outside Python that some tests need, each with the marker
  of those tests and the command that installs it. The tests are skipped without it, and
  `missing_parts_summary` ends the run with a section naming each missing part, the tests
  it kept from running and how to install it, rather than one line among the skips.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass

import pytest

ORDER = ("failed", "error", "passed", "skipped", "xfailed", "xpassed")  # results, as listed


@dataclass(frozen=True)
class SystemPart:
    """A program the tests marked `marker` need, found by `found`, installed by `install`."""

    name: str
    marker: str
    install: str
    found: Callable[[], bool]

    @property
    def reason(self) -> str:
        """The skip reason of the tests that need it."""
        return f"{self.name} is not installed ({self.install})"


def chromium_found() -> bool:
    """Whether Chromium is on PATH (the names apps/browser.py looks for)."""
    from apps.browser import find_chromium

    return find_chromium() is not None


CHROMIUM = SystemPart(
    name="Chromium",
    marker="browser",
    install="apt-get install chromium fonts-dejavu-core",
    found=chromium_found,
)
SYSTEM_PARTS = (CHROMIUM,)


def needs(part: SystemPart) -> pytest.MarkDecorator:
    """The mark of tests that need `part`: skipped, with its reason, where it is missing."""
    return pytest.mark.skipif(not part.found(), reason=part.reason)


def missing_parts_summary(reporter: pytest.TerminalReporter) -> None:
    """A closing section for each system part that is missing and kept tests from running."""
    skipped = reporter.stats.get("skipped", [])
    for part in SYSTEM_PARTS:
        kept = [r for r in skipped if part.reason in str(getattr(r, "longrepr", ""))]
        if not kept:
            continue
        reporter.write_sep("=", f"{part.name} is missing", yellow=True, bold=True)
        files = sorted({r.nodeid.split("::")[0] for r in kept})
        reporter.write_line(
            f"{len(kept)} tests need {part.name} and did not run ({', '.join(files)})."
        )
        reporter.write_line(
            f"Install it with `{part.install}` (Debian or Ubuntu, as root; .ci/run does)"
            f" and run them with `pytest -m {part.marker}`."
        )


def file_of(nodeid: str) -> str:
    """The file part of a test id ("tests/x.py::test_y[2]" -> "tests/x.py")."""
    return nodeid.split("::", 1)[0]


def elapsed(seconds: float) -> str:
    """ "12s", "3m05s", "1h02m"."""
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours}h{minutes:02d}m"
    return f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"


class FileProgress:
    """One line per test file when its last test finishes, in place of pytest's dots."""

    def __init__(self, reporter: pytest.TerminalReporter) -> None:
        self.reporter = reporter
        self.start = time.monotonic()
        self.left: Counter[str] = Counter()  # file -> its tests not finished
        self.results: dict[str, Counter[str]] = {}  # file -> result -> tests
        self.total = 0
        self.done = 0
        self.running = False  # between the start and the end of the test loop

    def expect(self, nodeids: Iterable[str]) -> None:
        """The tests of the run (the first collection that reports them)."""
        if self.total:
            return
        self.left.update(file_of(nodeid) for nodeid in nodeids)
        self.total = sum(self.left.values())

    @pytest.hookimpl
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.expect(item.nodeid for item in session.items)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: object, ids: list[str]) -> None:
        self.expect(ids)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtestloop(self) -> Generator[None, object, object]:
        self.running = True
        try:
            return (yield)
        finally:
            self.running = False

    @pytest.hookimpl(wrapper=True)
    def pytest_report_teststatus(
        self, report: pytest.TestReport | pytest.CollectReport
    ) -> Generator[None, tuple[str, str, object], tuple[str, str, object]]:
        status = yield
        if not self.running:  # the closing summaries keep their words ("FAILED")
            return status
        return status[0], "", ""  # no dot while the tests run: the file lines say it

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        config = self.reporter.config
        category = config.hook.pytest_report_teststatus(report=report, config=config)[0]
        name = file_of(report.nodeid)
        if category:
            self.results.setdefault(name, Counter())[category] += 1
        if report.when != "teardown":
            return
        self.done += 1
        self.left[name] -= 1
        if self.left[name] == 0:
            self.reporter.write_line(self.line(name))

    def line(self, name: str) -> str:
        """ "[ 712/3460]  3m05s  tests/asara/test_env.py  45 passed, 1 skipped"."""
        results = self.results.get(name, Counter())
        listed = sorted(results, key=lambda c: (ORDER.index(c) if c in ORDER else len(ORDER), c))
        said = ", ".join(f"{results[c]} {c}" for c in listed)
        width = len(str(self.total))
        count = f"[{self.done:>{width}}/{self.total}]"
        return f"{count} {elapsed(time.monotonic() - self.start):>6}  {name}  {said}"


def shows_dots(config: pytest.Config) -> bool:
    """Whether pytest would print a dot per test with no file names: `-q`, or pytest-xdist's
    workers at the default verbosity."""
    verbosity = config.get_verbosity()
    return verbosity < 0 or (verbosity == 0 and bool(getattr(config.option, "numprocesses", 0)))


def register(config: pytest.Config) -> None:
    """`FileProgress` registered where pytest would print dots (never on an xdist worker)."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None or hasattr(config, "workerinput") or not shows_dots(config):
        return
    config.pluginmanager.register(FileProgress(reporter), "asara-file-progress")
