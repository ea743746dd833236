"""The command line of PPO's driver (training/ppo/run.py): its flags, each value checked
before any work (bounds, agents, the checkpoint to continue, the output folder and its
recorded settings), and the arguments as the JSON values run.json records."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Collection
from pathlib import Path
from typing import TYPE_CHECKING, Any

from asara_env.games import reward_schemes
from commandline import command
from commandline.command import add_players_argument
from commandline.outputs import fresh_dir
from training import runfolder

from .spec import GameSpec, Row

if TYPE_CHECKING:  # torch and stable-baselines3 are imported once the arguments are checked
    from sb3_contrib import MaskablePPO


MAX_STEPS = 10**12  # learner steps of one run
MAX_ENVS = 4096  # games stepped at once
MAX_GAMES = 10**7  # games of an evaluation or of behaviour cloning
HYPER_HELP = {  # what each MaskablePPO hyper-parameter flag sets
    "learning_rate": "Adam's step size",
    "n_steps": "steps per game per rollout: a rollout is n-steps x envs learner decisions",
    "batch_size": "decisions per gradient step (minibatch)",
    "n_epochs": "passes over each rollout",
    "gamma": "discount of future rewards (1: none, the reward comes at the game's end)",
    "gae_lambda": "GAE's bias/variance trade-off",
    "clip_range": "PPO's clipping of the policy ratio",
    "ent_coef": "weight of the entropy bonus (exploration)",
    "vf_coef": "weight of the value loss",
}
HYPER_TYPES: dict[str, Callable[[str], Any]] = {  # bounds of the hyper-parameter flags
    "learning_rate": command.bounded_float(0.0, 1.0, open_low=True),
    "gamma": command.bounded_float(0.0, 1.0),
    "gae_lambda": command.bounded_float(0.0, 1.0),
    "clip_range": command.bounded_float(0.0, None, open_low=True),
}
OLD_MIXTURE = re.compile(r"[:,]")  # the separators of the older NAME:WEIGHT,... opponents
GAMES = command.bounded_int(1, MAX_GAMES, "a positive int")  # --bc-games, --eval-games


def opponents_parser(agents: Collection[str]) -> Callable[[str], tuple[list[str], list[float]]]:
    """A parser of a mixture 'a*0.6+b*0.4' (agents/registry.py's one grammar: weight 1
    where omitted) -> (names, weights), names checked against `agents`."""

    def parse(text: str) -> tuple[list[str], list[float]]:
        from agents.registry import read_mixture  # imported here: the agents load on use

        try:
            mix = read_mixture(text, agents)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
        return [name for name, _ in mix], [weight for _, weight in mix]

    return parse


def typed_args(args: argparse.Namespace) -> Row:
    """The arguments as JSON values that load back into the command: ints as ints, paths
    as strings, `--opponents` as its mixture's text."""

    def plain(value: Any) -> Any:
        if isinstance(value, Path):
            return str(value)
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        return value

    typed = {k: plain(v) for k, v in vars(args).items() if not k.startswith("_")}
    from agents.registry import mixture_text

    typed["opponents"] = mixture_text(tuple(zip(*args.opponents)))
    return typed


def shipped_models(game: str) -> list[str]:
    """The names of `game`'s shipped models (imported here: loading the shared trainer
    loads no game's agents)."""
    from agents.models import MODELS

    return sorted(MODELS.get(game, {}))


def eval_opponents_parser(agents: Collection[str]) -> Callable[[str], list[str]]:
    """A parser of 'a,b' -> ['a', 'b'], names checked against `agents`."""

    def parse(text: str) -> list[str]:
        names = [n.strip() for n in text.split(",") if n.strip()]
        unknown = [n for n in names if n not in agents]
        if unknown or not names:
            raise argparse.ArgumentTypeError(f"unknown agents {unknown}; known: {sorted(agents)}")
        return names

    return parse


