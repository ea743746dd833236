"""The run folder every trainer shares (training/runfolder.py): settings recorded once, a
resume with other settings refused naming each difference unless the change is wanted,
then recorded beside the original."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from commandline import command
from training import runfolder


def _parser() -> argparse.ArgumentParser:
    p = command.parser("t")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--reward", default="win")
    p.add_argument("--pair", type=lambda t: t.split(","), default="a,b")
    p.add_argument("--out", type=Path)
    p.add_argument("--resume", action="store_true")
    p.add_argument("--force", action="store_true")
    p.add_argument("--steps", type=int, default=10)
    runfolder.add_change_argument(p)
    return p


def _settings(argv: list[str], out: Path | None = None) -> dict[str, object]:
    p = _parser()
    if out is not None:
        runfolder.resume_defaults(p, out)
    return runfolder.settings_of(vars(p.parse_args(argv)))


def _usage_error(capsys: pytest.CaptureFixture[str], **kw: object) -> str:
    with pytest.raises(SystemExit) as exc:
        runfolder.check(_parser(), **kw)  # type: ignore[arg-type]
    assert exc.value.code == 2
    return capsys.readouterr().err


def test_settings_leave_out_the_session_options() -> None:
    settings = _settings(["--steps", "5", "--out", "x"])
    assert settings == {"players": 2, "reward": "win", "pair": ["a", "b"]}


def test_a_new_run_records_its_settings_once(tmp_path: Path) -> None:
    out = tmp_path / "r"
    started = runfolder.start(out, _settings([]), resuming=False, force=False, at=0)
    assert started.moved is None and started.change == {}
    runfolder.update_record(out, {"seconds": 3.0})
    record = json.loads((out / "run.json").read_text())
    assert record == {"settings": _settings([]), "changes": [], "seconds": 3.0}
    with pytest.raises(ValueError, match="written once"):
        runfolder.update_record(out, {"settings": {}})


def test_a_resume_keeps_the_recorded_settings_not_given(tmp_path: Path) -> None:
    out = tmp_path / "r"
    runfolder.start(
        out, _settings(["--players", "3", "--pair", "x"]), resuming=False, force=False, at=0
    )
    assert _settings([], out) == {"players": 3, "reward": "win", "pair": ["x"]}


def test_a_resume_with_other_settings_is_refused_naming_each_difference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r"
    runfolder.start(out, _settings([]), resuming=False, force=False, at=0)
    before = (out / "run.json").read_bytes()
    other = _settings(["--players", "3", "--reward", "margin"], out)
    err = _usage_error(capsys, out=out, settings=other, resuming=True, force=False, change=False)
    assert err.count("\n") == 1 and "players 2 -> 3" in err and 'reward "win" -> "margin"' in err
    assert "--change-settings" in err and "--players --reward" in err
    assert (out / "run.json").read_bytes() == before


def test_a_wanted_change_is_recorded_beside_the_original(tmp_path: Path) -> None:
    out = tmp_path / "r"
    first = _settings([])
    runfolder.start(out, first, resuming=False, force=False, at=0)
    other = _settings(["--reward", "margin"], out)
    runfolder.check(_parser(), out, other, resuming=True, force=False, change=True)
    started = runfolder.start(out, other, resuming=True, force=False, at=128)
    assert started.change == {"reward": ("win", "margin")}
    record = json.loads((out / "run.json").read_text())
    assert record["settings"] == first
    assert [(c["at"], c["changed"]) for c in record["changes"]] == [
        (128, {"reward": ["win", "margin"]})
    ]
    assert runfolder.recorded_settings(out) == other and runfolder.segment(out) == 1
    assert runfolder.change_marks(out) == [(128, 'reward "win" -> "margin"')]
    runfolder.start(out, other, resuming=True, force=False, at=256)  # the same again: no change
    assert runfolder.segment(out) == 1


def test_new_runs_refuse_a_folder_that_holds_one_and_force_moves_it_aside(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r"
    runfolder.start(out, _settings([]), resuming=False, force=False, at=0)
    err = _usage_error(
        capsys, out=out, settings=_settings([]), resuming=False, force=False, change=False
    )
    assert "--resume" in err and "--force" in err and str(out) in err
    err = _usage_error(
        capsys, out=out, settings=_settings([]), resuming=False, force=False, change=True
    )
    assert "--change-settings" in err
    err = _usage_error(
        capsys, out=out, settings=_settings([]), resuming=True, force=True, change=False
    )
    assert "nothing to replace" in err
    started = runfolder.start(out, _settings(["--players", "4"]), resuming=False, force=True, at=0)
    assert started.moved == tmp_path / "r.old-1" and (started.moved / "run.json").exists()
    assert runfolder.recorded_settings(out) == _settings(["--players", "4"])


def test_an_older_record_reads_its_args_as_settings(tmp_path: Path) -> None:
    out = tmp_path / "r"
    out.mkdir()
    args = {"players": 2, "reward": "win", "pair": ["a", "b"], "steps": 64, "out": str(out)}
    (out / "run.json").write_text(json.dumps({"args": args, "seconds": 1.0}))
    assert runfolder.recorded_settings(out) == _settings([])
    runfolder.start(out, _settings(["--players", "3"]), resuming=True, force=False, at=64)
    record = json.loads((out / "run.json").read_text())
    assert record["settings"] == _settings([]) and record["seconds"] == 1.0
    assert record["changes"][0]["changed"] == {"players": [2, 3]}


def test_an_unreadable_record_is_a_usage_error_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r"
    out.mkdir()
    (out / "run.json").write_text("{not json")
    err = _usage_error(
        capsys, out=out, settings=_settings([]), resuming=True, force=False, change=False
    )
    assert "run.json is not a readable run record" in err
