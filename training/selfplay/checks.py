"""The self-play command's checks made before any file is written (each a usage error
naming its option, exit status 2): the network to start from, every evaluation opponent
with its options, and a resumed run's record (its settings and that it is a self-play
run). The search spec's own checks are the command's (training/selfplay/cli.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

from .. import runfolder
from .network import new_model
from .spec import SelfPlaySpec

SCRATCH = "scratch"  # --start: a network initialised afresh
SELFPLAY_SETTING = "search"  # a setting every self-play run records, and no other trainer's


def start_path(spec: SelfPlaySpec, text: str) -> Path:
    """The file of `--start`: a shipped model's name, or a path."""
    return spec.shipped_model(text) or Path(text)


def check_start(
    parser: argparse.ArgumentParser, spec: SelfPlaySpec, args: argparse.Namespace
) -> None:
    """A usage error unless `--start` is `scratch`, a shipped model of the game or a
    saved MaskablePPO model of this game (checked by building the network from it)."""
    if args.start == SCRATCH:
        return
    path = start_path(spec, args.start)
    if not path.is_file():
        parser.error(
            f"argument --start: {args.start} is neither '{SCRATCH}', a shipped model's name "
            "nor a file"
        )
    config = spec.config(args)
    size, actions = spec.sizes(config)
    try:
        new_model(size, actions, int(config.num_players), 0, path)
    except Exception as e:  # any failure to read it: not a model of this game
        text = " ".join(str(e).split())
        parser.error(
            f"argument --start: {path} is not a saved MaskablePPO model of {spec.game} ({text})"
        )


def eval_opponents(
    parser: argparse.ArgumentParser, spec: SelfPlaySpec, given: str | list[str]
) -> list[str]:
    """The evaluation opponents of `--eval-opponents` (text, or a resumed run's recorded
    list), every one checked with its options (`flatmc:sims=abc`, a `policy:model=` file
    that is not there): a usage error naming the first that is wrong."""
    text = ",".join(given) if isinstance(given, list) else str(given)
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        parser.error("argument --eval-opponents: no agents given")
    for name in names:
        try:
            spec.check_agent(name)
        except ValueError as e:
            parser.error(f"argument --eval-opponents: {e}")
    return names


def check_record(p: argparse.ArgumentParser, out: Path, session_only: frozenset[str]) -> None:
    """A usage error unless `out` records a self-play run whose every setting its option
    accepts (training/runfolder.py's `recorded_problem`): checked before the record
    becomes the parser's defaults, so that a value no option would take (`"games": -3`)
    is refused naming run.json rather than failing in the run."""
    try:
        recorded = runfolder.recorded_settings(out, session_only)
    except ValueError as e:
        p.error(f"argument --resume: {e}")
    if recorded is None or SELFPLAY_SETTING not in recorded:
        p.error(f"argument --resume: {out} holds no self-play run (no run.json of one)")
    problem = runfolder.recorded_problem(p, out, session_only)
    if problem:
        p.error(problem)
