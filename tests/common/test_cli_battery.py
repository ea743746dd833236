"""The command-line battery: every console script of both games (pyproject.toml's
[project.scripts]) against a table of bad values, and the cases where an output could be
overwritten.

A bad command line must end before any work with exit status 2 and exactly one line on
stderr that names the argument, no traceback, and nothing written (the folder it runs in
unchanged). Most lines run in-process through the script's `main(argv)`; a few run as
subprocesses to show that no traceback reaches stderr.
"""

from __future__ import annotations

import csv
import hashlib
import importlib
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from agents.models import model_path

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10 (requires-python) has no tomllib
    tomllib = pytest.importorskip("tomli")

REPO = Path(__file__).resolve().parents[2]
README = str(REPO / "README.md")
ASARA_MODEL = str(model_path("asara", "ppo_2p"))
BASARI_MODEL = str(model_path("basari", "ppo_4p"))
MISSING = "/nonexistent_dir/x"
SCRIPTS: dict[str, str] = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]


def script(name: str) -> Callable[..., Any]:
    """The console script `name`'s function."""
    module, _, function = SCRIPTS[name].partition(":")
    main: Callable[..., Any] = getattr(importlib.import_module(module), function)
    return main


def _seeds(*prefix: str) -> list[tuple[list[str], str]]:
    return [([*prefix, "--seed", v], "--seed") for v in ("-1", "abc", str(2**64))]


def _counts(flag: str, *prefix: str, huge: str = "1000000000000000") -> list[tuple[list[str], str]]:
    return [([*prefix, flag, v], flag) for v in ("0", "-3", "x", "2.5", huge)]


AGENT_SPECS_BAD = ["nobody", "ismcts:sims=abc", "ismcts:widen=2", "policy:model=nonexist.zip"]
TOURNAMENT_BAD = (
    _seeds()
    + _counts("--games")
    + _counts("--chunk-size")
    + [(["--players", v], "--players") for v in ("5", "1", "two")]
    + [(["--agents", v], "--agents") for v in AGENT_SPECS_BAD]
    + [(["--agents", "random,random"], "--agents"), (["--agents", ","], "--agents")]
    + [(["--out", f"{README}/sub"], "--out"), (["--out", README], "--out")]
)
LADDER_BAD = [b for b in TOURNAMENT_BAD if b[1] != "--chunk-size"] + [
    (["--agents", "a=random", "a=greedy"], "--agents"),
    (["--agents", "a=random,a=greedy"], "--agents"),
    (["--agents", "random"], "--agents"),  # one agent: nothing to place it against
]
TRAIN_BAD = (
    _seeds()
    + _counts("--steps")
    + _counts("--envs")
    + _counts("--eval-games")
    + _counts("--bc-games")
    + _counts("--n-steps", huge="x1")
    + [(["--players", v], "--players") for v in ("5", "0", "two")]
    + [(["--learning-rate", v], "--learning-rate") for v in ("0", "-1", "2", "nan", "inf")]
    + [(["--gamma", v], "--gamma") for v in ("1.5", "-0.1")]
    + [
        (["--opponents", v], "--opponents")
        for v in ("nobody", "random*-1", "random*0", "x*y", "random+")
    ]
    + [(["--eval-opponents", "nobody"], "--eval-opponents")]
    + [(["--resume", v], "--resume") for v in ("nonexist.zip", README, MISSING)]
    + [(["--out", README], "--out"), (["--out", f"{README}/sub"], "--out")]
    + [(["--reward", "best"], "--reward")]
)
SELFPLAY_BAD = (
    _seeds()
    + _counts("--games")
    + _counts("--iterations")
    + [(["--search", f"gumbel:{v}"], "--search") for v in ("0", "-3", "x", "2.5", "10**9")]
    + _counts("--eval-games")
    + _counts("--updates")
    + [(["--players", v], "--players") for v in ("5", "0", "two")]
    + [(["--learning-rate", v], "--learning-rate") for v in ("0", "-1", "2", "nan", "inf")]
    + [(["--eval-opponents", v], "--eval-opponents") for v in ("nobody", ",")]
    + [(["--start", v], "--start") for v in ("nonexist.zip", README, MISSING)]
    + [(["--resume", v], "--resume") for v in (README, MISSING)]
    + [(["--out", README], "--out"), (["--out", f"{README}/sub"], "--out")]
    + [(["--reward", "best"], "--reward"), (["--search", "alphabeta"], "--search")]
)
EVALUATE_BAD = (
    _seeds()
    + _counts("--games")
    + [(["--players", v], "--players") for v in ("5", "x")]
    + [(["--model", v], "--model") for v in ("nonexist.zip", README, "ppo_9p", MISSING)]
    + [(["--opponents", v], "--opponents") for v in AGENT_SPECS_BAD]
    + [(["--out", README], "--out")]
)
PLAY_BAD = (
    _seeds()
    + [(["--players", v], "--players") for v in ("5", "1", "x")]
    + [(["--seat", v], "--seat") for v in ("-1", "9", "x")]
    + [(["--players", "2", "--seat", "2"], "--seat")]
    + [(["--players", "2", "--opponents", v], "--opponents") for v in AGENT_SPECS_BAD]
)
RANDOM_BAD = (
    _seeds()
    + [(["--players", v], "--players") for v in ("5", "x")]
    + [(["--variant", "expert"], "--variant"), (["--expansions", "dragons"], "--expansions")]
    + [([f"--save-{w}", f"{MISSING}.json"], f"--save-{w}") for w in ("record", "state")]
    + [(["--save-record", str(REPO)], "--save-record")]
    + [([f"--save-{w}", "marker"], f"--save-{w}") for w in ("record", "state")]  # it exists
    + [(["--save-record", "r.json", "--save-state", "r.json"], "--save-state")]
)
SERVE_BAD = [(["--port", v], "--port") for v in ("-1", "70000", "http")]

