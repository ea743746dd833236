"""The terminal game: a person (scripted here) against agents, through input/print."""

import argparse
import io
import random
import re
import shlex
from typing import Any

import pytest

from apps.asara import cli
from apps.asara.play import lineup, moves_listing, play
from asara_env.asara.actions import Group, decode, describe_action, public_description
from asara_env.asara.config import GameConfig
from asara_env.asara.reference.engine import new_game, step
from asara_env.asara.reference.record import GameRecord, replay
from asara_env.asara.reference.rules import legal_actions
from asara_env.asara.reference.state import State
from asara_env.asara.reference.view import seat_view
from asara_env.asara.render import render_view
from asara_env.asara.render_compact import render_compact
from asara_env.common.record import read_saved_game

BAD_ANSWERS = ["abc", "0", "999", "", "-2", "?", "bank"]


class Person:
    """Answers the move prompts with BAD_ANSWERS first, then seeded legal numbers; answers
    the other questions from `replies` (prompt prefix -> answer)."""

    def __init__(self, seed: int, bad=BAD_ANSWERS, replies=None):
        self.rng = random.Random(seed)
        self.bad = list(bad)
        self.replies = {"--": "", **(replies or {})}  # a pause: Enter
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        move = re.match(r"Your move \[1-(\d+)", prompt)
        if move and self.bad:
            return self.bad.pop(0)
        if move:
            return str(self.rng.randint(1, int(move.group(1))))
        return next(a for p, a in self.replies.items() if prompt.startswith(p))


def no_input(prompt: str) -> str:
    """input_fn of a game refused before it starts: never asked."""
    raise AssertionError(f"asked {prompt!r}")


def argv(command: str) -> list[str]:
    return shlex.split(command)


class Screen(list[str]):
    """print_fn that keeps every printed text."""

    def __call__(self, text: str = "") -> None:
        self.append(str(text))

    @property
    def text(self) -> str:
        return "\n".join(self)


def seat_boards(record: GameRecord, seat: int, draw=render_view) -> list[str]:
    """The board as `seat` sees it at each of its decisions, replaying the record."""
    state, boards = new_game(record.config, record.seed), []
    for action in record.actions:
        if state.seat == seat:
            boards.append(draw(seat_view(state, seat)))
        step(state, action)
    return boards


def play_scripted(tmp_path, seat=0, **kwargs):
    path = tmp_path / "game.json"
    person = Person(3, replies={"Save the game record?": "y", "File name": str(path)})
    screen = Screen()
    options: dict[str, Any] = {"config": GameConfig(2), "opponents": ["greedy"], "seed": 5}
    options |= kwargs
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
    saved = GameRecord.from_dict(read_saved_game(path, "asara").record)
    assert saved.to_dict() == record.to_dict()
    final = replay(saved)
    assert final.is_over and final.prestige == totals
    assert person.prompts[-2:] == ["Save the game record? [y/N] ", "File name [asara-5.json]: "]


@pytest.mark.parametrize("layout, draw", [("full", render_view), ("compact", render_compact)])
def test_the_person_sees_only_their_own_view(tmp_path, layout, draw):
    record, _, screen, _ = play_scripted(tmp_path, seat=1, opponents="random", layout=layout)
    boards = [text for text in screen if text.startswith("== ASARA")]
    assert boards == seat_boards(record, 1, draw)
    assert all(re.search(r"^P1 \(you\) ", board, re.M) for board in boards)
    assert not any(re.search(r"^P0 .*hand \d+:", board, re.M) for board in boards)


def test_opponent_moves_are_one_line_each(tmp_path):
    record, _, screen, _ = play_scripted(
        tmp_path, config=GameConfig(3), opponents=["greedy", "tall"]
    )
    state, expected = new_game(record.config, record.seed), []
    for action in record.actions:
        names = {1: "P1 (greedy)", 2: "P2 (tall)"}
        if state.seat in names:
            expected.append(names[state.seat])
        step(state, action)
    lines = re.findall(r"^  (P[12]): ", screen.text, re.M)
    assert lines == [name.split()[0] for name in expected]


