"""The terminal game: a person (scripted here) against agents, through input/print."""

import io
import json
import random
import re
import shlex

import pytest

from apps import cli
from apps.play import lineup, play
from asara_env.reference.engine import new_game, step
from asara_env.reference.record import GameRecord, replay
from asara_env.reference.view import seat_view
from asara_env.render import render_view

BAD_ANSWERS = ["abc", "0", "999", "", "-2", "?", "bank"]


class Person:
    """Answers the move prompts with BAD_ANSWERS first, then seeded legal numbers; answers
    the other questions from `replies` (prompt prefix -> answer)."""

    def __init__(self, seed: int, bad=BAD_ANSWERS, replies=None):
        self.rng = random.Random(seed)
        self.bad = list(bad)
        self.replies = replies or {}
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        move = re.match(r"Your move \[1-(\d+)", prompt)
        if move and self.bad:
            return self.bad.pop(0)
        if move:
            return str(self.rng.randint(1, int(move.group(1))))
        return next(a for p, a in self.replies.items() if prompt.startswith(p))


def argv(command: str) -> list[str]:
    return shlex.split(command)


class Screen(list):
    """print_fn that keeps every printed text."""

    def __call__(self, text: str = "") -> None:
        self.append(str(text))

    @property
    def text(self) -> str:
        return "\n".join(self)


def seat_boards(record: GameRecord, seat: int) -> list[str]:
    """The board as `seat` sees it at each of its decisions, replaying the record."""
    state, boards = new_game(record.config, record.seed), []
    for action in record.actions:
        if state.seat == seat:
            boards.append(render_view(seat_view(state, seat)))
        step(state, action)
    return boards


def play_scripted(tmp_path, seat=0, **kwargs):
    path = tmp_path / "game.json"
    person = Person(3, replies={"Save the game record?": "y", "File name": str(path)})
    screen = Screen()
    options = {"players": 2, "opponents": ["greedy"], "seed": 5} | kwargs
    record = play(seat=seat, input_fn=person, print_fn=screen, **options)
    return record, person, screen, path


def test_a_whole_game_with_bad_answers_ends_with_the_table_and_a_replayable_record(tmp_path):
    record, person, screen, path = play_scripted(tmp_path)
    out = screen.text
    assert "Empty answer: type a move number from 1 to" in out
    assert "0 is out of range: choose a move number from 1 to" in out
    assert "999 is out of range" in out and "-2 is out of range" in out
    assert "'abc' is not a move number, a command or part of a move's name" in out
    assert "How to answer:" in out  # ?
    assert "Moves with 'bank':" in out
    table = out[out.index("Game over.") :].splitlines()
    assert table[1].split()[:3] == ["seat", "track", "brown"]
    assert table[4].startswith("winner") and table[5] in ("You won!", "You lost.")
    totals = [int(line.split()[-1]) for line in table[2:4]]
    saved = GameRecord.from_dict(json.loads(path.read_text()))
    assert saved.to_dict() == record.to_dict()
    final = replay(saved)
    assert final.is_over and final.prestige == totals
    assert person.prompts[-2:] == ["Save the game record? [y/N] ", "File name [asara-5.json]: "]


def test_the_person_sees_only_their_own_view(tmp_path):
    record, _, screen, _ = play_scripted(tmp_path, seat=1, opponents="random")
    boards = [text for text in screen if text.startswith("== ASARA")]
    assert boards == seat_boards(record, 1)
    assert all("view of P1 (you)" in board for board in boards)
    assert not any(re.search(r"^P0 .*hand \d+:", board, re.M) for board in boards)


def test_opponent_moves_are_one_line_each(tmp_path):
    record, _, screen, _ = play_scripted(tmp_path, players=3, opponents=["greedy", "tall"])
    state, expected = new_game(record.config, record.seed), []
    for action in record.actions:
        names = {1: "P1 (greedy)", 2: "P2 (tall)"}
        if state.seat in names:
            expected.append(names[state.seat])
        step(state, action)
    lines = [t.split(":")[0] for t in screen if t.startswith(("P1 (", "P2 ("))]
    assert lines == expected


def test_the_same_seed_and_answers_give_the_same_game(tmp_path):
    first, *_ = play_scripted(tmp_path)
    second, *_ = play_scripted(tmp_path)
    assert first.to_dict() == second.to_dict()


def test_quitting_asks_first_and_end_of_input_quits():
    answers = iter(["b", "q", "n", "m", "quit", "yes"])
    screen = Screen()
    record = play(
        2, opponents=["random"], seed=1, input_fn=lambda _: next(answers), print_fn=screen
    )
    assert record.actions == [] and "You quit after 0 decision(s), seed 1." in screen.text
    assert sum(text.startswith("== ASARA") for text in screen) == 2  # drawn, then b
    assert "Game over" not in screen.text

    def end_of_input(prompt):
        raise EOFError

    record = play(2, opponents=["random"], seed=1, input_fn=end_of_input, print_fn=Screen())
    assert record.actions == []


