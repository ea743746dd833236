"""The BASARI terminal game at exactly 80x24, through input and output: what happened
since the person's last decision (the cards, the offers, each round's end as a table)
stays on screen, the merchant's row is always there, help breaks between words, and
games are saved (checked before play, on quit) and resumed to the same end."""

import json
import re
from pathlib import Path

import numpy as np
import pytest

from apps.basari.play import HELP, main, parse_args, play, play_options
from asara_env.basari.config import BasariConfig
from asara_env.basari.constants import CARD_NAMES, COLOUR_NAMES, LAP_BONUS
from asara_env.basari.reference.engine import new_game, step
from asara_env.basari.reference.record import RULES, GameRecord
from asara_env.basari.reference.rules import acting_seats
from asara_env.basari.reference.scoring import end_round
from asara_env.common.record import read_saved_game, resume
from commandline.command import Interrupted
from tests.common.terminal import MOVE, Player, Terminal

SEAT = 1
LABELS = ["P0", "P1 you", "P2"]


def play_on_terminal(player: Player, **kwargs):
    term = Terminal(player)
    options = dict(config=BasariConfig(3), opponents="value", seat=SEAT, seed=4)
    final = play(**{**options, **kwargs}, input_fn=term.input, print_fn=term.print)
    return term, final


def expected_events(record: GameRecord) -> list[list[str]]:
    """Per decision of SEAT: the cards revealed and the round ends since its previous
    decision."""
    state = new_game(record.config, record.seed)
    events: list[list[str]] = []
    since: list[str] = []
    for joint in record.actions:
        if SEAT in acting_seats(state):
            events.append(since)
            since = []
        if state.phase.name == "SELECT":
            cards = [CARD_NAMES[state.config.actions.decode(a)[1] or 0] for a in joint]
            since.append("cards: " + ", ".join(f"{x} {c}" for x, c in zip(LABELS, cards)))
        rounds = state.round
        step(state, joint)
        if state.round != rounds:
            since.append(f"End of round {rounds + 1}:")
    return events


def test_after_each_decision_the_80x24_screen_held_the_cards_offers_and_round_ends(
    tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)  # a short path: the line saying where is within 80 columns
    path = Path("game.json")
    term, final = play_on_terminal(Player(1), save_path=str(path))
    assert final is not None and not term.too_wide()
    record = GameRecord.from_dict(read_saved_game(path, "basari").record)
    decisions = [
        i for i, (s, reply) in enumerate(zip(term.screens, term.answers))
        if MOVE.match(s[-1]) and reply.isdigit()
    ]  # fmt: skip
    expected = expected_events(record)
    assert len(decisions) == len(expected) > 20
    assert sum(any(e.startswith("End of round") for e in x) for x in expected) == 2
    previous = -1
    for index, events in zip(decisions, expected):
        seen = [line for screen in term.screens[previous + 1 : index + 1] for line in screen]
        for event in events:
            assert any(event in line for line in seen), (event, seen)
        assert any(line.startswith("P1 you ") for line in term.screens[index])  # my merchant
        previous = index
    for screen in term.screens:  # a round-end table is never split between two screens
        ends = [i for i, line in enumerate(screen) if "End of round" in line]
        assert all(any("Scores: " in line for line in screen[i:]) for i in ends)


def test_ctrl_c_saves_the_game_and_says_where(tmp_path):
    path = tmp_path / "game.json"

    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    term = Terminal(interrupt)
    with pytest.raises(Interrupted) as stopped:
        play(
            BasariConfig(3),
            "value",
            SEAT,
            seed=4,
            input_fn=term.input,
            print_fn=term.print,
            save_path=str(path),
        )
    assert str(stopped.value) == (  # the one message, shared with ASARA
        f"the game stopped after 0 steps of all seats, seed 4; it is saved in {path}: "
        f"continue it with --resume {path}"
    )
    assert not any("Game saved" in line for line in term.lines)  # said once, not twice
    saved = read_saved_game(path, "basari")
    assert saved.seats == ["value", None, "value"] and saved.record["actions"] == []


def test_the_full_layout_shows_every_archway():
    term, final = play_on_terminal(Player(7), layout="full")
    assert final is not None
    boards = [i for i, line in enumerate(term.lines) if line.startswith("archway  pts  gems")]
    assert boards and all(term.lines[i + 28].strip().startswith("27 ") for i in boards)