CASES: list[tuple[str, list[str], str]] = []
for game, model, other_model in (
    ("asara", ASARA_MODEL, BASARI_MODEL),
    ("basari", BASARI_MODEL, ASARA_MODEL),
):
    CASES += [(f"{game}-tournament", a, f) for a, f in TOURNAMENT_BAD]
    CASES += [(f"{game}-ladder", a, f) for a, f in LADDER_BAD]
    CASES += [(f"{game}-train", a, f) for a, f in TRAIN_BAD]
    CASES += [(f"{game}-train", ["--resume", other_model], "--resume")]  # the other game's
    CASES += [(f"{game}-selfplay", a, f) for a, f in SELFPLAY_BAD]
    CASES += [(f"{game}-selfplay", ["--start", other_model], "--start")]  # the other game's
    CASES += [(f"{game}-evaluate", ["--model", model, *a], f) for a, f in EVALUATE_BAD]
    CASES += [(f"{game}-evaluate", ["--model", other_model], "--model")]  # the other game's
CASES += [("asara", ["play", *a], f) for a, f in PLAY_BAD]
CASES += [("basari", ["play", *a], f) for a, f in PLAY_BAD]
CASES += [("asara", ["play", "--save", f"{MISSING}.json"], "--save")]
CASES += [("asara", ["random", *a], f) for a, f in RANDOM_BAD]
CASES += [("asara-play-random", a, f) for a, f in RANDOM_BAD]
CASES += [(name, a, f) for name in ("asara-serve", "basari-serve") for a, f in SERVE_BAD]
CASES += [("asara", ["serve", *a], f) for a, f in SERVE_BAD]
CASES += [("basari", ["dance"], "command"), ("asara", [], "command")]


