"""The ASARA terminal game at exactly 80x24, through input and output: what happened
since the person's last decision stays on screen, prices and refusals are explained, and
games are saved (checked before play, on quit) and resumed to the same end."""

import json

import pytest

from apps.asara import cli
from apps.asara.play import play
from apps.console import EVENTS_TITLE
from asara_env.asara.actions import Group, decode, public_description
from asara_env.asara.config import GameConfig
from asara_env.asara.constants import PRICE
from asara_env.asara.reference.engine import new_game, step
from asara_env.asara.reference.record import RULES, GameRecord
from asara_env.asara.reference.view import seat_view
from asara_env.asara.render import render_view
from asara_env.common.record import SavedGame, read_saved_game, resume
from commandline.command import Interrupted
from tests.common.terminal import HEIGHT, MOVE, Player, Terminal

SEAT = 1


def decision_screens(term: Terminal) -> list[int]:
    """The index of the screen at which each decision was answered."""
    return [
        i
        for i, (screen, reply) in enumerate(zip(term.screens, term.answers))
        if MOVE.match(screen[-1]) and reply.isdigit()
    ]


def expected_events(record: GameRecord, seat: int) -> list[list[str]]:
    """Per decision of `seat`: the opponents' moves as `seat` may know them (R10.2) and
    the year ends since its previous decision."""
    state = new_game(record.config, record.seed)
    events: list[list[str]] = []
    since: list[str] = []
    for action in record.actions:
        if state.seat == seat:
            events.append(since)
            since = []
        else:
            since.append(f"P{state.seat}: {public_description(action, state.seat, seat)}")
        year = state.year
        step(state, action)
        if state.year != year and not state.is_over:
            since.append(f"End of year {year}")
    return events


def play_on_terminal(player: Player, **kwargs) -> tuple[Terminal, GameRecord]:
    term = Terminal(player)
    options = dict(config=GameConfig(3), opponents=["greedy", "random"], seat=SEAT, seed=11)
    record = play(**{**options, **kwargs}, input_fn=term.input, print_fn=term.print)
    return term, record


def test_after_each_decision_the_80x24_screen_held_the_opponents_moves_and_scoring():
    term, record = play_on_terminal(Player(1, replies={"Save the game record?": "n"}))
    assert new_game(record.config, record.seed) and not term.too_wide()
    decisions = decision_screens(term)
    expected = expected_events(record, SEAT)
    assert len(decisions) == len(expected) > 20
    assert sum(any(e.startswith("End of year") for e in x) for x in expected) == 3
    previous = -1
    for index, events in zip(decisions, expected):
        seen = [line for screen in term.screens[previous + 1 : index + 1] for line in screen]
        for event in events:
            assert any(event in line for line in seen), (event, seen)
        previous = index
    assert all(len(screen) == 24 for screen in term.screens[5:])
    for screen in term.screens:  # a year-end table is never split between two screens
        ends = [i for i, line in enumerate(screen) if "End of year" in line]
        assert all(any(line.startswith("  P2 ") for line in screen[i:]) for i in ends)


def test_tile_prices_are_in_the_move_list():
    term, _ = play_on_terminal(Player(2, replies={"Save the game record?": "n"}))
    priced = [line for line in term.lines if ", " in line and " asari" in line and "buy" in line]
    assert priced
    names = ("brown", "green", "red", "black", "white")
    for line in priced:
        for colour, price in zip(names, PRICE):
            for label in line.split(")"):
                if f"buy {colour} " in label:
                    assert f", {price} asari" in label, line


def test_a_move_named_that_is_not_legal_is_refused_with_the_reason():
    player = Player(
        3, script=["build: brown base on brown tower #1"], stop=0, replies={"Really": "y"}
    )
    term, record = play_on_terminal(player, **{"seed": 12})
    refusal = [line for line in term.lines if line.startswith("Not now: build: brown base")]
    assert refusal and len(refusal[0]) > len("Not now: build: brown base on brown tower #1: ")
    assert record.actions == [] or decode(record.actions[0])[0] != Group.BUILD_TILE


def test_save_to_a_bad_path_or_an_existing_file_is_refused_before_play(tmp_path, capsys):
    for argv, words in [
        (["--save", str(tmp_path / "missing" / "x.json")], "no folder"),
        (["--save", str(tmp_path)], "is a folder"),
    ]:
        with pytest.raises(SystemExit) as stop:
            cli.main_asara(["play", *argv])
        assert stop.value.code == 2 and words in capsys.readouterr().err
    taken = tmp_path / "taken.json"
    taken.write_text("keep")
    with pytest.raises(SystemExit) as stop:
        cli.main_asara(["play", "--save", str(taken)])
    assert stop.value.code == 2 and "--force" in capsys.readouterr().err
    assert taken.read_text() == "keep"


