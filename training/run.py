"""The training driver shared by every game: `asara-train` (training/asara/train.py) and
`basari-train` (training/basari/train.py) are this driver with a `GameSpec` each
(`python -m training.run GAME ...` runs any game's).

A run trains MaskablePPO with one learner seat against opponents drawn by weight:

- Opponents: `--opponents name:weight,...` (weight 1 where omitted), names from the game's
  registry of baseline agents.
- Self-play league (`LeagueCallback`): every `--snapshot-every` learner steps a frozen copy
  of the policy (the game's `policy_agent`) joins the opponents with weight `--snapshot-weight`;
  only the newest `--max-snapshots` keep a weight.
- Warm start: `--bc-expert NAME` first clones that baseline's play from `--bc-games`
  self-play games (`--bc-epochs`; training/imitation.py), history in `bc.json`; the
  game's default may name one (ASARA: towers), `--bc-expert none` starts from scratch.
- Evaluation curve (`WinRateCallback`): every `--eval-every` steps the policy (most
  probable legal action) plays `--eval-games` seat-rotated games against copies of each of
  `--eval-opponents` (training/evaluate.py's rows: win rate, Wilson interval, mean
  points), from the start where the run spans at least one interval, and always at the
  end; rows in `eval.csv` and TensorBoard (`tb/`), and at the end `learning_curve.png`.
- Checkpoints every `--checkpoint-every` steps in `checkpoints/`; the final model in
  `final.zip`; `--resume PATH` (a checkpoint .zip, or a run folder: its newest model)
  continues it for `--steps` MORE learner steps (additional, not total), on new games
  (league snapshots start afresh). Its hyper-parameters are the checkpoint's unless given.
- Output folder and its settings (training/runfolder.py, shared with every trainer):
  `--out` (default `runs/<game>-<players>p-<YYYYmmdd-HHMMSS>`, new for every run). The
  run's settings (every option but `--steps`, `--out`, `--resume`, `--force`,
  `--no-progress`) are recorded once, in `run.json`, when it starts. A folder that already
  holds something is refused before any work, unless the run continues it (`--resume` of
  that folder or of a checkpoint in it) or `--force` is given (the old folder is then moved
  aside to `<out>.old-<n>`, never deleted). A resumed run keeps the recorded settings not
  given on the command line; one given with another value is refused, naming each
  difference, unless `--change-settings` says the change is wanted: it is then recorded in
  run.json beside the original settings (`changes`, with the step it began at), eval.csv's
  `settings` column counts the changes in effect, and the learning curve marks the step.
  Every file is written atomically (a temporary file renamed over it); Ctrl-C saves the
  model so far as `interrupted.zip` (continue with `--resume OUT`).
- Steps: PPO collects whole rollouts of `--n-steps` x `--envs` learner decisions, so
  `--steps` is rounded up to a whole number of rollouts; a run that rounds says so once
  when it starts ("20,000 steps asked, 20,480 run: whole rollouts of 2,048 (--n-steps 128
  x --envs 16)"), and SB3's progress bar counts to the steps that run.
- Hyper-parameters: the game's `hyper` defaults, each a flag (`--learning-rate`, ...).
- `run.json`: `settings` and `changes` (above), then the last session's arguments as typed
  values (`args`) and the defaults they came from (`defaults`), wall time, rates, the final
  evaluation and the step count, plus what the game's `finish` hook adds (BASARI: every
  baseline at 2, 3, 4 players); `learner_steps` is the steps run (rounded up).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from asara_env.common.seeding import derived_seed
from asara_env.games import reward_schemes
from commandline import command
from commandline.command import add_players_argument
from commandline.outputs import atomic_save, atomic_write_text, fresh_dir

from . import runfolder
from .evaluate import TRAINED_PLAYERS

if TYPE_CHECKING:  # torch and stable-baselines3 are imported once the arguments are checked
    from sb3_contrib import MaskablePPO

    from .imitation import Samples
    from .sb3_vec_env import BatchedVecEnv, Opponent

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

Row = dict[str, Any]


def _no_arguments(parser: argparse.ArgumentParser) -> None:
    pass


def _no_check(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    pass


@dataclass(frozen=True)
class GameSpec:
    """What the driver needs to know about one game (training/<game>/train.py)."""

    game: str  # the game's registered name (its card: the player counts)
    name: str  # the console script, for --help
    description: str  # the first line of --help
    opponents: Collection[str]  # the baseline agents' names: what --opponents may name
    hyper: dict[str, Any]  # MaskablePPO defaults, each one a flag
    defaults: dict[str, Any]  # defaults of the shared flags (players, opponents, ...)
    # the parsed options -> the game's config: built once, then passed on whole
    config: Callable[[argparse.Namespace], Any]
    # env(config, args, opponent names, weights, seed) -> the learner's VecEnv
    make_env: Callable[[Any, argparse.Namespace, list[str], list[float], int], BatchedVecEnv]
    # win_rate(model, config, opponent, games, seed) -> a row of training/evaluate.py
    win_rate: Callable[[Any, Any, str, int, int], Row]
    # collect(config, expert, games, seed, reward) -> behaviour-cloning samples
    collect: Callable[[Any, str, int, int, str], Samples]
    policy_kwargs: Callable[[], dict[str, Any]]
    policy_agent: Callable[[Any, int], Opponent]  # (policy holder, seed): a league snapshot
    add_arguments: Callable[[argparse.ArgumentParser], None] = _no_arguments
    check: Callable[[argparse.ArgumentParser, argparse.Namespace], None] = _no_check
    # finish(model, args, run info) -> extra entries for run.json (a final evaluation)
    finish: Callable[[Any, argparse.Namespace, Row], Row] | None = None


# ------------------------------------------------------------------------------ the run
def opponents_parser(agents: Collection[str]) -> Callable[[str], tuple[list[str], list[float]]]:
    """A parser of 'a:0.6,b:0.4' -> (names, weights) (weight 1 where omitted), names
    checked against `agents`, weights >= 0 with a positive sum."""

    def parse(text: str) -> tuple[list[str], list[float]]:
        names: list[str] = []
        weights: list[float] = []
        for item in text.split(","):
            name, _, weight = item.partition(":")
            if name not in agents:
                raise argparse.ArgumentTypeError(f"unknown agent {name!r}; known: {sorted(agents)}")
            names.append(name)
            weights.append(command.non_negative_float(weight) if weight else 1.0)
        if not sum(weights) > 0:
            raise argparse.ArgumentTypeError(f"the weights of {text!r} sum to 0")
        return names, weights

    return parse


def resumed(spec: GameSpec, args: argparse.Namespace) -> MaskablePPO | None:
    """The checkpoint to continue, if any, with the hyper-parameters of the flags (the
    checkpoint's own unless given, see `parse_args`)."""
    if not args.resume:
        return None
    from sb3_contrib import MaskablePPO

    hyper = {k: getattr(args, k) for k in spec.hyper}
    model = MaskablePPO.load(args.resume, device="cpu", **hyper)
    model.tensorboard_log = str(args.out / "tb")
    return model


def build_model(
    spec: GameSpec,
    args: argparse.Namespace,
    config: Any,
    env: BatchedVecEnv,
    model: MaskablePPO | None,
) -> MaskablePPO:
    """The resumed model on `env`, or a new one (behaviour-cloned first with --bc-expert)."""
    from sb3_contrib import MaskablePPO

    from .imitation import clone
    from .policy import MaskedPolicy

    if model is not None:
        model.set_env(env)
        return model
    hyper = {k: getattr(args, k) for k in spec.hyper}
    model = MaskablePPO(
        MaskedPolicy,
        env,
        policy_kwargs=spec.policy_kwargs(),
        seed=args.seed,
        tensorboard_log=str(args.out / "tb"),
        device="cpu",
        verbose=0,
        **hyper,
    )
    if args.bc_expert:
        samples = spec.collect(config, args.bc_expert, args.bc_games, args.seed + 1, args.reward)
        history = clone(model, samples, args.bc_epochs, seed=args.seed)
        atomic_write_text(args.out / "bc.json", json.dumps(history, indent=1))
        print(
            f"behaviour cloning of {args.bc_expert}: {len(samples)} decisions, "
            f"accuracy {history[-1]['accuracy']:.3f}",
            flush=True,
        )
    return model


def train(spec: GameSpec, args: argparse.Namespace) -> MaskablePPO:
    """One training run (see the module docstring); returns the trained model."""
    from stable_baselines3.common.callbacks import CallbackList

    from .callbacks import AtomicCheckpoints, LeagueCallback, WinRateCallback, plot_learning_curve

    began = time.perf_counter()
    previous = resumed(spec, args)
    done = previous.num_timesteps if previous is not None else 0
    here = continues(args)
    started = runfolder.start(args.out, args._settings, resuming=here, force=args.force, at=done)
    if started.moved is not None:
        print(f"--force: the old {args.out} is now {started.moved}", flush=True)
    if started.change:
        print(f"settings changed from step {done}: {runfolder.describe(started.change)}")
    config = spec.config(args)  # the game the options ask for, passed on whole
    names, weights = args.opponents
    env = spec.make_env(config, args, names, weights, derived_seed(args.seed, done))  # new games
    model = build_model(spec, args, config, env, previous)
    setattr(model, TRAINED_PLAYERS, config.num_players)  # saved with it: evaluate checks it
    setup_seconds = time.perf_counter() - began  # with the behaviour cloning
    eval_seed = args.seed + 7

    def win_rate(m: Any, opponent: str) -> Row:
        return spec.win_rate(m, config, opponent, args.eval_games, eval_seed)

    segment = runfolder.segment(args.out)
    planned = whole_rollouts(args.steps, model.n_steps * env.num_envs)  # what PPO will run
    curve = planned >= args.eval_every  # a run shorter than an interval: the end only
    evaluator = WinRateCallback(
        win_rate, args.eval_opponents, args.eval_every, args.out, segment, at_start=curve
    )
    league = LeagueCallback(
        env,
        args.snapshot_every,
        args.snapshot_weight,
        args.max_snapshots,
        args.seed + 1000,
        spec.policy_agent,
    )
    every = max(args.checkpoint_every // args.envs, 1)
    checkpoints = AtomicCheckpoints(every, str(args.out / "checkpoints"), "model")
    if planned != args.steps:
        print(rounded_up_notice(args.steps, model.n_steps, env.num_envs), flush=True)
    start = time.perf_counter()
    try:
        model.learn(  # SB3's progress bar counts to the steps given: those that will run
            planned,
            callback=CallbackList([checkpoints, league, evaluator]),
            progress_bar=not args.no_progress,
            reset_num_timesteps=not args.resume,
            tb_log_name="ppo",
        )
    except KeyboardInterrupt:
        atomic_save(model, args.out / "interrupted.zip")
        raise command.Interrupted(
            f"the model after {model.num_timesteps} steps is in {args.out / 'interrupted.zip'}; "
            f"continue it with --resume {args.out}"
        ) from None
    seconds = time.perf_counter() - start
    ran = model.num_timesteps - done
    atomic_save(model, args.out / "final.zip")
    info = {
        "args": typed_args(args),
        "defaults": args._defaults,
        "seconds": seconds,  # model.learn only
        "setup_seconds": setup_seconds,  # the environment and model, behaviour cloning
        "learner_steps": ran,  # --steps rounded up to whole rollouts
        "learner_steps_per_second": ran / seconds,
        "env_decisions_per_second": env.decisions / seconds,  # learner + opponents
        "final_eval": evaluator.evaluate(),
        "num_timesteps": model.num_timesteps,
    }
    if spec.finish is not None:
        info.update(spec.finish(model, args, info))
    info["wall_seconds"] = time.perf_counter() - began  # everything but the plot
    runfolder.update_record(args.out, info)
    marks = runfolder.change_marks(args.out)
    plot_learning_curve(args.out / "eval.csv", args.out / "learning_curve.png", marks)
    rate = env.decisions / seconds
    print(f"done: {ran:,} learner steps in {seconds:.0f} s ({rate:.0f} env decisions/s);")
    print(f"model in {args.out / 'final.zip'}")
    return model


def whole_rollouts(steps: int, rollout: int) -> int:
    """The learner steps PPO runs when asked for `steps`: it collects whole rollouts of
    `rollout` (n_steps x envs) decisions until it has `steps`, so `steps` rounded up."""
    return -(-steps // rollout) * rollout


def rounded_up_notice(steps: int, n_steps: int, envs: int) -> str:
    """The line saying that `steps` are rounded up to whole rollouts, and why."""
    rollout = n_steps * envs
    return (
        f"{steps:,} steps asked, {whole_rollouts(steps, rollout):,} run: whole rollouts of "
        f"{rollout:,} (--n-steps {n_steps} x --envs {envs})"
    )


def typed_args(args: argparse.Namespace) -> Row:
    """The arguments as JSON values that load back into the command: ints as ints, paths
    as strings, `--opponents` as its name:weight text."""

    def plain(value: Any) -> Any:
        if isinstance(value, Path):
            return str(value)
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        return value

    typed = {k: plain(v) for k, v in vars(args).items() if not k.startswith("_")}
    names, weights = args.opponents
    typed["opponents"] = ",".join(f"{n}:{w:g}" for n, w in zip(names, weights))
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


def continues(args: argparse.Namespace) -> bool:
    """Whether the run continues the run of its --out (the resumed model lies in it)."""
    if args.resume is None:
        return False
    return args.out.resolve() in args.resume.resolve().parents


def parse_args(spec: GameSpec, argv: list[str] | None = None) -> argparse.Namespace:
    """The shared flags (defaults from `spec.defaults`), the game's own, the hyper-
    parameters; every value checked (bounds, agents, checkpoint, output folder) before any
    work, a bad one a usage error naming its flag."""
    d = spec.defaults
    game = spec.game
    p = command.parser(spec.name, spec.description)
    add_players_argument(p, game, d["players"])
    spec.add_arguments(p)
    p.add_argument(
        "--opponents",
        type=opponents_parser(spec.opponents),
        default=d["opponents"],
        help=f"name:weight pairs, comma-separated, among {sorted(spec.opponents)}",
    )
    p.add_argument(
        "--reward",
        default=d["reward"],
        choices=list(reward_schemes(game)),
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
        help=f"the run's folder (default: runs/{game}-<players>p-<time>, new for every run; "
        "with --resume FOLDER: that folder); a folder holding another run is refused",
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
    games = command.bounded_int(1, MAX_GAMES, "a positive int")
    p.add_argument(
        "--bc-expert",
        type=bc_expert_parser(spec.opponents),
        default=d.get("bc_expert"),
        help="clone this agent's play first; none: start from scratch",
    )
    p.add_argument(
        "--bc-games",
        type=games,
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
    p.add_argument(
        "--eval-every",
        type=command.positive,
        default=d["eval_every"],
        help="learner steps between points of the evaluation curve (one at the start and "
        "one at the end too)",
    )
    p.add_argument(
        "--eval-games", type=games, default=d.get("eval_games", 200), help="games per curve point"
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
    for name, value in spec.hyper.items():
        kind = command.positive if isinstance(value, int) else command.non_negative_float
        p.add_argument(
            f"--{name.replace('_', '-')}",
            type=HYPER_TYPES.get(name, kind),
            default=value,
            help=HYPER_HELP.get(name, "a MaskablePPO setting"),
        )
    args = p.parse_args(argv)
    defaults = {k: p.get_default(k) for k in vars(args)}
    if args.resume is not None:  # the checkpoint's, then the run's recorded settings
        p.set_defaults(**checkpoint_hyper(p, spec, args.resume))
        folder = run_folder(args.resume)
        if args.out is None or _same(args.out, folder):
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


def game_spec(game: str) -> GameSpec:
    """The `GameSpec` of the game named `game` (training/<game>/train.py)."""
    from .games import game_module

    spec: GameSpec = game_module(game, "train").SPEC
    return spec


def main(argv: list[str] | None = None) -> int:
    """`python -m training.run GAME [the game's training flags]`."""
    from .games import split_game

    game, rest = split_game("python -m training.run", "Train a learner seat.", argv)
    spec = game_spec(game)
    train(spec, parse_args(spec, rest))
    return 0


main = command.run_main("python -m training.run")(main)


if __name__ == "__main__":
    sys.exit(main())