def bc_expert_parser(agents: Collection[str]) -> Callable[[str], str | None]:
    """A parser of --bc-expert: one of `agents`, or "none" (None: no cloning)."""

    def parse(text: str) -> str | None:
        if text == "none":
            return None
        if text not in agents:
            raise argparse.ArgumentTypeError(
                f"unknown agent {text!r}; known: {sorted(agents)} or none"
            )
        return text

    return parse


def resume_path(text: str) -> Path:
    """An argparse type: a checkpoint .zip, or a run folder (its newest model: final.zip,
    interrupted.zip or a checkpoint, the most recently written)."""
    path = Path(text)
    if path.is_dir():
        models = [path / "final.zip", path / "interrupted.zip"]
        models += list((path / "checkpoints").glob("*.zip"))
        found = [m for m in models if m.is_file()]
        if not found:
            raise argparse.ArgumentTypeError(f"the folder {text} holds no model to continue")
        path = max(found, key=lambda m: m.stat().st_mtime)
    return command.existing_file(str(path))


def check_record(p: argparse.ArgumentParser, folder: Path, *, given_opponents: bool) -> None:
    """A usage error unless every setting recorded in `folder`'s run.json is one its
    option accepts (training/runfolder.py's `recorded_problem`), checked before the
    record becomes the parser's defaults or any file is read or written. A record of
    the older `NAME:WEIGHT,...` opponents is refused saying how to go on, unless
    --opponents is given (the change then needs --change-settings, as any other)."""
    try:
        recorded = runfolder.recorded_settings(folder) or {}
    except ValueError as e:
        p.error(f"argument --resume: {e}")
    old = recorded.get("opponents")
    skip: set[str] = set()
    if isinstance(old, str) and OLD_MIXTURE.search(old):
        if not given_opponents:
            p.error(
                f"argument --resume: {folder / runfolder.RECORD} records --opponents {old!r} "
                f"in the older NAME:WEIGHT,... form; continue with --opponents "
                f"{_newer_mixture(old)!r} --change-settings"
            )
        skip.add("opponents")
    problem = runfolder.recorded_problem(p, folder, skip=skip)
    if problem:
        p.error(problem)


def _given(p: argparse.ArgumentParser, argv: list[str] | None, dest: str) -> bool:
    """Whether the command line gives the option of `dest`."""
    default = p.get_default(dest)
    p.set_defaults(**{dest: None})
    try:
        return getattr(p.parse_args(argv), dest) is not None
    finally:
        p.set_defaults(**{dest: default})


def _newer_mixture(old: str) -> str:
    """The `NAME*WEIGHT+...` text of an older `NAME:WEIGHT,...` one."""
    items = (item.partition(":") for item in old.split(","))
    return "+".join(
        name if weight in ("", "1") else f"{name}*{weight}" for name, _, weight in items
    )


def continues(args: argparse.Namespace) -> bool:
    """Whether the run continues the run of its --out (the resumed model lies in it)."""
    if args.resume is None:
        return False
    return args.out.resolve() in args.resume.resolve().parents


def parse_args(spec: GameSpec, argv: list[str] | None = None) -> argparse.Namespace:
    """The shared flags (defaults from `spec.defaults`), the game's own, the hyper-
    parameters; every value checked (bounds, agents, checkpoint, output folder) before any
    work, a bad one a usage error naming its flag."""
    p = command.parser(spec.name, spec.description)
    add_players_argument(p, spec.game, spec.defaults["players"])
    spec.add_arguments(p)
    _add_run_arguments(p, spec)
    _add_league_arguments(p, spec)
    _add_evaluation_arguments(p, spec)
    for name, value in spec.hyper.items():
        kind = command.positive if isinstance(value, int) else command.non_negative_float
        p.add_argument(
            f"--{name.replace('_', '-')}",
            type=HYPER_TYPES.get(name, kind),
            default=value,
            help=HYPER_HELP.get(name, "a MaskablePPO setting"),
        )
    return _checked(p, spec, argv)


