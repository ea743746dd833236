"""One saved game, every loader: each format the project writes (a terminal game's
`--save`, a game record, an env's `save_game()`, the web page's download of a game from a
seed and of a game from a saved position) is read by every loader (the terminal games'
`--resume`, the web page's upload, the envs' `load_game`), for both games, at the same
position; a file that is not one, or is the other game's, is refused with one line."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from apps.asara.cli import main_asara
from apps.asara.play import play as asara_play
from apps.basari.play import main as basari_main
from apps.basari.play import play as basari_play
from apps.webgame import load_web_game
from asara_env import asara_v0, basari_v0
from asara_env.asara.config import GameConfig
from asara_env.asara.reference.record import RULES as ASARA_RULES
from asara_env.basari.config import BasariConfig
from asara_env.basari.reference.record import RULES as BASARI_RULES
from asara_env.common.record import (
    Rules,
    a_or_an,
    load_game,
    read_saved_game,
    state_schema,
    write_saved_game,
)
from tests.common.terminal import Player, Terminal

QUIT_AFTER = 4  # the person's decisions played before the terminal game is quit and saved
SEAT = 1


@dataclass(frozen=True)
class Game:
    """What the tests need of one game: its rules, a terminal game played by a script, its
    command line, and a fresh env of the saved game's configuration."""

    rules: Rules[Any, Any]
    play: Callable[..., Any]
    options: dict[str, Any]
    main: Callable[[list[str]], Any]
    env: Callable[[int], Any]


GAMES = {
    "asara": Game(
        ASARA_RULES,
        asara_play,
        {"config": GameConfig(2), "opponents": ["greedy"], "seed": 3},
        lambda argv: main_asara(argv),
        lambda players: asara_v0.env(num_players=players),
    ),
    "basari": Game(
        BASARI_RULES,
        basari_play,
        {"config": BasariConfig(3), "opponents": "value", "seed": 4},
        basari_main,
        lambda players: basari_v0.parallel_env(num_players=players),
    ),
}


def terminal_save(name: str, path: Path) -> dict[str, Any]:
    """What the terminal game's `--save` writes when the person quits."""
    game = GAMES[name]
    save_key = "record_path" if name == "asara" else "save_path"
    term = Terminal(Player(5, stop=QUIT_AFTER, replies={"Really": "y", "Save the": "n"}))
    options = game.options | {save_key: str(path), "seat": SEAT}
    game.play(**options, input_fn=term.input, print_fn=term.print)
    return dict(json.loads(path.read_text()))


def env_save(name: str, record: dict[str, Any]) -> dict[str, Any]:
    """An env's `save_game()` at the record's last position, the env stepped to it."""
    resumed = load_game(GAMES[name].rules, record)
    env = GAMES[name].env(resumed.config.num_players)
    if name == "asara":
        env.reset(seed=resumed.seed)
        for action in resumed.actions:
            env.step(action)
    else:
        env.reset(seed=resumed.seed)
        for joint in resumed.actions:
            env.step(dict(zip(env.possible_agents, joint)))
    return dict(env.save_game())


def web_download(name: str, upload: dict[str, Any], opponents: list[str]) -> dict[str, Any]:
    """The web page's download of the game continued from `upload`."""
    page = load_web_game(name)
    session = page.resume(page.load(upload), opponents, SEAT)
    return session.record()


def written(name: str, tmp_path: Path) -> dict[str, dict[str, Any]]:
    """Every format the project writes, of one game of `name`, keyed by the writer."""
    save = terminal_save(name, tmp_path / "terminal.json")
    opponents = [n for n in save["seats"] if n is not None]
    position = env_save(name, save["record"])
    return {
        "terminal --save": save,
        "game record": save["record"],
        "env save_game()": position,
        "web download": web_download(name, save, opponents),
        "web download of a saved position": web_download(name, position, opponents),
    }


def final_position(name: str, data: object) -> dict[str, Any]:
    """The saved position (`state_to_dict`) where the game in `data` goes on."""
    rules = GAMES[name].rules
    return dict(rules.state_to_dict(load_game(rules, data).final()))


@pytest.fixture(scope="module", params=sorted(GAMES))
def files(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory):
    name = str(request.param)
    return name, written(name, tmp_path_factory.mktemp(name))


def test_every_writer_writes_the_same_position(files):
    name, made = files
    expected = final_position(name, made["terminal --save"])
    assert made["env save_game()"] == expected  # the env's save is the position itself
    assert expected["schema"] == state_schema(name)  # how a bare position names its game
    for writer, data in made.items():
        assert final_position(name, data) == expected, writer
    assert made["web download"]["record"] == made["game record"]
    assert made["web download of a saved position"]["record"]["state"] == expected
    assert made["terminal --save"]["record"]["actions"], "the person played before quitting"


def test_the_envs_load_every_format_at_its_last_position(files):
    name, made = files
    expected = final_position(name, made["terminal --save"])
    for writer, data in made.items():
        env = GAMES[name].env(expected["config"]["num_players"])
        env.load_game(data)
        assert env.save_game() == expected, writer


def test_the_gymnasium_envs_load_every_format_at_its_last_position(files):
    from asara_env.asara.gym_env import AsaraGymEnv
    from asara_env.basari.gym_env import BasariGymEnv

    name, made = files
    expected = final_position(name, made["terminal --save"])
    gym_env = {"asara": AsaraGymEnv, "basari": BasariGymEnv}[name]
    env = gym_env(num_players=expected["config"]["num_players"])
    for writer, data in made.items():
        env.load_game(data, seat=SEAT)  # the learner's turn there: no opponent moves first
        assert env.save_game() == expected, writer


