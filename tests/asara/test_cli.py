"""The main job: a seeded game between random players, its scoring table and records."""

import json

import pytest

from apps.asara import cli
from asara_env import GameConfig
from asara_env.asara.reference.record import GameRecord, replay
from asara_env.asara.reference.serialize import state_to_dict


def test_main_job_prints_the_final_table_and_saves_a_replayable_record(tmp_path, capsys):
    record_path, state_path = tmp_path / "record.json", tmp_path / "state.json"
    cli.main(
        [
            "--players",
            "3",
            "--variant",
            "pro",
            "--seed",
            "4",
            "--save-record",
            str(record_path),
            "--save-state",
            str(state_path),
        ]
    )
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[1].split()[:3] == ["seat", "track", "brown"]
    assert [line.split()[0] for line in lines[2:5]] == ["0", "1", "2"]
    assert lines[5].startswith("winner")
    final = replay(GameRecord.from_dict(json.loads(record_path.read_text())))
    assert state_to_dict(final) == json.loads(state_path.read_text())
    totals = [int(line.split()[-1]) for line in lines[2:5]]
    assert totals == final.prestige


def test_the_same_seed_prints_the_same_game(capsys):
    state_a, record_a = cli.play_random_game(GameConfig(num_players=2), 9)
    state_b, record_b = cli.play_random_game(GameConfig(num_players=2), 9)
    assert record_a.actions == record_b.actions
    assert cli.scoring_table(state_a) == cli.scoring_table(state_b)


def test_R9_a_random_game_with_the_expansions_replays_from_its_record(tmp_path, capsys):
    path = tmp_path / "record.json"
    args = ["--players", "3", "--variant", "pro", "--expansions", "genie,gifts", "--seed", "4"]
    cli.main(args + ["--save-record", str(path)])
    assert "pro + genie + gifts rules" in capsys.readouterr().out.splitlines()[0]
    record = GameRecord.from_dict(json.loads(path.read_text()))
    assert record.config == GameConfig(3, "pro", ("genie", "gifts"))
    assert replay(record).is_over


def test_R9_the_genie_without_the_professional_variant_is_refused(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["--expansions", "genie"])
    assert exc.value.code == 2
    assert "needs the professional variant" in capsys.readouterr().err