def test_the_round_end_table_shows_the_gems_compared_the_laps_and_the_returns():
    term, _ = play_on_terminal(Player(2))
    text = "\n".join(term.lines)
    tables = re.findall(r"End of round \d.*?\nScores?:.*?\n|End of round \d(?:.*\n){9}", text)
    assert len(tables) == 3
    for table in tables:
        rows = [line.split() for line in table.splitlines() if line.split()[:1] in
                [[c] for c in COLOUR_NAMES]]  # fmt: skip
        assert [row[0] for row in rows] == list(COLOUR_NAMES)
        for row in rows:
            held = [int(x) for x in row[1:4]]
            most = [f"P{s}" for s, x in enumerate(held) if x == max(held)] if max(held) else []
            assert row[4] == ("+".join(most) or "nobody")
            back = int(row[6])
            assert back == (min(3 if len(most) == 1 else 2, max(held)) if most else 0)
        assert f"Lap bonus +{LAP_BONUS}" in table


def test_end_round_returns_exactly_what_it_scored():
    state = new_game(seed=3)
    rng = np.random.default_rng(0)
    state.gems[:] = rng.integers(0, 6, state.gems.shape)
    state.progress[:] = [state.n_archways, 0, 2, state.n_archways][: state.num_players]
    before = state.copy()
    scored = end_round(state)
    points = np.array([LAP_BONUS * lapped for lapped in scored.lapped])
    for m in scored.majorities:
        assert list(m.held) == before.gems[:, m.colour].tolist()
        for s in m.holders:
            points[s] += m.points
            assert state.gems[s, m.colour] == before.gems[s, m.colour] - m.returned
    assert (state.score - before.score).tolist() == points.tolist()
    assert scored.lapped == tuple(bool(x) for x in before.lapped)


def test_help_is_broken_between_words_within_80_columns():
    term, _ = play_on_terminal(Player(3, script=["?"], stop=0, replies={"Really": "y"}))
    start = next(i for i, line in enumerate(term.lines) if line == "How to answer:")
    end = next(i for i, line in enumerate(term.lines) if i > start and MOVE.match(line))
    shown = [line for line in term.lines[start:end] if not line.startswith("-- Enter")]
    assert max(map(len, shown)) <= 80 and len(shown) > len(HELP.splitlines())
    assert " ".join(shown).split() == HELP.split()


def test_a_move_named_that_is_not_legal_is_refused_with_the_reason():
    player = Player(3, script=["accept the offer"], stop=0, replies={"Really": "y"})
    term, final = play_on_terminal(player)
    assert final is None
    assert any(line.startswith("Not now: accept the offer: ") for line in term.lines)


def test_save_to_a_bad_path_or_an_existing_file_is_refused_before_play(tmp_path, capsys):
    taken = tmp_path / "taken.json"
    taken.write_text("keep")
    for argv, words in [
        (["--save", str(tmp_path / "missing" / "x.json")], "no folder"),
        (["--save", str(taken)], "--force"),
    ]:
        with pytest.raises(SystemExit) as stop:
            main(["play", *argv])
        assert stop.value.code == 2 and words in capsys.readouterr().err
    assert taken.read_text() == "keep"


def test_quitting_saves_and_resume_ends_where_an_uninterrupted_game_ends(tmp_path):
    whole_path, path = tmp_path / "whole.json", tmp_path / "part.json"
    play_on_terminal(Player(5), save_path=str(whole_path))
    whole = read_saved_game(whole_path, "basari").record
    play_on_terminal(Player(5, stop=9, replies={"Really": "y"}), save_path=str(path))
    saved = read_saved_game(path, "basari")
    assert saved.seats == ["value", None, "value"]
    part = saved.record["actions"]
    assert 0 < len(part) < len(whole["actions"]) and part == whole["actions"][: len(part)]
    resumed = resume(RULES, saved)
    _, final = play_on_terminal(Player(5, start=9), save_path=str(path), resume=resumed)
    assert final is not None
    assert json.loads(path.read_text())["record"] == whole


def test_resume_refuses_another_player_count_naming_both(tmp_path, capsys):
    path = tmp_path / "game.json"
    play_on_terminal(Player(6, stop=2, replies={"Really": "y"}), save_path=str(path))
    with pytest.raises(SystemExit) as stop:
        main(["play", "--resume", str(path), "--players", "2"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "BASARI, 3 players" in err and "BASARI, 2 players" in err


def test_without_a_seed_each_game_draws_its_own_and_says_it(tmp_path):
    """As in ASARA: a game without --seed is a new one, and its first line tells the
    seed that plays it again."""
    seeds = []
    for k in range(2):
        path = tmp_path / f"game{k}.json"
        term = Terminal(Player(1, stop=0, replies={"Really": "y"}))
        play(BasariConfig(2), "random", 0, seed=None, input_fn=term.input, print_fn=term.print,
             save_path=str(path))  # fmt: skip
        seed = read_saved_game(path, "basari").record["seed"]
        first = " ".join(line.strip() for line in term.lines[:2])  # wrapped at 80 columns
        assert f"seed {seed} (play it again with --seed {seed})" in first
        seeds.append(seed)
    assert seeds[0] != seeds[1]
    args = parse_args(["play"])[0]
    assert play_options(args, None)["seed"] is None