def _checked(
    p: argparse.ArgumentParser, spec: GameSpec, argv: list[str] | None
) -> argparse.Namespace:
    """The arguments parsed with a resumed run's defaults (the checkpoint's
    hyper-parameters, then the run's recorded settings) and every value checked."""
    game = spec.game
    args = p.parse_args(argv)
    defaults = {k: p.get_default(k) for k in vars(args)}
    if args.resume is not None:  # the checkpoint's, then the run's recorded settings
        folder = run_folder(args.resume)
        recorded = args.out is None or _same(args.out, folder)
        if recorded:
            check_record(p, folder, given_opponents=_given(p, argv, "opponents"))
        p.set_defaults(**checkpoint_hyper(p, spec, args.resume))
        if recorded:
            try:
                runfolder.resume_defaults(p, folder)
            except ValueError as e:
                p.error(f"argument --resume: {e}")
        args = p.parse_args(argv)
    spec.check(p, args)
    if args.resume is not None:
        _check_checkpoint(p, spec, args)
    if args.out is None:
        resumed_in = run_folder(args.resume) if args.resume is not None else None
        args.out = resumed_in or fresh_dir(f"runs/{game}-{args.players}p")
    _check_out(p, args)
    args._defaults = {k: v for k, v in defaults.items() if not k.startswith("_")}
    args._defaults["out"] = f"runs/{game}-<players>p-<time>"
    return args


def _add_run_arguments(p: argparse.ArgumentParser, spec: GameSpec) -> None:
    """The opponents, the reward, the steps, the games at once, the seed and the folder."""
    d = spec.defaults
    p.add_argument(
        "--opponents",
        type=opponents_parser(spec.opponents),
        default=d["opponents"],
        help=f"a mixture NAME[*WEIGHT]+... (weight 1 where omitted) of {sorted(spec.opponents)}",
    )
    p.add_argument(
        "--reward",
        default=d["reward"],
        choices=list(reward_schemes(spec.game)),
        help="the learner's reward at the game's end: win (winning), rank (+1 first to -1 "
        "last) or margin (the score difference, scaled)",
    )
    steps = command.bounded_int(1, MAX_STEPS, "a positive int")
    p.add_argument(
        "--steps",
        type=steps,
        default=d["steps"],
        help="learner decisions to train in this run, rounded up to whole rollouts "
        "(n-steps x envs); with --resume, steps MORE than the checkpoint has (additional, "
        "not total)",
    )
    envs = command.bounded_int(1, MAX_ENVS, "a positive int")
    p.add_argument("--envs", type=envs, default=d["envs"], help="games played at once")
    p.add_argument("--seed", type=command.seed, default=0, help="seeds the games and the network")
    p.add_argument(
        "--out",
        type=Path,
        default=None,
        help=f"the run's folder (default: runs/{spec.game}-<players>p-<time>, new for every "
        "run; with --resume FOLDER: that folder); a folder holding another run is refused",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="if --out holds a run, move it aside to <out>.old-<n> and start afresh",
    )
    p.add_argument(
        "--resume",
        type=resume_path,
        help="continue a checkpoint .zip or a run folder (its newest model) for --steps more "
        "steps; into --out when the model lies in it, keeping the run's recorded settings "
        "(other ones are refused unless --change-settings); the checkpoint's hyper-parameters "
        "unless given",
    )
    runfolder.add_change_argument(p)


def _add_league_arguments(p: argparse.ArgumentParser, spec: GameSpec) -> None:
    """Behaviour cloning first, and the self-play league's snapshots."""
    d = spec.defaults
    p.add_argument(
        "--bc-expert",
        type=bc_expert_parser(spec.opponents),
        default=d.get("bc_expert"),
        help="clone this agent's play first; none: start from scratch",
    )
    p.add_argument(
        "--bc-games",
        type=GAMES,
        default=d.get("bc_games", 2000),
        help="games of --bc-expert cloned",
    )
    p.add_argument(
        "--bc-epochs",
        type=command.bounded_int(1, 10**6, "a positive int"),
        default=d.get("bc_epochs", 10),
        help="passes over the cloned decisions",
    )
    p.add_argument(
        "--snapshot-every",
        type=command.non_negative,
        default=0,
        help="learner steps between frozen copies of the policy joining the opponents "
        "(0 = no league)",
    )
    p.add_argument(
        "--snapshot-weight",
        type=command.non_negative_float,
        default=0.5,
        help="each snapshot's weight among the opponents",
    )
    p.add_argument(
        "--max-snapshots", type=command.positive, default=5, help="newest snapshots kept in play"
    )