def tree(folder: Path) -> dict[str, str]:
    """Every file under `folder` (relative path -> sha256 of its bytes)."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def run_in_process(
    name: str, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    """(exit status, stderr) of the console script `name` run in-process."""
    with pytest.raises(SystemExit) as exc:
        script(name)(argv)
    code = exc.value.code if isinstance(exc.value.code, int) else 1
    return code, capsys.readouterr().err


def test_the_battery_covers_every_console_script() -> None:
    assert {name for name, _, _ in CASES} == set(SCRIPTS)


@pytest.mark.parametrize("name, argv, flag", CASES, ids=[f"{n} {' '.join(a)}" for n, a, _ in CASES])
def test_a_bad_value_is_one_line_naming_the_argument_and_writes_nothing(
    name: str,
    argv: list[str],
    flag: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)  # default outputs would land here
    (tmp_path / "marker").write_text("untouched")
    before = tree(tmp_path)
    code, err = run_in_process(name, argv, capsys)
    lines = err.strip().splitlines()
    assert code == 2, err
    assert len(lines) == 1, err
    assert flag in lines[0] and "Traceback" not in err, err
    assert tree(tmp_path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["marker"]


@pytest.mark.parametrize(
    "argv",
    [
        ["-m", "training.ppo.run", "asara", "--envs", "0"],
        ["-m", "training.evaluation.evaluate", "asara", "--model", README],
        ["-m", "training.evaluation.evaluate", "asara", "--model", BASARI_MODEL],
        ["-m", "training.evaluation.tournament_cli", "basari", "--agents", "ismcts:sims=abc"],
        ["-m", "apps.asara.cli", "--seed", "-5"],
    ],
)
def test_no_traceback_reaches_stderr_of_a_real_process(argv: list[str], tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO), "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, *argv], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_failure_is_one_line_and_ctrl_c_exits_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from commandline.command import run_main

    def boom(argv: list[str]) -> None:
        raise RuntimeError("shape '[1, 39]' is invalid\nfor input of size 7")

    def stop(argv: list[str]) -> None:
        raise KeyboardInterrupt

    with pytest.raises(SystemExit) as exc:
        run_main("x")(boom)([])
    err = capsys.readouterr().err
    assert exc.value.code == 1 and err.count("\n") == 1 and "x: error: shape" in err
    with pytest.raises(SystemExit) as exc:
        run_main("x")(stop)([])
    assert exc.value.code == 130 and capsys.readouterr().err == "x: interrupted\n"
    with pytest.raises(RuntimeError):
        run_main("x")(boom)(["--debug"])  # --debug shows the traceback


# ---------------------------------------------------------------------------- overwriting
TINY_TRAIN = ["--steps", "64", "--envs", "4", "--n-steps", "16", "--batch-size", "64"]
TINY_TRAIN += ["--eval-every", "100000", "--eval-games", "2", "--eval-opponents", "random"]
TINY_TRAIN += ["--checkpoint-every", "100000", "--no-progress", "--opponents", "random"]
TINY_TRAIN += ["--bc-expert", "none"]  # ASARA clones towers first by default


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("train") / "run"
    script("asara-train")([*TINY_TRAIN, "--out", str(out)])
    return out


def test_a_training_run_refused_in_a_finished_runs_folder_leaves_it_byte_identical(
    finished_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = tree(finished_run)
    assert {"final.zip", "run.json", "eval.csv"} <= set(before)
    code, err = run_in_process("asara-train", [*TINY_TRAIN, "--out", str(finished_run)], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert str(finished_run) in err and "--resume" in err and "--force" in err
    assert tree(finished_run) == before


def test_run_json_holds_typed_arguments_and_their_defaults(finished_run: Path) -> None:
    info = json.loads((finished_run / "run.json").read_text())
    assert info["args"]["players"] == 2 and info["args"]["steps"] == 64
    assert info["args"]["learning_rate"] == 1e-4 and info["args"]["opponents"] == "random"
    assert info["defaults"]["steps"] == 1_000_000 and info["defaults"]["reward"] == "margin"


def test_resume_continues_the_run_in_its_folder_and_force_moves_it_aside(
    finished_run: Path, tmp_path: Path
) -> None:
    from sb3_contrib import MaskablePPO

    run = tmp_path / "run"  # a copy, so the other tests keep theirs
    subprocess.run(["cp", "-r", str(finished_run), str(run)], check=True)
    original = tree(run)
    script("asara-train")(["--resume", str(run), "--steps", "32", *TINY_TRAIN[2:]])
    model = MaskablePPO.load(run / "final.zip", device="cpu")
    assert model.num_timesteps >= 64 + 32  # --steps: more steps (additional)
    rows = (run / "eval.csv").read_text().splitlines()
    # a run shorter than --eval-every evaluates at its end only: one point per session
    assert len(rows) == 1 + 2
    continued = tree(run)
    script("asara-train")([*TINY_TRAIN, "--out", str(run), "--force"])
    assert tree(run.with_name("run.old-1")) == continued  # moved aside, byte-identical
    assert MaskablePPO.load(run / "final.zip", device="cpu").num_timesteps == 64
    assert original != continued


BASARI_TINY = [*TINY_TRAIN, "--players", "2", "--final-games", "2", "--final-players", "2"]
OTHER_SETTINGS = {  # a resume's other settings, and the difference each must name
    "asara-train": [(["--players", "3"], "players 2 -> 3"), (["--reward", "win"], '"win"')]
    + [(["--opponents", "towers"], '"towers"'), (["--learning-rate", "0.001"], "0.001")],
    "basari-train": [(["--players", "3"], "players 2 -> 3"), (["--reward", "win"], '"win"')]
    + [(["--opponents", "value"], '"value"'), (["--seed", "5"], "seed 0 -> 5")],
}


@pytest.fixture(scope="module")
def finished_runs(finished_run: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("train") / "basari"
    assert script("basari-train")([*BASARI_TINY, "--out", str(out)]) == 0
    return {"asara-train": finished_run, "basari-train": out}


@pytest.mark.parametrize(
    "name, other, named",
    [(n, a, d) for n, cases in OTHER_SETTINGS.items() for a, d in cases],
    ids=[f"{n} {' '.join(a)}" for n, cases in OTHER_SETTINGS.items() for a, _ in cases],
)
def test_a_resume_with_other_settings_is_refused_naming_each_difference(
    name: str,
    other: list[str],
    named: str,
    finished_runs: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
) -> None:
    run = finished_runs[name]
    before = tree(run)
    code, err = run_in_process(name, ["--resume", str(run), "--steps", "32", *other], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert named in err and "--change-settings" in err and other[0] in err
    assert tree(run) == before


def test_a_resume_keeps_the_recorded_settings_and_a_wanted_change_is_recorded_beside_them(
    finished_runs: dict[str, Path], tmp_path: Path
) -> None:
    run = tmp_path / "run"
    subprocess.run(["cp", "-r", str(finished_runs["basari-train"]), str(run)], check=True)
    first = json.loads((run / "run.json").read_text())["settings"]
    assert first["opponents"] == "random" and first["players"] == 2
    argv = ["--resume", str(run), "--steps", "32", "--no-progress"]  # every setting recorded
    assert script("basari-train")(argv) == 0
    info = json.loads((run / "run.json").read_text())
    assert info["settings"] == first and info["changes"] == [] and info["args"]["players"] == 2
    assert script("basari-train")([*argv, "--reward", "margin", "--change-settings"]) == 0
    info = json.loads((run / "run.json").read_text())
    assert info["settings"] == first and info["args"]["reward"] == "margin"
    [change] = info["changes"]
    assert change["changed"] == {"reward": ["rank", "margin"]} and change["at"] >= 64 + 32
    rows = list(csv.DictReader((run / "eval.csv").open()))
    marks = [(int(r["steps"]), r["settings"]) for r in rows]
    assert [m for _, m in marks] == ["0"] * 2 + ["1"]  # a point at each session's end
    assert all(s >= change["at"] for s, m in marks if m == "1")


def test_change_settings_without_resume_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [*TINY_TRAIN, "--out", str(tmp_path / "r"), "--change-settings"]
    code, err = run_in_process("asara-train", argv, capsys)
    assert code == 2 and "--change-settings" in err and "--resume" in err
    assert not (tmp_path / "r").exists()


def test_tournament_and_ladder_folders_of_other_settings_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "t"
    argv = ["--agents", "random,greedy", "--players", "2", "--games", "2", "--no-progress"]
    assert script("asara-tournament")([*argv, "--out", str(out)]) == 0
    before = tree(out)
    assert script("asara-tournament")([*argv, "--out", str(out)]) == 0  # same settings
    assert tree(out) == before  # the same results, written again
    code, err = run_in_process(
        "asara-tournament", [*argv, "--seed", "1", "--out", str(out)], capsys
    )
    assert code == 2 and "--force" in err and tree(out) == before
    assert script("asara-tournament")([*argv, "--seed", "1", "--out", str(out), "--force"]) == 0
    assert tree(out) != before
    ladder = tmp_path / "l"
    largv = ["--agents", "random,value", "--players", "2", "--games", "2", "--no-progress"]
    assert script("basari-ladder")([*largv, "--out", str(ladder)]) == 0  # commas
    before = tree(ladder)
    code, err = run_in_process(
        "basari-ladder", [*largv, "--seed", "4", "--out", str(ladder)], capsys
    )
    assert code == 2 and "other settings" in err and tree(ladder) == before
    assert script("basari-ladder")([*largv, "--seed", "4", "--out", str(ladder), "--force"]) == 0
    assert tree(ladder.with_name("l.old-1")) == before


def test_evaluate_refuses_to_replace_its_files_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [
        "--model",
        "ppo_2p",
        "--players",
        "2",
        "--games",
        "2",
        "--quiet",
        "--out",
        str(tmp_path),
    ]
    argv += ["--opponents", "random"]
    assert script("basari-evaluate")(argv) == 0
    before = tree(tmp_path)
    code, err = run_in_process("basari-evaluate", [*argv, "--seed", "3"], capsys)
    assert code == 2 and "--force" in err and tree(tmp_path) == before
    assert script("basari-evaluate")([*argv, "--seed", "3", "--force"]) == 0


@pytest.mark.parametrize("name", ["asara-tournament", "basari-tournament"])
def test_an_interrupted_tournament_keeps_its_finished_chunks_and_the_same_command_resumes(
    name: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from training.evaluation import tournament

    argv = ["--agents", "random,greedy" if name.startswith("asara") else "random,value"]
    argv += ["--players", "2", "--games", "4", "--chunk-size", "2", "--no-progress"]
    whole = tmp_path / "whole"
    assert script(name)([*argv, "--out", str(whole)]) == 0
    real = tournament.play_chunk
    played: list[int] = []

    def once(*args: Any, **kw: Any) -> Any:
        if played:
            raise KeyboardInterrupt  # Ctrl-C in the second chunk
        played.append(args[4])
        return real(*args, **kw)

    out = tmp_path / "t"
    monkeypatch.setattr(tournament, "play_chunk", once)
    code, err = run_in_process(name, [*argv, "--out", str(out)], capsys)
    assert code == 130 and f"2 finished games are kept in {out / 'chunks'}" in err
    assert sorted(p.name for p in (out / "chunks").glob("*.pkl")) == ["2p-0.pkl"]

    def counted(*args: Any, **kw: Any) -> Any:
        played.append(args[4])
        return real(*args, **kw)

    monkeypatch.setattr(tournament, "play_chunk", counted)
    assert script(name)([*argv, "--out", str(out)]) == 0
    assert played == [0, 1]  # the rerun played only the chunk not kept
    assert (out / "games.csv").read_bytes() == (whole / "games.csv").read_bytes()
    assert (out / "results.json").read_bytes() == (whole / "results.json").read_bytes()
    code, err = run_in_process(name, [*argv, "--seed", "3", "--out", str(out)], capsys)
    assert code == 2 and "other settings" in err and "--force" in err


def _junk_model(folder: Path) -> Path:
    """A zip archive with a saved model's members whose data is not JSON."""
    import zipfile

    path = folder / "junk.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("data", "{junk")
        archive.writestr("policy.pth", b"")
    return path


@pytest.mark.parametrize(
    "name, argv, flag",
    [
        ("asara-tournament", ["--agents", "random,policy:model=JUNK"], "--agents"),
        ("basari-ladder", ["--agents", "random,policy:model=JUNK"], "--agents"),
        ("asara", ["play", "--players", "2", "--opponents", "policy:model=JUNK"], "--opponents"),
        ("basari", ["play", "--players", "2", "--opponents", "policy:model=JUNK"], "--opponents"),
        ("basari-evaluate", ["--model", BASARI_MODEL, "--opponents", "policy:model=JUNK"], "--opp"),
    ],
)
def test_a_corrupt_model_in_an_agent_spec_is_named_at_parse_time(
    name: str,
    argv: list[str],
    flag: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    junk = _junk_model(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, err = run_in_process(name, [a.replace("JUNK", str(junk)) for a in argv], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert f"{junk} is not a saved MaskablePPO model (its data is not JSON" in err
    assert flag in err and sorted(p.name for p in tmp_path.iterdir()) == ["junk.zip"]


def test_export_refuses_to_replace_a_file_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from training.ppo import export

    target = tmp_path / "small.zip"
    target.write_bytes(b"mine")
    with pytest.raises(SystemExit) as exc:
        export.main([ASARA_MODEL, str(target)])
    assert exc.value.code == 2 and "--force" in capsys.readouterr().err
    assert target.read_bytes() == b"mine"
    export.main([ASARA_MODEL, str(target), "--force"])
    assert zipfile_holds_model(target)


def zipfile_holds_model(path: Path) -> bool:
    from agents.registry import saved_model_problem

    return saved_model_problem(path) == ""


@pytest.mark.parametrize("name", ["asara", "basari"])
def test_an_unknown_opponent_is_named_before_the_count_of_opponents(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = run_in_process(name, ["play", "--players", "3", "--opponents", "grede"], capsys)
    assert code == 2 and "unknown agent" in err and "grede" in err and "need" not in err


def test_a_one_agent_ladder_is_refused_saying_why(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run_in_process("asara-ladder", ["--agents", "towers"], capsys)
    assert code == 2 and "at least 2 agents, got towers" in err


def _parsers(name: str) -> list[Any]:
    """The parser of console script `name` and those of its subcommands."""
    import argparse

    from apps.cli_reference import parser_of

    top = parser_of(script(name))
    subs = [a for a in top._actions if isinstance(a, argparse._SubParsersAction)]
    return [top, *(p for a in subs for p in a.choices.values())]


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_every_option_says_what_it_does_and_no_description_is_cut(name: str) -> None:
    for parser in _parsers(name):
        silent = [a.option_strings[-1] for a in parser._actions if a.option_strings and not a.help]
        assert silent == [], parser.prog
        assert not parser.description or parser.description.rstrip().endswith("."), parser.prog
