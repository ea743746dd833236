"""PPO's --resume re-checks the settings its run.json records before touching a file: a
corrupt record is refused in one line naming run.json and the setting."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from training.ppo.run import game_spec, main
from training.ppo.run_args import parse_args, typed_args
from training.runfolder import settings_of


def recorded_run(tmp_path: Path, **changed: Any) -> Path:
    """A run folder of basari's defaults, but `changed`, holding a (junk) model."""
    spec = game_spec("basari")
    args = parse_args(spec, ["--out", str(tmp_path / "fresh")])
    folder = tmp_path / "run"
    folder.mkdir()
    settings = settings_of(typed_args(args)) | changed
    (folder / "run.json").write_text(json.dumps({"settings": settings}))
    (folder / "final.zip").write_bytes(b"not a model")
    return folder


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def usage_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exc:
        main(["basari", *argv])
    assert exc.value.code == 2
    lines = capsys.readouterr().err.strip().splitlines()
    return lines[-1]


@pytest.mark.parametrize(
    "setting, value, said",
    [
        ("n_steps", -3, "--n-steps -3"),
        ("envs", "many", '--envs "many"'),
        ("reward", "nope", '--reward "nope"'),
        ("opponents", "random+nobody", '--opponents "random+nobody"'),
        ("steps", -3, "--steps -3"),
        ("eval_opponents", ["value", 5], '--eval-opponents ["value", 5]'),
    ],
)
def test_a_corrupt_setting_in_run_json_is_refused_naming_it(tmp_path, capsys, setting, value, said):
    folder = recorded_run(tmp_path, **{setting: value})
    before = files(folder)
    line = usage_error(["--resume", str(folder)], capsys)
    assert f"{folder / 'run.json'} records {said}:" in line, line
    assert files(folder) == before


def test_a_sound_record_resumes_to_the_model(tmp_path, capsys):
    folder = recorded_run(tmp_path, opponents="random*2+value")
    line = usage_error(["--resume", str(folder)], capsys)
    assert "final.zip is not a saved MaskablePPO model" in line, line


def test_the_older_opponents_form_says_how_to_go_on(tmp_path, capsys):
    folder = recorded_run(tmp_path, opponents="random:2,value:1")
    before = files(folder)
    line = usage_error(["--resume", str(folder)], capsys)
    assert "records --opponents 'random:2,value:1' in the older" in line, line
    assert "continue with --opponents 'random*2+value' --change-settings (" in line
    assert files(folder) == before
    given = ["--resume", str(folder), "--opponents", "random*2+value", "--change-settings"]
    line = usage_error(given, capsys)
    assert "final.zip is not a saved MaskablePPO model" in line, line