def test_R10_2_opponent_moves_are_printed_without_their_hidden_cards(tmp_path):
    record, _, screen, _ = play_scripted(
        tmp_path, config=GameConfig(3), opponents=["greedy", "random"]
    )
    state, printed = new_game(record.config, record.seed), []
    for action in record.actions:
        if state.seat != 0:
            printed.append(public_description(action, state.seat, 0))
            hidden = decode(action)[0] in (Group.PLACE_COLOURED, Group.LIGHTS_KEEP)
            hidden |= decode(action)[0] == Group.PLACE and "face-down" in printed[-1]
            if hidden:  # the full name would tell the cards
                assert printed[-1] != describe_action(action)
        step(state, action)
    lines = re.findall(r"^  P[12]: (.*)$", screen.text, re.M)
    assert lines == printed
    assert any(
        line.startswith(("place two face-down cards", "place a face-down card")) for line in lines
    )


def test_the_same_seed_and_answers_give_the_same_game(tmp_path):
    first, *_ = play_scripted(tmp_path)
    second, *_ = play_scripted(tmp_path)
    assert first.to_dict() == second.to_dict()


def test_quitting_asks_first_and_end_of_input_quits():
    answers = iter(["b", "q", "n", "m", "quit", "yes"])
    screen = Screen()
    record = play(
        GameConfig(2), ["random"], seed=1, input_fn=lambda _: next(answers), print_fn=screen
    )
    assert record.actions == []
    quit_line = "You quit: the game stopped after 0 decisions of all seats, seed 1; it is not saved"
    assert quit_line + " (--save FILE keeps a game)." in " ".join(screen.text.split())
    assert sum(text.startswith("== ASARA") for text in screen) == 2  # drawn, then b
    assert "Game over" not in screen.text

    def end_of_input(prompt):
        raise EOFError

    record = play(GameConfig(2), ["random"], seed=1, input_fn=end_of_input, print_fn=Screen())
    assert record.actions == []


@pytest.mark.parametrize(
    "players, opponents, seat, message",
    [
        (3, ["greedy"], 0, "3 players need 2 opponent"),
        (2, "greedy,random", 0, "2 players need 1 opponent"),
        (2, ["chess"], 0, r"unknown agent\(s\) \['chess'\]; known agents: \['greedy', 'random'"),
        (2, ["random"], 2, "seat must be in 0..1"),
    ],
)
def test_bad_lineups_are_clear_errors(players, opponents, seat, message):
    with pytest.raises(ValueError, match=message):
        lineup(GameConfig(players), opponents, seat)
    screen = Screen()
    with pytest.raises(ValueError, match=message):
        play(GameConfig(players), opponents, seat, print_fn=screen, input_fn=no_input)
    assert screen == []


