"""Saved games across the terminal games: a save is refused by the other game's command
(naming the game it belongs to), and by `read_saved_game` when it is not a save."""

import json

import pytest

from apps.asara.cli import main_asara
from apps.basari.play import main as basari_main
from asara_env.common.record import (
    SavedGame,
    read_saved_game,
    saved_game_from_dict,
    write_saved_game,
)

RECORD = {"config": {}, "seed": 1, "actions": []}


@pytest.mark.parametrize(
    "game, other, command",
    [("asara", "basari", basari_main), ("basari", "asara", main_asara)],
)
def test_a_save_of_one_game_is_refused_by_the_other_naming_both(
    tmp_path, capsys, game, other, command
):
    path = tmp_path / "game.json"
    write_saved_game(path, SavedGame(game, RECORD, [None, "random"]))
    with pytest.raises(SystemExit) as stop:
        command(["play", "--resume", str(path)])
    err = capsys.readouterr().err
    article = "an" if other == "asara" else "a"
    assert stop.value.code == 2 and f"saved '{game}' game, not {article} '{other}' one" in err


@pytest.mark.parametrize("game, words", [("asara", "an ASARA"), ("basari", "a BASARI")])
def test_the_refusal_of_a_non_game_names_the_game_with_its_article(game, words):
    with pytest.raises(ValueError, match=f"neither {words} game record"):
        saved_game_from_dict({"x": 1}, game)


def test_saves_round_trip_and_bare_records_are_read(tmp_path):
    path = tmp_path / "game.json"
    write_saved_game(path, SavedGame("asara", RECORD, ["greedy", None]))
    assert read_saved_game(path, "asara") == SavedGame("asara", RECORD, ["greedy", None])
    path.write_text(json.dumps(RECORD))
    assert read_saved_game(path, "basari") == SavedGame("basari", RECORD, None)


@pytest.mark.parametrize(
    "text, words",
    [
        ("{", "is not JSON"),
        ("[1]", "a saved game is a JSON object"),
        ('{"a": 1}', "neither an ASARA game record nor a saved ASARA game"),
        ('{"schema": "asara-env/saved-game", "version": 1}', "has the keys"),
    ],
)
def test_what_is_not_a_save_is_refused_naming_the_file(tmp_path, text, words):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(ValueError, match=words) as error:
        read_saved_game(path, "asara")
    assert str(path) in str(error.value)