def test_the_web_page_loads_every_format_at_its_last_position(files):
    name, made = files
    page = load_web_game(name)
    expected = final_position(name, made["terminal --save"])
    for writer, data in made.items():
        loaded = page.load(data)
        origin, decisions = loaded.item
        assert origin.engine.rules.state_to_dict(origin.position(decisions)) == expected, writer
        has_lineup = writer.startswith(("terminal", "web"))
        assert (loaded.seat == SEAT) if has_lineup else loaded.lineup is None, writer


def test_the_terminal_games_resume_every_format_at_its_last_position(
    files, tmp_path, monkeypatch, capsys
):
    """`play --resume FILE --save OUT`, quit at once: OUT holds the same game (the same
    start, the file's actions first), and the game said where it continued."""
    name, made = files
    game = GAMES[name]
    for writer, data in made.items():
        path, out = tmp_path / "in.json", tmp_path / "out.json"
        path.write_text(json.dumps(data))
        out.unlink(missing_ok=True)
        monkeypatch.setattr(sys, "stdin", io.StringIO("q\ny\n" * 8))
        game.main(["play", "--resume", str(path), "--save", str(out)])
        said = capsys.readouterr().out
        before = load_game(game.rules, data)
        after = load_game(game.rules, read_saved_game(out, name).to_dict())
        assert (after.start, after.seed, after.config) == (before.start, before.seed, before.config)
        assert after.actions[: len(before.actions)] == before.actions, writer
        if before.start is None:  # from a seed: the seed is said, to play the game again
            assert f"seed {before.seed} (continued after {len(before.actions)}" in said, writer
        else:  # from a saved position: no seed plays it again
            assert "continued from a saved position" in said and "seed" not in said, writer


def foreign_files(name: str, made: dict[str, dict[str, Any]]) -> list[tuple[object, str]]:
    """Files the game `name` must refuse, with words its one-line refusal names."""
    other = "basari" if name == "asara" else "asara"
    record = made["game record"]
    illegal = record | {"actions": record["actions"][1:]}  # not legal in turn
    download = made["web download"]
    return [
        ("{not json", "is not JSON"),
        ([1, 2], "a saved game is a JSON object"),
        ({"x": 1}, f"game record nor a saved {name.upper()} game"),
        (download | {"game": other}, f"this is {a_or_an(other.upper())}"),
        (download | {"seat": 7}, "seat 7"),
        ({"schema": state_schema(other), "version": 1}, f"saved {other.upper()} position"),
        (illegal, "cannot be replayed"),
        ({"state": made["env save_game()"], "actions": "x"}, "actions"),
    ]


def test_a_corrupt_or_foreign_file_is_one_line_exit_2_and_no_traceback(files, tmp_path, capsys):
    name, made = files
    for data, words in foreign_files(name, made):
        path = tmp_path / "bad.json"
        path.write_text(data if isinstance(data, str) else json.dumps(data))
        with pytest.raises(SystemExit) as stop:
            GAMES[name].main(["play", "--resume", str(path)])
        err = capsys.readouterr().err
        message = err.strip().splitlines()[-1]
        assert stop.value.code == 2 and "Traceback" not in err, err
        assert message.startswith(f"{name}") and "--resume" in message and words in message, err


def test_the_env_refuses_what_is_not_a_saved_game_and_keeps_its_game(files):
    name, made = files
    expected = final_position(name, made["terminal --save"])
    env = GAMES[name].env(expected["config"]["num_players"])
    env.load_game(made["env save_game()"])
    for data, words in foreign_files(name, made)[2:]:  # the files, not their text
        with pytest.raises(ValueError, match=words.split("(")[0]):
            env.load_game(data)
        assert env.save_game() == expected


def test_write_saved_game_round_trips_a_game_from_a_saved_position(files, tmp_path):
    name, made = files
    saved = read_saved_game_of(made["web download of a saved position"], name, tmp_path)
    write_saved_game(tmp_path / "again.json", saved)
    assert read_saved_game(tmp_path / "again.json", name) == saved


def read_saved_game_of(data: dict[str, Any], name: str, tmp_path: Path):
    path = tmp_path / "file.json"
    path.write_text(json.dumps(data))
    return read_saved_game(path, name)


PAGE_GAMES = {
    "asara": {"players": 2, "opponents": ["random"], "seed": 5, "seat": SEAT},
    "basari": {"players": 3, "opponents": ["random", "value"], "seed": 5, "seat": SEAT},
}
FINAL_WORDS = {"asara": "Game over. Final scoring", "basari": "Final scores:"}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_pages_download_of_a_finished_game_opens_on_the_terminal_at_its_end(
    name, tmp_path, monkeypatch, capsys
):
    """The page offers its download once the game is over: `play --resume` shows the
    final scoring and saves the same game."""
    session = load_web_game(name).start(PAGE_GAMES[name])
    while not session.over:
        session.play(session.view()["moves"][-1]["id"], None)
    download = session.record()
    path, out = tmp_path / "download.json", tmp_path / "out.json"
    path.write_text(json.dumps(download))
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n" * 20))  # Enter at every pause
    GAMES[name].main(["play", "--resume", str(path), "--save", str(out)])
    said = capsys.readouterr().out
    assert f"continued after {len(download['record']['actions'])}" in said
    assert FINAL_WORDS[name] in said
    assert read_saved_game(out, name).record == download["record"]
