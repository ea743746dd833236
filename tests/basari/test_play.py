"""The BASARI terminal game, played by a scripted person through input/print, and the
`basari` command's argument checks."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from apps.basari.play import lineup, main, play
from asara_env.basari.config import BasariConfig

BAD_ANSWERS = ["abc", "0", "99", "", "?", "b"]


class Person:
    """Answers the move prompts with BAD_ANSWERS first, then seeded legal numbers."""

    def __init__(self, seed: int, bad: list[str] | None = None, quit_after: int | None = None):
        self.rng = random.Random(seed)
        self.bad = list(BAD_ANSWERS if bad is None else bad)
        self.quit_after = quit_after
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if prompt.startswith("Really quit"):
            return "y"
        if prompt.startswith("--"):  # a pause: Enter
            return ""
        move = re.match(r"Your move \[1-(\d+)", prompt)
        assert move, prompt
        if self.quit_after is not None and len(self.prompts) > self.quit_after:
            return "q"
        if self.bad:
            return self.bad.pop(0)
        return str(self.rng.randint(1, int(move.group(1))))


class Screen(list[str]):
    def __call__(self, text: str = "") -> None:
        self.append(str(text))

    @property
    def text(self) -> str:
        return "\n".join(self)


@pytest.mark.parametrize("players,seat", [(2, 1), (3, 0), (4, 2)])
def test_a_whole_game_is_played_through_the_terminal(players: int, seat: int) -> None:
    person, screen = Person(players), Screen()
    final = play(BasariConfig(players), "value", seat, seed=11, input_fn=person, print_fn=screen)
    assert final is not None and final["winners"].any()
    text = screen.text
    # bad answers re-prompted with what was wrong
    assert "'abc' is not a move number" in text
    assert "There is no move 0" in text and "There is no move 99" in text
    assert "How to answer:" in text
    # the board, the revealed cards and the final result are shown
    assert "archways (number:points gems" in text and "cards: " in text
    assert re.search(r"Final scores: P0( you)? \d+", text)
    assert ("You won!" in text) != ("You did not win this time." in text)
    # every answer the person gave after the bad ones was a legal move number
    assert len(person.prompts) > 15


def test_offers_are_shown_and_never_another_players_pending_bundle() -> None:
    """Play until barters happen: offers appear as events; 'is building' appears only
    while the person is the one to act (their own bundle)."""
    screen = Screen()
    play(BasariConfig(2), "value", 0, seed=3, input_fn=Person(5, bad=[]), print_fn=screen)
    boards = [s for s in screen if s.startswith("== BASARI round")]
    events = [s for s in screen if s.startswith("Since your last decision:")]
    assert any(re.search(r"^  P1 offers ", e, re.M) for e in events), "no offer shown"
    building = [line for b in boards for line in b.splitlines() if "is building:" in line]
    assert building and all(line.strip().startswith("P0 you is building") for line in building)


def test_quitting_ends_the_game() -> None:
    screen = Screen()
    assert (
        play(
            BasariConfig(3),
            "random",
            0,
            seed=1,
            input_fn=Person(1, bad=[], quit_after=3),
            print_fn=screen,
        )
        is None
    )
    quit_line = r"You quit: the game stopped after \d+ steps? of all seats, seed 1; it is not saved"
    assert re.search(quit_line, " ".join(screen.text.split()))


@pytest.mark.parametrize(
    "args,message",
    [
        ((3, "value,nobody", 0), r"unknown agent\(s\) \[.nobody.\]"),
        ((3, "value,value,value", 0), "need 2 opponents"),
        ((5, "value", 0), r"players must be one of \(2, 3, 4\), got 5"),
        ((3, "value", 3), "seat must be in 0..2"),
    ],
)
def test_bad_requests_name_what_is_wrong(args: tuple[Any, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        lineup(*args)


def test_one_opponent_name_fills_every_other_seat() -> None:
    assert lineup(4, "points_first", 1) == ["points_first", None, "points_first", "points_first"]


def test_command_line_refuses_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    for argv, message in (
        (["play", "--players", "3", "--opponents", "nobody"], "unknown agent(s) ['nobody']"),
        (["play", "--seed", "-1"], "--seed: must be a non-negative int"),
    ):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2
        assert message in capsys.readouterr().err


def test_the_shipped_model_plays_as_an_opponent() -> None:
    pytest.importorskip("sb3_contrib")
    person, screen = Person(3, bad=[]), Screen()
    final = play(BasariConfig(4), "ppo_4p", 0, seed=5, input_fn=person, print_fn=screen)
    assert final is not None and final["winners"].any()
    assert "Seats: P0 you, P1 ppo_4p, P2 ppo_4p, P3 ppo_4p." in screen.text