def test_asara_play_parses_its_options(monkeypatch):
    calls = []
    monkeypatch.setattr("apps.asara.play.play", lambda **kw: calls.append(kw))
    cli.main_asara(argv("play --players 4 --variant pro --seat 2 --seed 7 --save g.json"))
    cli.main_asara(argv("play --players 2 --opponents tall"))
    cli.main_asara(argv("play --variant pro --expansions ' gifts, genie'"))
    cli.main_asara(argv("play --expansions gifts --layout full"))
    assert calls == [
        {
            "config": GameConfig(4, "pro", ()),
            "opponents": "greedy,random,towers",
            "seat": 2,
            "seed": 7,
            "record_path": "g.json",
            "layout": "compact",
            "resume": None,
        },
        {
            "config": GameConfig(2, "basic", ()),
            "opponents": "tall",
            "seat": 0,
            "seed": None,
            "record_path": None,
            "layout": "compact",
            "resume": None,
        },
        {
            "config": GameConfig(3, "pro", ("gifts", "genie")),
            "opponents": "greedy,random",
            "seat": 0,
            "seed": None,
            "record_path": None,
            "layout": "compact",
            "resume": None,
        },
        {
            "config": GameConfig(3, "basic", ("gifts",)),
            "opponents": "greedy,random",
            "seat": 0,
            "seed": None,
            "record_path": None,
            "layout": "full",
            "resume": None,
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
        ("play --layout tiny", "invalid choice: 'tiny'"),
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
        GameConfig(2, variant, expansions)


@pytest.mark.parametrize(
    "variant, expansions, layout",
    [("basic", ("gifts",), "full"), ("pro", ("genie", "gifts"), "full"),
     ("pro", ("genie", "gifts"), "compact")],
)  # fmt: skip
def test_a_whole_game_with_expansions(tmp_path, variant, expansions, layout):
    record, _, screen, path = play_scripted(
        tmp_path, seat=1, config=GameConfig(3, variant, expansions), opponents="greedy,random",
        layout=layout,
    )  # fmt: skip
    assert record.config.expansions == expansions
    intro = f"ASARA, 3 players, {variant} rules{''.join(f' + {e}' for e in expansions)}, seed 5"
    assert screen[0].startswith(intro)
    boards = [text for text in screen if text.startswith("== ASARA")]
    full = layout == "full"
    # the full board is the env's own rendering, checked against the reference view
    assert boards == seat_boards(record, 1, render_view if full else render_compact)
    assert all(("(chest: " if full else "{") in board for board in boards)
    genie = r"^genie " if full else r"(^|  )genie \["  # the compact view packs areas
    assert all(bool(re.search(genie, b, re.M)) == ("genie" in expansions) for b in boards)
    assert "Game over." in screen.text
    assert replay(GameRecord.from_dict(read_saved_game(path, "asara").record)).is_over


def test_asara_play_plays_from_standard_input(tmp_path, monkeypatch, capsys):
    path = tmp_path / "game.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 400))
    cli.main_asara(argv(f"play --players 2 --opponents random --seed 2 --save {path}"))
    out = capsys.readouterr().out
    assert "seed 2" in out and "Game over" in out and f"saved to {path}" in out
    assert replay(GameRecord.from_dict(read_saved_game(path, "asara").record)).is_over


def test_asara_random_is_the_main_job(capsys):
    cli.main(["--players", "2", "--seed", "3"])
    expected = capsys.readouterr().out
    cli.main_asara(["random", "--players", "2", "--seed", "3"])
    assert capsys.readouterr().out == expected


def test_asara_serve_runs_the_web_page(monkeypatch):
    served: list[tuple[argparse.Namespace, str]] = []

    def serve(args: argparse.Namespace, prog: str) -> None:
        served.append((args, prog))

    monkeypatch.setattr("apps.serve.serve", serve)
    cli.main_asara(["serve", "--port", "8123"])
    assert [(a.host, a.port, prog) for a, prog in served] == [("127.0.0.1", 8123, "asara serve")]


# ------------------------------------------------------------------------ year-end (R6.2)
def announced_years(screen: Screen) -> dict[int, list[list[int]]]:
    """year -> per seat [towers, gold, lit, Caliph, points, prestige] as announced."""
    years = {}
    for text in [screen.text]:  # a table paged in two screenfuls is one text again
        for found in re.finditer(
            r"End of year (\d):(?:.*\n){3}((?:  P\d(?: you)? +\d.*(?:\n|$))+)", text
        ):
            rows = [line.split()[-6:] for line in found.group(2).splitlines()]
            years[int(found.group(1))] = [[int(x) for x in row] for row in rows]
    return years


def scorings(record: GameRecord) -> dict[int, tuple[list[int], State]]:
    """year -> (each seat's prestige change at that year's end without the final scoring,
    the state after it), replaying the record."""
    state, changes = new_game(record.config, record.seed), {}
    for action in record.actions:
        year, before = state.year, list(state.prestige)
        if decode(action)[0] in (Group.BUILD_TILE, Group.BUILD_LIGHTED):
            before[state.seat] += 1  # R4.2: the tile built in the year's last step
        step(state, action)
        if state.year != year or state.is_over:
            final = [points["total"] for points in state.final or [{"total": 0}] * len(before)]
            changes[year] = (
                [a - b - f for a, b, f in zip(state.prestige, before, final)],
                state.copy(),
            )
    return changes


@pytest.mark.parametrize(
    "players, variant, expansions, opponents, seat",
    [(2, "basic", (), "towers", 0), (3, "pro", ("genie",), "greedy,tall", 2),
     (4, "pro", ("genie", "gifts"), "towers,greedy,tall", 1)],
)  # fmt: skip
def test_R6_2_each_year_end_is_announced_with_the_points_each_seat_scored(
    tmp_path, players, variant, expansions, opponents, seat
):
    record, _, screen, _ = play_scripted(
        tmp_path, seat=seat, config=GameConfig(players, variant, expansions), opponents=opponents,
    )  # fmt: skip
    announced, changes = announced_years(screen), scorings(record)
    assert sorted(announced) == sorted(changes) == [1, 2, 3, 4]
    for year, (change, state) in changes.items():
        rows = announced[year]
        assert [row[4] for row in rows] == change  # the points are what the scoring gave
        for s, (towers, gold, lit, caliph, points, prestige) in enumerate(rows):
            own = [t for column in state.towers[s] for t in column]
            assert towers == len(own) and caliph == int(state.caliph == s)
            assert gold == sum(int(t.parts[:, 1].sum()) - t.lit_gold for t in own)
            assert lit == sum(t.lit_plain + t.lit_gold for t in own)
            assert towers + gold + lit + caliph == points
            final = state.final[s]["total"] if state.final else 0
            assert prestige == state.prestige[s] - final
    assert sum(row[1] for rows in announced.values() for row in rows) > 0  # gold was scored
    # each announcement comes between the year's last board and the next year's first
    places = [i for i, text in enumerate(screen) if "End of year" in text]
    for year, place in zip(range(1, 5), places):
        boards = [i for i, text in enumerate(screen) if text.startswith("== ASARA")]
        assert all(i < place for i in boards if f"year {year}/4" in screen[i])
        assert all(i > place for i in boards if f"year {year + 1}/4" in screen[i])
    assert screen.text.index("End of year 4") < screen.text.index("Game over.")


# ------------------------------------------------------------------------ 80 x 24
class PagingPerson(Person):
    """Answers every other move prompt with "+" (the next page of moves), the others as
    Person does."""

    paging = False

    def __call__(self, prompt: str) -> str:
        if prompt.startswith("Your move"):
            self.paging = not self.paging
            if self.paging:
                return "+"
        return super().__call__(prompt)


def test_the_compact_game_fits_a_terminal_of_80_by_24(tmp_path):
    person = PagingPerson(4, bad=["red", "+"], replies={"Save the game record?": "n"})
    screen = Screen()
    record = play(
        GameConfig(4, "pro", ("genie", "gifts")), ["greedy", "towers", "tall"], seat=1, seed=9,
        input_fn=person, print_fn=screen,
    )  # fmt: skip
    assert replay(record).is_over
    assert max(len(line) for line in screen.text.splitlines()) <= 80
    boards = [i for i, text in enumerate(screen) if text.startswith("== ASARA")]
    assert boards and all(screen[i].count("\n") + 1 <= 18 for i in boards)
    paged = 0
    for i in boards:  # the board, a page of moves and the prompt fit in 24 lines
        board_lines = screen[i].count("\n") + 1
        at = i + 1 if screen[i + 1].startswith("Your moves") else i + 2
        board_lines += screen[i + 1].count("\n") + 1 if at == i + 2 else 0  # the events
        listing = screen[at]
        assert listing.startswith("Your moves (1-")
        assert board_lines + listing.count("\n") + 1 + 1 <= 24
        later = screen[at + 1]  # after "+": the next page, or the word that all are shown
        if ", page 1/" in listing:
            paged += 1
            assert ", page 2/" in later and later.count("\n") + 1 + board_lines + 1 <= 24
        else:
            assert later == "All the moves listed are shown (m lists every move)."
    assert paged > 0
    filtered = [i for i, text in enumerate(screen) if text.startswith("Moves with 'red'")]
    assert filtered
    for i in filtered:  # a filtered list is paged to fit under its board as well
        board = screen[max(b for b in boards if b < i)]
        assert board.count("\n") + 1 + screen[i].count("\n") + 1 + 1 <= 24


def test_move_pages_list_every_move_once_with_their_headings():
    state = new_game(GameConfig(num_players=4, variant="pro", expansions=("genie",)), 3)
    moves = legal_actions(state)
    listing = moves_listing(moves, 80, size=5)
    assert listing.pages == -(-len(listing.lines) // 5) > 2
    numbers = []
    for page in range(listing.pages):
        listing.page = page
        lines = listing.text().splitlines()
        assert (
            lines[0]
            == f"Your moves (1-{len(moves)}), page {page + 1}/{listing.pages} (+ for the next):"
        )
        assert 2 <= len(lines) <= 6 and max(map(len, lines)) <= 80
        assert re.match(r"  (on \S|\d+\))", lines[1])  # a page starts with a heading
        numbers += [int(n) for line in lines[1:] for n in re.findall(r"(\d+)\)", line)]
    assert numbers == list(range(1, len(moves) + 1))
    assert moves_listing(moves, 100).pages == 1  # the full layout lists them all at once
