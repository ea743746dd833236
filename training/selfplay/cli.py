"""The self-play trainer's command line: its options (`build_parser`), their checks
(`parse_args`: every option checked before any work, a usage error naming it) and
`main_of`, a game's self-play command (training/selfplay/run.py runs it)."""

from __future__ import annotations

import argparse
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

from asara_env.games import reward_schemes
from commandline import command
from commandline.outputs import fresh_dir

from .. import runfolder
from .checkpoint import CheckpointError
from .checks import SCRATCH, check_record, check_start, eval_opponents
from .run import MAX_COUNT, MAX_GAMES, SESSION_ONLY, Trainer
from .search import NET_LEAF, share_map
from .searchspec import DEFAULT_SEARCH, legacy_spec, playout_mix, playout_names, read_search
from .spec import SelfPlaySpec

IntType = Callable[[str], int]  # a bounded int option's type (commandline.command)
MAX_WIDTH = 4096  # --hidden: the widest layer
# a network from scratch: one hidden layer of 128 per head makes ASARA's self-play about
# twice as fast on a CPU as the 512-256 MLPs (docs/performance.md), and learns
SCRATCH_HIDDEN = (128,)
SCRATCH_RATE, MODEL_RATE = 1e-3, 1e-4  # Adam's step from scratch, from a trained model


