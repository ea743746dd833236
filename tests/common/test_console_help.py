"""The terminal games' `?` help (apps/console.py `wrapped`): each paragraph broken once,
between words, to the terminal's width; a list entry continues under its text."""

from __future__ import annotations

import pytest

from apps.asara.play import HELP as ASARA_HELP
from apps.basari.play import HELP as BASARI_HELP
from apps.console import ENTRY, wrapped


@pytest.mark.parametrize("text", [ASARA_HELP, BASARI_HELP], ids=["asara", "basari"])
@pytest.mark.parametrize("width", [80, 100])
def test_the_help_is_wrapped_once_to_the_width(text: str, width: int) -> None:
    for paragraph in text.splitlines():
        lines = wrapped(paragraph, width, "  ")
        assert " ".join(lines).split() == paragraph.split()
        assert max(map(len, lines)) <= width
        for line, after in zip(lines, lines[1:]):  # no line breaks early: each one is full
            assert len(line) + 1 + len(after.split()[0]) > width, (line, after)


def test_a_list_entry_continues_under_its_text() -> None:
    entry = "  q, quit     " + "word " * 30
    lines = wrapped(entry, 40)
    column = len(ENTRY.match(entry).group(1))  # type: ignore[union-attr]
    assert len(lines) > 1 and all(line.startswith(" " * column + "word") for line in lines[1:])


def test_basari_names_the_points_card_by_what_it_scores() -> None:
    assert "Points (score the archway's points)" in BASARI_HELP
    assert "archway's number" not in BASARI_HELP
