"""A self-play run never destroys what it has: a resumed run's checkpoint, record and rows
are checked whole before any file is changed (a corrupt one is one line naming the file,
exit status 2, every file of the folder as it was), options are checked before the folder
is made, and a run stopped before its first checkpoint resumes from iteration 0."""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import torch

pytest.importorskip("sb3_contrib")

from tests.common.test_selfplay import SMALL, train, weights  # noqa: E402
from training.selfplay.learner import Learner  # noqa: E402

ITER = Path("checkpoints") / "iter-000002"


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run of two iterations (a checkpoint after each, the newest two kept)."""
    out = tmp_path_factory.mktemp("finished") / "r"
    train([*SMALL, "--iterations", "2", "--out", str(out)])
    return out


@pytest.fixture
def run_copy(finished: Path, tmp_path: Path) -> Path:
    out = tmp_path / "r"
    shutil.copytree(finished, out)
    return out


def files(out: Path) -> dict[str, bytes]:
    """Every file of a folder, by relative path, with its bytes."""
    return {str(p.relative_to(out)): p.read_bytes() for p in out.rglob("*") if p.is_file()}


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one line of a usage error (exit status 2)."""
    with pytest.raises(SystemExit) as e:
        train(argv)
    err = capsys.readouterr().err.strip()
    assert e.value.code == 2 and len(err.splitlines()) == 1, err
    return err


def edit_json(path: Path, **changes: object) -> None:
    saved = json.loads(path.read_text())
    path.write_text(json.dumps({**saved, **changes}))


def npz(path: Path, **changes: object) -> None:
    """Rewrite an .npz with some arrays replaced (None: left out)."""
    with np.load(path) as saved:
        arrays = {k: saved[k] for k in saved.files}
    arrays.update(changes)
    np.savez(path, **{k: v for k, v in arrays.items() if v is not None})


def off_mask(path: Path) -> None:
    with np.load(path) as saved:
        masks, policies = saved["masks"], saved["policies"].copy()
    row = int(np.flatnonzero(~masks.all(axis=1))[0])
    policies[row] = np.where(masks[row], 0.0, 1.0 / (~masks[row]).sum())
    npz(path, policies=policies)


def other_optimizer(path: Path) -> None:
    """An Adam state of one parameter of another shape."""
    param = torch.nn.Parameter(torch.zeros(3))
    optimizer = torch.optim.Adam([param])
    param.grad = torch.ones(3)
    optimizer.step()
    torch.save(optimizer.state_dict(), path)


def not_a_model(path: Path) -> None:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("data", "{}")


CORRUPT: dict[str, tuple[str, Callable[[Path], object], str]] = {
    "iteration -5": (
        "counters.json",
        lambda p: edit_json(p, iteration=-5),
        "iteration must be a whole number not below 0",
    ),
    "counters not JSON": ("counters.json", lambda p: p.write_text("{"), "not JSON"),
    "a counter missing": (
        "counters.json",
        lambda p: p.write_text(json.dumps({"iteration": 2})),
        "must be a JSON object of exactly",
    ),
    "another iteration": (
        "counters.json",
        lambda p: edit_json(p, iteration=7),
        "records iteration 7 in the folder iter-000002",
    ),
    "positions": (
        "counters.json",
        lambda p: edit_json(p, positions=1),
        "records 1 positions, buffer.npz",
    ),
    "model missing": ("model.zip", lambda p: p.unlink(), "missing"),
    "model not a zip": ("model.zip", lambda p: p.write_text("x"), "not a .zip file"),
    "model not a model": ("model.zip", not_a_model, "not a saved MaskablePPO model"),
    "optimizer garbage": ("learner.pt", lambda p: p.write_bytes(b"x"), "not a saved"),
    "optimizer of another net": ("learner.pt", other_optimizer, "other parameters"),
    "buffer garbage": ("buffer.npz", lambda p: p.write_text("x"), "not a saved replay buffer"),
    "buffer of objects": (
        "buffer.npz",
        lambda p: npz(p, games=np.array([object()] * 3)),
        "not a saved replay buffer",
    ),
    "buffer lacks an array": ("buffer.npz", lambda p: npz(p, masks=None), "lacks the array"),
    "buffer shape": (
        "buffer.npz",
        lambda p: npz(p, outcomes=np.zeros((3, 7), np.float32)),
        "outcomes must be float32[N, 2]",
    ),
    "buffer off its mask": ("buffer.npz", off_mask, "its mask does not allow"),
}