def _add_evaluation_arguments(p: argparse.ArgumentParser, spec: GameSpec) -> None:
    """The evaluation curve, the checkpoints and the progress bar."""
    d = spec.defaults
    p.add_argument(
        "--eval-every",
        type=command.positive,
        default=d["eval_every"],
        help="learner steps between points of the evaluation curve (one at the start and "
        "one at the end too)",
    )
    p.add_argument(
        "--eval-games", type=GAMES, default=d.get("eval_games", 200), help="games per curve point"
    )
    p.add_argument(
        "--eval-opponents",
        type=eval_opponents_parser((*spec.opponents, *shipped_models(spec.game))),
        default=list(d["eval_opponents"]),
        help="comma-separated baselines or shipped models",
    )
    p.add_argument(
        "--checkpoint-every",
        type=command.positive,
        default=d["checkpoint_every"],
        help="learner steps between checkpoints (checkpoints/)",
    )
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")


def run_folder(model: Path) -> Path:
    """The run folder a model lies in (a checkpoint's is the folder above checkpoints/)."""
    folder = model.parent
    return folder.parent if folder.name == "checkpoints" else folder


def _same(a: Path, b: Path) -> bool:
    return a.resolve() == b.resolve()


def _check_out(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """A usage error if --out cannot be written, holds another run, or is resumed with
    other settings (training/runfolder.py; the module docstring gives the ways on)."""
    try:
        command.writable_dir(str(args.out))
    except argparse.ArgumentTypeError as e:
        parser.error(f"argument --out: {e}")
    args._settings = runfolder.settings_of(typed_args(args))
    runfolder.check(
        parser,
        args.out,
        args._settings,
        resuming=continues(args),
        force=args.force,
        change=args.change_settings,
    )


def load_checkpoint(parser: argparse.ArgumentParser, path: Path) -> MaskablePPO:
    """The MaskablePPO model saved at `path`, or a usage error naming the file."""
    from sb3_contrib import MaskablePPO

    try:
        return MaskablePPO.load(path, device="cpu")
    except Exception as e:  # any failure to read it: the file is not a checkpoint
        text = " ".join(str(e).split())
        parser.error(f"argument --resume: {path} is not a saved MaskablePPO model ({text})")


def checkpoint_hyper(parser: argparse.ArgumentParser, spec: GameSpec, path: Path) -> Row:
    """The hyper-parameters the checkpoint at `path` was trained with (the defaults of a
    resumed run's hyper-parameter flags)."""
    model = load_checkpoint(parser, path)
    hyper = {}
    for name in spec.hyper:
        value = getattr(model, name, None)
        value = value(1.0) if callable(value) else value  # a schedule: its starting value
        if isinstance(value, (int, float)):
            hyper[name] = type(spec.hyper[name])(value)
    return hyper


def _check_checkpoint(
    parser: argparse.ArgumentParser, spec: GameSpec, args: argparse.Namespace
) -> None:
    """A usage error unless --resume holds a saved MaskablePPO model of this game and
    player count (its observation and action spaces those of the learner's env)."""
    path = args.resume
    model = load_checkpoint(parser, path)
    names, weights = args.opponents
    one = argparse.Namespace(**{**vars(args), "envs": 1})
    probe = spec.make_env(spec.config(args), one, names, weights, 0)
    want = (probe.observation_space.shape, getattr(probe.action_space, "n", None))
    have = (model.observation_space.shape, getattr(model.action_space, "n", None))
    if want != have:
        parser.error(
            f"argument --resume: {path} plays observations {have[0]} and {have[1]} actions; "
            f"{spec.name} at {args.players} players has {want[0]} and {want[1]}: a model of "
            "another game or player count?"
        )