def widths(text: str) -> tuple[int, ...]:
    """`--hidden`: comma-separated positive layer widths."""
    try:
        out = tuple(int(w) for w in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be widths like 512,256, got {text!r}") from None
    if not out or not all(1 <= w <= MAX_WIDTH for w in out):
        raise argparse.ArgumentTypeError(f"widths must be 1 to {MAX_WIDTH}, got {text!r}")
    return out


def build_parser(spec: SelfPlaySpec) -> argparse.ArgumentParser:
    """Every option of the game's self-play command."""
    p = command.parser(spec.prog, f"Train a network for {spec.game} by self-play with search.")
    positive = command.bounded_int(1, MAX_COUNT, "a positive int")
    games = command.bounded_int(1, MAX_GAMES, "a positive int")
    command.add_players_argument(p, spec.game, 2)
    spec.add_arguments(p)
    _add_play_options(p, spec, positive, games)
    _add_learner_options(p, positive)
    _add_run_options(p, spec, positive, games)
    return p


def _add_play_options(
    p: argparse.ArgumentParser, spec: SelfPlaySpec, positive: IntType, games: IntType
) -> None:
    """The reward, the search and the games of an iteration."""
    p.add_argument(
        "--reward",
        default="win",
        choices=list(reward_schemes(spec.game)),
        help="the seats' value targets",
    )
    p.add_argument(
        "--search",
        default=DEFAULT_SEARCH,
        metavar="SPEC",
        help="who decides in self-play, an agent spec (training/selfplay/searchspec.py): "
        f"gumbel:SIMS:prior=self:value=net (the default, {DEFAULT_SEARCH!r}), "
        "gumbel:SIMS:prior=self:playout=NAME, flatmc:SIMS:playout=NAME, prior; "
        "full=P:fast=N for playout cap randomisation",
    )
    p.add_argument(
        "--games", type=games, default=64, help="self-play games per iteration, played at once"
    )
    p.add_argument(
        "--iterations",
        type=positive,
        default=100,
        help="iterations in this session (with --resume: MORE)",
    )


def _add_learner_options(p: argparse.ArgumentParser, positive: IntType) -> None:
    """The replay buffer, the learner and the network to start from."""
    p.add_argument(
        "--buffer", type=positive, default=20_000, help="positions the replay buffer keeps"
    )
    p.add_argument("--updates", type=positive, default=64, help="learner steps per iteration")
    p.add_argument("--batch-size", type=positive, default=256, help="positions per learner step")
    p.add_argument(
        "--learning-rate",
        type=command.bounded_float(0.0, 1.0, open_low=True),
        default=None,
        help=f"Adam's step size (default: {SCRATCH_RATE} from scratch, {MODEL_RATE} from a model)",
    )
    p.add_argument(
        "--value-weight",
        type=command.non_negative_float,
        default=0.5,
        help="the seat values' squared error beside the policy's cross-entropy",
    )
    p.add_argument(
        "--start",
        default=None,
        help=f"the network to start from: a shipped model's name, a saved model's path, or "
        f"'{SCRATCH}' (default: the game's shipped model for the player count)",
    )
    p.add_argument(
        "--hidden",
        type=widths,
        default=None,
        metavar="W[,W...]",
        help="--start scratch: the widths of the policy and value MLPs (default: "
        f"{','.join(map(str, SCRATCH_HIDDEN))}; a run recorded without them: 512,256)",
    )
    p.add_argument(
        "--seed", type=command.seed, default=0, help="seeds the games, searches, learner"
    )


def _add_run_options(
    p: argparse.ArgumentParser, spec: SelfPlaySpec, positive: IntType, games: IntType
) -> None:
    """The evaluations, the checkpoints, the run's folder and where self-play runs."""
    p.add_argument("--eval-every", type=positive, default=10, help="iterations between evaluations")
    p.add_argument(
        "--eval-games", type=games, default=200, help="games per opponent and evaluation"
    )
    p.add_argument(
        "--eval-opponents",
        default=None,
        help="comma-separated agent specs (default: the shipped model and the best baseline)",
    )
    p.add_argument(
        "--checkpoint-every", type=positive, default=5, help="iterations between checkpoints"
    )
    p.add_argument("--keep", type=positive, default=2, help="checkpoints kept (the newest)")
    p.add_argument(
        "--backend", default="numba", choices=("numba", "numpy"), help="the core self-play runs on"
    )
    p.add_argument(
        "--out",
        type=Path,
        default=None,
        help=f"the run's folder (default: runs/{spec.game}-selfplay-<players>p-<time>)",
    )
    p.add_argument(
        "--resume",
        type=Path,
        default=None,
        metavar="OUT",
        help="continue the run in this folder from its newest checkpoint",
    )
    p.add_argument(
        "--force", action="store_true", help="if --out holds a run, move it aside to <out>.old-<n>"
    )
    runfolder.add_change_argument(p)
    p.add_argument(
        "--ray", action="store_true", help="self-play on Ray actors (a new local instance)"
    )
    p.add_argument("--address", default=None, help="self-play on the Ray cluster at this address")
    p.add_argument("--workers", type=positive, default=2, help="Ray actors (with --ray/--address)")
    p.add_argument(
        "--threads", type=positive, default=1, help="torch threads per worker and of the learner"
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bars")


def parse_args(spec: SelfPlaySpec, argv: list[str] | None = None) -> argparse.Namespace:
    """The parsed options, every one checked before any work (a usage error names it)."""
    p = build_parser(spec)
    args = p.parse_args(argv)
    if args.resume is not None:
        if args.out is not None and args.out.resolve() != args.resume.resolve():
            p.error(
                f"argument --out: --resume continues {args.resume}; leave --out out or name "
                "the same folder"
            )
        check_record(p, args.resume, SESSION_ONLY)
        runfolder.resume_defaults(p, args.resume, SESSION_ONLY)
        check_legacy(p, args.resume, argv)
        args = p.parse_args(argv)
        args.out = args.resume
    spec.check(p, args)
    check_search(p, spec.game, args)
    args.start = args.start or spec.start_model(args.players)
    scratch = args.start == SCRATCH
    if args.learning_rate is None:  # a resumed run has its recorded rate
        args.learning_rate = SCRATCH_RATE if scratch else MODEL_RATE
    if args.hidden is None and scratch and args.resume is None:
        args.hidden = SCRATCH_HIDDEN
    if args.eval_opponents is None:
        args.eval_opponents = ",".join(spec.eval_opponents(args.players))
    args.eval_opponents = eval_opponents(p, spec, args.eval_opponents)
    check_start(p, spec, args)
    if args.out is None:
        args.out = fresh_dir(f"runs/{spec.game}-selfplay-{args.players}p")
    try:
        command.writable_dir(str(args.out))
    except argparse.ArgumentTypeError as e:
        p.error(f"argument --out: {e}")
    settings = runfolder.settings_of(vars(args), SESSION_ONLY)
    runfolder.check(
        p,
        args.out,
        settings,
        resuming=args.resume is not None,
        force=args.force,
        change=args.change_settings,
        what="a self-play run",
    )
    return args


def check_search(p: argparse.ArgumentParser, game: str, args: argparse.Namespace) -> None:
    """A usage error unless `--search` reads as a self-play search spec of the game (its
    playout policies, mixture and reward schemes) whose values the run can read."""
    try:
        search = read_search(args.search, tuple(reward_schemes(game)))
        playout_mix(game, search)
    except ValueError as e:
        p.error(f"argument --search: {e}")
    if search.leaf != NET_LEAF or search.search == "flat":
        names = playout_names(game)
        if search.playout not in names:
            p.error(
                f"argument --search: playout must be one of {list(names)}, got {search.playout!r}"
            )
    if (
        search.search == "gumbel"
        and search.leaf == NET_LEAF
        and share_map(reward_schemes(game)[args.reward], args.players) is None
    ):
        p.error(
            f"argument --reward: the search reads values as win shares, and {args.reward!r} at "
            f"{args.players} players is not a function of the win share; use 'win'"
        )
    if args.hidden is not None and args.start != SCRATCH:
        p.error("argument --hidden: sizes a network started from scratch (--start scratch)")


def check_legacy(p: argparse.ArgumentParser, out: Path, argv: list[str] | None) -> None:
    """A usage error for a run recorded by an older trainer (its search in separate flags)
    unless --search and --change-settings are given: the error names the equivalent spec."""
    recorded = runfolder.recorded_settings(out) or {}
    spec = legacy_spec(recorded)
    given = argv or []
    if spec is None or ("--search" in given and runfolder.CHANGE_FLAG in given):
        return
    p.error(
        f"argument --resume: the run in {out} records its search in older flags; continue it "
        f"with --search '{spec}' {runfolder.CHANGE_FLAG}"
    )


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def main_of(spec: SelfPlaySpec, argv: list[str] | None = None) -> None:
    """A game's self-play command. SIGTERM (a scheduler stopping the job, `kill`) ends it
    as Ctrl-C does: the finished iterations kept."""
    args = parse_args(spec, argv)
    torch.set_num_threads(args.threads)
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        trainer = Trainer(spec, args)
        if args.resume:
            try:
                trainer.resume()
            except CheckpointError as e:
                build_parser(spec).error(f"argument --resume: {e}")
        trainer.run()
    finally:
        signal.signal(signal.SIGTERM, previous)