@pytest.mark.parametrize("case", list(CORRUPT))
def test_a_corrupt_checkpoint_is_one_line_naming_the_file_and_changes_nothing(
    case: str, run_copy: Path, capsys: pytest.CaptureFixture[str]
):
    name, spoil, problem = CORRUPT[case]
    path = run_copy / ITER / name
    spoil(path)
    before = files(run_copy)
    err = refused(["--resume", str(run_copy), "--iterations", "1", "--no-progress"], capsys)
    assert f"argument --resume: {path}: " in err and problem in err
    assert files(run_copy) == before  # progress.csv, eval.csv, tb/, run.json all kept


def test_corrupt_rows_are_refused_before_any_file_changes(run_copy: Path, capsys):
    (run_copy / "eval.csv").write_text("opponent,win_rate\nvalue,0.5\n")
    before = files(run_copy)
    err = refused(["--resume", str(run_copy), "--iterations", "1", "--no-progress"], capsys)
    assert f"{run_copy / 'eval.csv'}: not the run's rows" in err
    assert files(run_copy) == before


@pytest.mark.parametrize(
    "setting, value, problem",
    [
        ("games", -3, "records --games -3: must be at least 1"),
        ("games", "many", 'records --games "many": must be a positive int'),
        ("search", ["prior"], "is not one of ['flatmc', 'gumbel', 'prior']"),
        ("search", "chess:8", "argument --search: search 'chess' is not one of"),
        ("buffer", None, "records --buffer null: must be given"),
        ("eval_opponents", ["value", "flatmc:sims=abc"], "option 'sims' must be an integer"),
    ],
)
def test_a_recorded_setting_no_option_takes_is_refused_before_any_file_changes(
    setting: str, value: object, problem: str, run_copy: Path, capsys
):
    record = run_copy / "run.json"
    saved = json.loads(record.read_text())
    saved["settings"][setting] = value
    record.write_text(json.dumps(saved))
    before = files(run_copy)
    err = refused(["--resume", str(run_copy), "--iterations", "1", "--no-progress"], capsys)
    assert "argument --" in err and problem in err
    assert files(run_copy) == before  # no new TensorBoard file either


def test_a_folder_of_another_trainer_is_not_resumed(tmp_path: Path, capsys):
    out = tmp_path / "ppo"
    out.mkdir()
    (out / "run.json").write_text(json.dumps({"settings": {"steps": 10}, "changes": []}))
    err = refused(["--resume", str(out), "--no-progress"], capsys)
    assert "holds no self-play run" in err


def test_bad_evaluation_opponents_leave_no_folder_behind(tmp_path: Path, capsys):
    out = tmp_path / "r"
    for bad in ("flatmc:sims=abc", "policy:model=missing.zip"):
        refused([*SMALL, "--eval-opponents", f"value,{bad}", "--out", str(out)], capsys)
        assert not out.exists()
    train([*SMALL, "--iterations", "1", "--eval-opponents", "value", "--out", str(out)])
    assert (out / "checkpoints" / "iter-000001").is_dir()