def test_quitting_saves_and_resume_ends_where_an_uninterrupted_game_ends(tmp_path):
    whole_term, whole = play_on_terminal(Player(5, replies={"Save the game record?": "n"}))
    path = tmp_path / "game.json"
    quit_player = Player(5, stop=7, replies={"Really quit": "y"})
    _, part = play_on_terminal(quit_player, record_path=str(path))
    saved = read_saved_game(path, "asara")
    assert saved.seats == ["greedy", None, "random"]
    assert saved.record["actions"] == part.actions == whole.actions[: len(part.actions)]
    resumed_player = Player(5, start=7)
    term, rest = play_on_terminal(
        resumed_player, record_path=str(path), resume=resume(RULES, saved)
    )
    assert rest.actions == whole.actions
    assert json.loads(path.read_text())["record"]["actions"] == whole.actions
    assert any(line.startswith("Game saved to") for line in term.lines[-6:])


def test_resume_refuses_another_player_count_naming_both(tmp_path, capsys):
    path = tmp_path / "game.json"
    play_on_terminal(Player(6, stop=2, replies={"Really quit": "y"}), record_path=str(path))
    with pytest.raises(SystemExit) as stop:
        cli.main_asara(["play", "--resume", str(path), "--players", "4"])
    err = capsys.readouterr().err
    assert stop.value.code == 2
    assert "ASARA, 3 players, basic rules" in err and "ASARA, 4 players, basic rules" in err


def test_ctrl_c_saves_the_game_and_says_where(tmp_path):
    path = tmp_path / "game.json"

    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    term = Terminal(interrupt)
    with pytest.raises(Interrupted) as stopped:
        play(GameConfig(2), opponents=["random"], seed=3, input_fn=term.input, print_fn=term.print,
             record_path=str(path))  # fmt: skip
    assert str(stopped.value) == (  # the one message, shared with BASARI
        f"the game stopped after 0 decisions of all seats, seed 3; it is saved in {path}: "
        f"continue it with --resume {path}"
    )
    assert not any("Game saved" in line for line in term.lines)  # said once, not twice
    saved = read_saved_game(path, "asara")
    assert saved.seats == [None, "random"]
    assert GameRecord.from_dict(saved.record).seed == 3


def test_l_shows_again_what_happened_since_the_previous_decision():
    player = Player(8, replies={"Save the game record?": "n"})
    term = Terminal(player)

    def answer(prompt: str) -> str:  # `l` once, at the first move prompt under events
        under_events = EVENTS_TITLE in term.lines[-(HEIGHT - 1) :]
        if MOVE.match(prompt) and "l" not in term.answers and under_events:
            return "l"
        return player(prompt)

    term.answer = answer
    play(GameConfig(3), opponents=["greedy", "random"], seat=SEAT, seed=11, input_fn=term.input,
         print_fn=term.print)  # fmt: skip
    at = term.answers.index("l")
    screen = term.screens[at]
    start = screen.index(EVENTS_TITLE)
    end = next(i for i, line in enumerate(screen) if line.startswith("Your moves"))
    events = screen[start:end]
    assert len(events) > 1
    after = term.lines.index(screen[-1] + "l") + 1
    assert term.lines[after : after + len(events)] == events


def test_resume_takes_the_saved_lineup_unless_the_options_name_another():
    saved = SavedGame("asara", GameRecord(GameConfig(3), 4).to_dict(), ["tall", "greedy", None])
    args = cli.asara_parser().parse_args(["play"])
    options = cli.play_options(args, saved)
    assert (options["config"], options["seat"], options["opponents"]) == (
        GameConfig(3),
        2,
        "tall,greedy",
    )
    args = cli.asara_parser().parse_args(["play", "--opponents", "random,towers"])
    assert cli.play_options(args, saved)["opponents"] == "random,towers"
    args = cli.asara_parser().parse_args(["play", "--seat", "0"])
    options = cli.play_options(args, saved)
    assert options["seat"] == 0 and options["opponents"] == "greedy,random"
    assert options["resume"].seed == 4


def test_the_full_board_lists_the_tile_prices():
    view = seat_view(new_game(GameConfig(3, "pro"), 3), 0)
    prices = ", ".join(
        f"{c} {p}" for c, p in zip(("brown", "green", "red", "black", "white"), PRICE)
    )
    assert f"tile prices in asari: {prices} (gold-decorated the same)" in render_view(view)
