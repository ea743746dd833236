"""A run folder, the same for every trainer: its settings recorded once, a resume that keeps
them, nothing replaced without `--force`.

Any trainer (`asara-train` and `basari-train` through training/ppo/run.py, the self-play
trainer, a new one) writes one run into one folder and keeps in it `run.json`:

    {
      "settings": {...},   # what the run was started with: written once, never rewritten
      "changes": [         # each wanted change of a resumed run, in order
        {"at": 5000, "changed": {"reward": ["win", "margin"]}, "time": "2026-...Z"}
      ],
      ...                  # what the trainer adds (`update_record`: results, timings)
    }

`at` is the trainer's progress count (learner steps) where the changed settings began.
Settings are the JSON values of the options that make the run what it is (players,
opponents, reward, seed, hyper-parameters, ...); options of one session only (`--steps`
MORE, `--out`, `--resume`, `--force`, progress display) are not settings.

The rules, checked by `check` before any work (a usage error naming the flag):

- A new run: a folder that holds anything is refused, naming the ways on (`--resume OUT`
  continues it, `--force` moves it aside to `OUT.old-<n>`, never deleted, or a new
  `--out`; commandline/outputs.py's `out_problem`).
- `--resume` of a run in its own folder: settings not given on the command line keep
  their recorded values (`resume_defaults` makes them the parser's defaults); a setting
  given with another value is refused naming each difference (`differences`, `describe`),
  unless `--change-settings` (`CHANGE_FLAG`, `add_change_argument`) says the change is
  wanted: then `start` appends it to `changes` (the original settings stay), and the
  trainer marks the curve where it happened (`segment`: 0 before the first change, n after
  the n-th).
- `--force` with a resume of the same folder: nothing to replace, refused.

Then `start(out, settings, ...)` makes the folder (moving an old one aside with `--force`)
and writes the record: the settings of a new run, or the change of a resumed one. A
folder of an older version whose run.json has `args` but no `settings` is read as having
recorded those `args` (its session options left out); a folder with no run.json (a run
interrupted before this record existed) has its settings recorded when it is resumed.

    parser = command.parser("my-train")
    ... add the options, then runfolder.add_change_argument(parser)
    args = parser.parse_args(argv)
    if resuming_in_place:  # --resume of a run in --out
        runfolder.resume_defaults(parser, args.out, SESSION_ONLY)
        args = parser.parse_args(argv)
    settings = runfolder.settings_of(vars(args), SESSION_ONLY)
    runfolder.check(parser, args.out, settings, resuming=..., force=args.force,
                    change=args.change_settings)
    ... later, when the work starts:
    runfolder.start(args.out, settings, resuming=..., force=args.force, at=steps_done)
    ... at the end:
    runfolder.update_record(args.out, {"seconds": ..., ...})
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from commandline.outputs import atomic_write_text, out_problem, prepare_out_dir

RECORD = "run.json"  # the run's record in its folder
CHANGE_FLAG = "--change-settings"  # the flag that says a resumed run's changes are wanted
KEPT = ("settings", "changes")  # the record's entries that `update_record` may not touch
TRAINED_PLAYERS = "trained_players"  # the model attribute every trainer saves its count in
CHECKPOINTS = "checkpoints"  # the folder of a run's checkpoints (a file, or a folder each)
SESSION_ONLY = frozenset({"out", "resume", "force", "steps", "no_progress", "change_settings"})

Settings = dict[str, Any]
Change = dict[str, tuple[Any, Any]]  # setting -> (recorded value, new value)


def plain(value: Any) -> Any:
    """`value` as JSON gives it back (tuples as lists, paths as strings)."""
    return json.loads(json.dumps(value, default=str))


def settings_of(
    values: Mapping[str, Any], session_only: Collection[str] = SESSION_ONLY
) -> Settings:
    """The settings among parsed option values: every entry but the session's own and
    private ones (`_name`), as JSON values."""
    return {
        k: plain(v) for k, v in values.items() if k not in session_only and not k.startswith("_")
    }


def read_record(out: Path) -> dict[str, Any] | None:
    """The run's record (run.json), or None if there is none; a record that does not read
    as a JSON object is a `ValueError` naming the file."""
    path = Path(out) / RECORD
    if not path.is_file():
        return None
    try:
        record = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise ValueError(f"{path} is not a readable run record ({e})") from None
    if not isinstance(record, dict):
        raise ValueError(f"{path} is not a run record (not a JSON object)")
    return record


def recorded_settings(out: Path, session_only: Collection[str] = SESSION_ONLY) -> Settings | None:
    """The settings in effect at the end of the recorded run: the original ones with every
    change applied (an older record's `args` without their session options); None if the
    folder records none."""
    record = read_record(out)
    if record is None:
        return None
    if "settings" not in record:
        args = record.get("args")
        return settings_of(args, session_only) if isinstance(args, dict) else None
    settings = dict(record["settings"])
    for change in record.get("changes", []):
        settings.update({k: new for k, (_, new) in change["changed"].items()})
    return settings


def differences(recorded: Mapping[str, Any], current: Mapping[str, Any]) -> Change:
    """Each setting whose value differs, with (recorded, current); a setting only one side
    knows (an option added or removed since) is not a difference."""
    return {
        k: (recorded[k], plain(current[k]))
        for k in current
        if k in recorded and plain(recorded[k]) != plain(current[k])
    }


def describe(change: Change) -> str:
    """'players 2 -> 3, reward "win" -> "margin"'."""
    return ", ".join(f"{k} {json.dumps(a)} -> {json.dumps(b)}" for k, (a, b) in change.items())


def flag(setting: str) -> str:
    """The option of a setting: `eval_every` -> `--eval-every`."""
    return "--" + setting.replace("_", "-")


def resume_problem(out: Path, settings: Settings, change: bool) -> str:
    """'' if a resumed run with `settings` may continue the run in `out`; else one line
    naming each difference and the ways on."""
    recorded = recorded_settings(out)
    if recorded is None:
        return ""
    found = differences(recorded, settings)
    if not found or change:
        return ""
    flags = " ".join(flag(k) for k in found)
    return (
        f"argument --resume: the run in {out} was started with other settings: "
        f"{describe(found)}; leave out {flags} to keep the recorded ones, add {CHANGE_FLAG} "
        "if the change is wanted (it is recorded in run.json and marked on the curve), "
        "or start a new run with another --out"
    )


def resume_defaults(
    parser: argparse.ArgumentParser, out: Path, session_only: Collection[str] = SESSION_ONLY
) -> None:
    """Make the settings recorded in `out` the parser's defaults (parse again afterwards):
    a resumed run keeps every setting not given on the command line. A value recorded as
    text goes through its option's type again, as typed text does."""
    recorded = recorded_settings(out, session_only)
    if recorded:
        known = {a.dest for a in parser._actions}
        parser.set_defaults(**{k: v for k, v in recorded.items() if k in known})


def recorded_problem(
    parser: argparse.ArgumentParser,
    out: Path,
    session_only: Collection[str] = SESSION_ONLY,
    skip: Collection[str] = (),
) -> str:
    """'' if every recorded setting of `out` is one its option accepts (the value, or each
    element of a list, through the option's type as typed text; a flag's value a bool; a
    value among the option's choices); else one line naming the file, the setting and
    what is wrong. Settings the parser no longer has, and those in `skip`, are not
    checked."""
    try:
        recorded = recorded_settings(out, session_only) or {}
    except ValueError as e:
        return f"argument --resume: {e}"
    actions = {a.dest: a for a in parser._actions}
    for name, value in recorded.items():
        action = None if name in skip else actions.get(name)
        problem = "" if action is None else _value_problem(action, value)
        if problem:
            return (
                f"argument --resume: {Path(out) / RECORD} records {flag(name)} "
                f"{json.dumps(value)}: {problem}"
            )
    return ""


def _value_problem(action: argparse.Action, value: Any) -> str:
    """'' if `value` is one that `action` accepts (`recorded_problem`), else what is wrong."""
    if action.nargs == 0:  # a flag
        return "" if isinstance(value, bool) else "must be true or false"
    if value is None:  # no value: the option's default, or what its "none" reads as
        return "" if action.default is None or _reads_none(action) else "must be given"
    texts = value if isinstance(value, list) else [value]
    if any(isinstance(t, dict | list | bool) or t is None for t in texts):
        return "must be text, a number, or a list of them"
    parse = action.type if callable(action.type) else str
    try:
        if isinstance(value, list) and action.nargs is None:  # one option of many: "a,b"
            parsed = [parse(",".join(str(t) for t in texts))]
            if action.type is not None and not isinstance(parsed[0], list | tuple):
                return "must be one value, not a list"
        else:
            parsed = [parse(str(t)) for t in texts]
    except (argparse.ArgumentTypeError, TypeError, ValueError) as e:
        return " ".join(str(e).split()) or "not a value of this option"
    if action.choices is not None and any(p not in action.choices for p in parsed):
        return f"must be one of {list(action.choices)}"
    return ""


def _reads_none(action: argparse.Action) -> bool:
    """Whether the option's type reads the text `none` as no value (`--bc-expert none`)."""
    try:
        return callable(action.type) and action.type("none") is None
    except (argparse.ArgumentTypeError, TypeError, ValueError):
        return False


def add_change_argument(parser: argparse.ArgumentParser) -> None:
    """The `--change-settings` flag."""
    parser.add_argument(
        CHANGE_FLAG,
        action="store_true",
        help="with --resume: continue the run with the settings given here where they differ "
        "from its recorded ones (the change is recorded beside them in run.json and marked "
        "on the curve); without it such a resume is refused",
    )


def check(
    parser: argparse.ArgumentParser,
    out: Path,
    settings: Settings,
    *,
    resuming: bool,
    force: bool,
    change: bool,
    what: str = "a training run",
) -> None:
    """A usage error (before any work) unless the run may write into `out`: a new run into
    an empty or missing folder (any with `force`), a resume of the run in `out` with its
    recorded settings (other ones with `change`)."""
    if not resuming:
        if change:
            parser.error(f"argument {CHANGE_FLAG}: only a resumed run (--resume) changes settings")
        problem = "" if force else out_problem(out, what, f"--resume {out}")
    elif force:
        problem = f"argument --force: --resume continues {out}; nothing to replace"
    else:
        try:
            problem = resume_problem(out, settings, change)
        except ValueError as e:
            problem = f"argument --resume: {e}"
    if problem:
        parser.error(problem)


@dataclass(frozen=True)
class Started:
    """What `start` did: where an old folder went (`--force`), the change it recorded."""

    moved: Path | None
    change: Change


def start(out: Path, settings: Settings, *, resuming: bool, force: bool, at: int) -> Started:
    """Make `out` and record the run: a new run's settings (an old folder moved aside first
    with `force`); a resumed run's changed settings, beginning at progress `at`, beside
    the original ones. Call it after `check`, when the work starts."""
    moved = prepare_out_dir(out, force and not resuming)
    record = read_record(out) if resuming else None
    recorded = recorded_settings(out) if resuming else None
    if record is None or recorded is None:
        record = {**(record or {}), "settings": plain(settings), "changes": []}
        _write(out, record)
        return Started(moved, {})
    found = differences(recorded, settings)
    if found or "settings" not in record:
        record.setdefault("settings", recorded)  # an older record: its args become settings
        record.setdefault("changes", [])
    if found:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        entry = {"at": at, "changed": {k: list(v) for k, v in found.items()}, "time": stamp}
        record["changes"] = [*record["changes"], entry]
    _write(out, record)
    return Started(moved, found)


def segment(out: Path) -> int:
    """Which settings are in effect: 0 the original ones, n after the n-th change."""
    record = read_record(out)
    return len(record.get("changes", [])) if record else 0


def change_marks(out: Path) -> list[tuple[int, str]]:
    """(progress, 'reward "win" -> "margin"') of each recorded change, for a curve."""
    record = read_record(out) or {}
    return [
        (c["at"], describe({k: tuple(v) for k, v in c["changed"].items()}))
        for c in record.get("changes", [])
    ]


def run_of_model(path: Path) -> Path | None:
    """The run folder a model file lies in (beside run.json, in checkpoints/, or in a
    checkpoint's folder checkpoints/<name>/), None if none."""
    folder = Path(path).resolve().parent
    for candidate in (folder, folder.parent, folder.parent.parent):
        if (candidate / RECORD).is_file() and (
            candidate == folder or CHECKPOINTS in folder.relative_to(candidate).parts[:1]
        ):
            return candidate
    return None


def run_players(path: Path) -> int | None:
    """The player count recorded by the run that a model file lies in (`run_of_model`),
    None where there is none or it records none."""
    out = run_of_model(path)
    try:
        settings = recorded_settings(out) if out is not None else None
    except ValueError:
        return None
    players = (settings or {}).get("players")
    return players if isinstance(players, int) and not isinstance(players, bool) else None


def update_record(out: Path, entries: Mapping[str, Any]) -> None:
    """Add `entries` to run.json (replacing earlier ones of the same names); the recorded
    settings and changes are never replaced (a `ValueError` if `entries` names them)."""
    kept = [k for k in KEPT if k in entries]
    if kept:
        raise ValueError(f"run.json's {kept} are written once, by runfolder.start")
    record = read_record(out) or {}
    _write(out, {**record, **plain(dict(entries))})


def _write(out: Path, record: Mapping[str, Any]) -> None:
    atomic_write_text(Path(out) / RECORD, json.dumps(record, indent=1) + "\n")
