"""The README keeps its word. Its first example shows what it promises: every agent's final
reward (PettingZoo empties `env.rewards` once every agent has left the game, so printing it
shows `{}`). Its headline figures cannot drift from the performance page: each row is a row
of the page's summary, word for word, and names the strongest models; every interval of the
summary is measured in a section of the page; the README's links into the page name
sections that exist, and its test-suite time is the summary's."""

from __future__ import annotations

import ast
import contextlib
import io
import re
from pathlib import Path

from tests.common.pages import PAGE, headings, table_after

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def test_the_first_example_prints_every_agents_final_reward(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    code = BLOCK.findall((ROOT / "README.md").read_text())[0]
    with contextlib.redirect_stdout(io.StringIO()) as out:
        exec(compile(code, "README.md example 0", "exec"), {"__name__": "example"})
    returns = ast.literal_eval(out.getvalue().splitlines()[0])
    assert sorted(returns) == ["player_0", "player_1", "player_2"]  # num_players=3
    assert max(returns.values()) > 0 > min(returns.values())  # a winner and losers: "win"
    assert abs(sum(returns.values())) < 1e-9  # zero-sum


# ---------------------------------------------------------------- the headline figures
INTERVAL = re.compile(r"\[\d\.\d+, \d\.\d+\]")
ANCHOR = re.compile(r"docs/performance\.md#([\w-]+)")


def test_every_headline_figure_is_a_row_of_the_performance_summary() -> None:
    summary = {row[0]: row[1] for row in table_after(PAGE.read_text(), "## Summary")}
    headline = table_after((ROOT / "README.md").read_text(), "## Headline figures")
    assert len(headline) >= 5
    for what, figure in headline:
        assert what in summary, f"README row {what!r} is not a row of the page's summary"
        assert figure == summary[what], f"{what}: README {figure!r}, the page {summary[what]!r}"


def test_the_headline_figures_name_the_strongest_models() -> None:
    from agents.models import STRONGEST

    figures = " ".join(
        row[1] for row in table_after((ROOT / "README.md").read_text(), "## Headline figures")
    )
    for game in STRONGEST:
        for players in (2, 4):
            assert f"`{STRONGEST[game][players]}`" in figures, (game, players)


def test_every_interval_of_the_summary_is_measured_on_the_page() -> None:
    text = PAGE.read_text()
    body = text[text.index("## Summary") :].split("\n## ", 1)[1]
    for row in table_after(text, "## Summary"):
        for interval in INTERVAL.findall(row[1]):
            assert interval in body, f"{row[0]}: {interval} is in no section of the page"


def test_the_readmes_links_to_the_performance_page_name_its_sections() -> None:
    sections = headings(PAGE)
    anchors = ANCHOR.findall((ROOT / "README.md").read_text())
    assert anchors and set(anchors) <= sections, sorted(set(anchors) - sections)


def test_the_readmes_test_suite_time_is_the_summarys() -> None:
    summary = {row[0]: row[1] for row in table_after(PAGE.read_text(), "## Summary")}
    row = next(figure for what, figure in summary.items() if what.startswith("`make test`"))
    times = re.fullmatch(r"about (\d+) min wall, (\d+) min CPU, on 2 cores", row)
    assert times, row
    wall, cpu = times.groups()
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert f"about {wall} minutes of wall-clock time and {cpu} minutes of CPU time" in readme