def test_a_run_stopped_before_its_first_checkpoint_resumes_from_iteration_0(
    tmp_path: Path, monkeypatch, capsys
):
    straight, stopped = tmp_path / "straight", tmp_path / "stopped"
    train([*SMALL, "--iterations", "1", "--out", str(straight)])
    real = Learner.update

    def crash(self, buffer, rng):  # the process dies in its first iteration
        raise RuntimeError("killed")

    monkeypatch.setattr(Learner, "update", crash)
    with pytest.raises(RuntimeError):
        train([*SMALL, "--iterations", "3", "--out", str(stopped)])
    monkeypatch.setattr(Learner, "update", real)
    assert (stopped / "run.json").is_file() and not (stopped / "checkpoints").exists()
    capsys.readouterr()
    err = refused([*SMALL, "--iterations", "1", "--out", str(stopped)], capsys)
    assert f"continue it with --resume {stopped}" in err
    train(["--resume", str(stopped), "--iterations", "1", "--no-progress"])
    a, b = weights(straight / "model.zip"), weights(stopped / "model.zip")
    assert all(torch.equal(a[k], b[k]) for k in a)
    for name in ("progress.csv", "eval.csv"):  # the redone rows once, as in the straight run
        assert len((stopped / name).read_text().splitlines()) == len(
            (straight / name).read_text().splitlines()
        )


def test_a_resume_cuts_the_rows_after_its_checkpoint_atomically(run_copy: Path):
    shutil.rmtree(run_copy / ITER)  # the run continues from iteration 1
    train(["--resume", str(run_copy), "--iterations", "1", "--no-progress"])
    rows = (run_copy / "progress.csv").read_text().splitlines()
    assert [r.split(",")[0] for r in rows[1:]] == ["1", "2"]
    assert not list(run_copy.glob(".*tmp*"))


def test_a_checkpoint_reads_back_whole(run_copy: Path):
    """The checks accept what the trainer writes: a resume continues bit for bit."""
    buffer = io.BytesIO((run_copy / ITER / "buffer.npz").read_bytes())
    with np.load(buffer) as saved:
        assert (
            int(saved["added"])
            == json.loads((run_copy / ITER / "counters.json").read_text())["positions"]
        )
    train(["--resume", str(run_copy), "--iterations", "1", "--no-progress"])
    assert (run_copy / "checkpoints" / "iter-000003").is_dir()


@pytest.mark.parametrize("model", ["model.zip", f"{ITER}/model.zip"])
def test_a_self_play_model_by_path_is_held_to_its_player_count(model: str, run_copy, capsys):
    from training.evaluation.basari import evaluate

    path = str(run_copy / model)
    with pytest.raises(SystemExit) as e:
        evaluate.main(["--model", path, "--players", "4"])
    err = capsys.readouterr().err.strip()
    assert e.value.code == 2 and "was trained for 2 players, not 4 (--players)" in err
    assert evaluate.parse_args(["--model", path, "--players", "2"]).players == 2
    shutil.copy(run_copy / model, run_copy.parent / "alone.zip")  # its count is in the file
    with pytest.raises(SystemExit):
        evaluate.main(["--model", str(run_copy.parent / "alone.zip"), "--players", "3"])
    assert "was trained for 2 players, not 3" in capsys.readouterr().err


def test_an_exported_model_keeps_its_player_count(run_copy: Path):
    from sb3_contrib import MaskablePPO

    from training.ppo.export import export
    from training.runfolder import TRAINED_PLAYERS

    path = export(run_copy / "model.zip", run_copy.parent / "small.zip")
    assert getattr(MaskablePPO.load(path, device="cpu"), TRAINED_PLAYERS) == 2
    older = MaskablePPO.load(run_copy / "model.zip", device="cpu")
    delattr(older, TRAINED_PLAYERS)  # a model saved before the count was: its run.json says
    older.save(run_copy / "checkpoints" / "older.zip")
    path = export(run_copy / "checkpoints" / "older.zip", run_copy.parent / "older_small.zip")
    assert getattr(MaskablePPO.load(path, device="cpu"), TRAINED_PLAYERS) == 2