@pytest.mark.parametrize(
    "players, opponents, seat, message",
    [
        (3, ["greedy"], 0, "3 players need 2 opponent"),
        (2, "greedy,random", 0, "2 players need 1 opponent"),
        (2, ["chess"], 0, r"unknown agent\(s\) \['chess'\]; known agents: \['greedy', 'random'"),
        (2, ["random"], 2, "seat must be in 0..1"),
        (5, ["random"] * 4, 0, "num_players"),
    ],
)
def test_bad_lineups_are_clear_errors(players, opponents, seat, message):
    with pytest.raises(ValueError, match=message):
        lineup(players, "basic", opponents, seat)
    screen = Screen()
    with pytest.raises(ValueError, match=message):
        play(players, opponents=opponents, seat=seat, print_fn=screen, input_fn=None)
    assert screen == []


def test_asara_play_parses_its_options(monkeypatch):
    calls = []
    monkeypatch.setattr("apps.play.play", lambda **kw: calls.append(kw))
    cli.main_asara(argv("play --players 4 --variant pro --seat 2 --seed 7 --save g.json"))
    cli.main_asara(argv("play --players 2 --opponents tall"))
    cli.main_asara(argv("play --variant pro --expansions ' gifts, genie'"))
    cli.main_asara(argv("play --expansions gifts"))
    assert calls == [
        {
            "players": 4,
            "variant": "pro",
            "expansions": (),
            "opponents": "greedy,random,towers",
            "seat": 2,
            "seed": 7,
            "record_path": "g.json",
        },
        {
            "players": 2,
            "variant": "basic",
            "expansions": (),
            "opponents": "tall",
            "seat": 0,
            "seed": None,
            "record_path": None,
        },
        {
            "players": 3,
            "variant": "pro",
            "expansions": ("gifts", "genie"),
            "opponents": "greedy,random",
            "seat": 0,
            "seed": None,
            "record_path": None,
        },
        {
            "players": 3,
            "variant": "basic",
            "expansions": ("gifts",),
            "opponents": "greedy,random",
            "seat": 0,
            "seed": None,
            "record_path": None,
        },
    ]


@pytest.mark.parametrize(
    "command, message",
    [
        ("play --players 3 --opponents greedy", "3 players need 2 opponent"),
        ("play --players 2 --opponents nobody", "known agents"),
        ("play --variant chess", "invalid choice"),
        ("play --expansions genie", "'genie' expansion needs the professional variant"),
        ("play --expansions gifts,dragons", "unknown expansion(s) ['dragons']"),
        ("dance", "invalid choice"),
    ],
)
def test_asara_play_rejects_bad_options(command, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main_asara(argv(command))
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    "variant, expansions, message",
    [
        ("basic", ["genie"], "'genie' expansion needs the professional variant"),
        ("pro", ["gifts", "dragons"], "unknown expansion 'dragons'"),
    ],
)
def test_bad_expansions_are_clear_errors(variant, expansions, message):
    with pytest.raises(ValueError, match=message):
        lineup(2, variant, ["random"], 0, expansions)
    screen = Screen()
    with pytest.raises(ValueError, match=message):
        play(2, variant, ["random"], expansions=expansions, print_fn=screen, input_fn=None)
    assert screen == []


@pytest.mark.parametrize(
    "variant, expansions", [("basic", ("gifts",)), ("pro", ("genie", "gifts"))]
)
def test_a_whole_game_with_expansions(tmp_path, variant, expansions):
    record, _, screen, path = play_scripted(
        tmp_path, seat=1, players=3, opponents="greedy,random", variant=variant,
        expansions=expansions,
    )  # fmt: skip
    assert record.config.expansions == expansions
    intro = f"ASARA, 3 players, {variant} rules{''.join(f' + {e}' for e in expansions)}, seed 5"
    assert screen[0].startswith(intro)
    boards = [text for text in screen if text.startswith("== ASARA")]
    assert boards == seat_boards(record, 1)  # the env's rendering is the reference view
    assert all("(chest: " in board for board in boards)
    assert all(("\ngenie " in board) == ("genie" in expansions) for board in boards)
    assert "Game over." in screen.text
    assert replay(GameRecord.from_dict(json.loads(path.read_text()))).is_over


def test_asara_play_plays_from_standard_input(tmp_path, monkeypatch, capsys):
    path = tmp_path / "game.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 400))
    cli.main_asara(argv(f"play --players 2 --opponents random --seed 2 --save {path}"))
    out = capsys.readouterr().out
    assert "seed 2" in out and "Game over" in out and f"saved to {path}" in out
    assert replay(GameRecord.from_dict(json.loads(path.read_text()))).is_over


def test_asara_random_is_the_main_job(capsys):
    cli.main(["--players", "2", "--seed", "3"])
    expected = capsys.readouterr().out
    cli.main_asara(["random", "--players", "2", "--seed", "3"])
    assert capsys.readouterr().out == expected
