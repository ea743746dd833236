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
  self-play games (`--bc-epochs`; training/imitation.py), history in `bc.json`.
- Evaluation curve (`WinRateCallback`): at the start and every `--eval-every` steps the
  policy (most probable legal action) plays `--eval-games` seat-rotated games against
  copies of each of `--eval-opponents` (training/evaluate.py's rows: win rate, Wilson
  interval, mean points); rows in `eval.csv` and TensorBoard (`tb/`), and at the end
  `learning_curve.png`.
- Checkpoints every `--checkpoint-every` steps in `checkpoints/`; the final model in
  `final.zip`; `--resume PATH.zip` continues a checkpoint for `--steps` more learner steps
  with its own hyper-parameters, on new games (league snapshots start afresh).
- Hyper-parameters: the game's `hyper` defaults, each a flag (`--learning-rate`, ...).
- `run.json`: the arguments, wall time, rates, the final evaluation and the step count,
  plus what the game's `finish` hook adds (BASARI: every baseline at 2, 3, 4 players).
"""

from __future__ import annotations

import argparse
import copy
import csv
import json
import sys
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback, CallbackList, CheckpointCallback

from asara_env.common.seeding import derived_seed

from .imitation import Samples, clone
from .sb3_vec_env import BatchedVecEnv, Opponent
from .tournament_cli import existing_file, non_negative, non_negative_float, positive

Row = dict[str, Any]


def _no_arguments(parser: argparse.ArgumentParser) -> None:
    pass


def _no_check(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    pass


@dataclass(frozen=True)
class GameSpec:
    """What the driver needs to know about one game (training/<game>/train.py)."""

    name: str  # the console script, for --help
    description: str  # the first line of --help
    opponents: Collection[str]  # the baseline agents' names: what --opponents may name
    hyper: dict[str, Any]  # MaskablePPO defaults, each one a flag
    defaults: dict[str, Any]  # defaults of the shared flags (players, opponents, ...)
    # env(args, opponent names, weights, seed) -> the learner's VecEnv
    make_env: Callable[[argparse.Namespace, list[str], list[float], int], BatchedVecEnv]
    # win_rate(model, args, opponent, games, seed) -> a row of training/evaluate.py
    win_rate: Callable[[Any, argparse.Namespace, str, int, int], Row]
    # collect(args, expert, games, seed) -> behaviour-cloning samples
    collect: Callable[[argparse.Namespace, str, int, int], Samples]
    policy_kwargs: Callable[[], dict[str, Any]]
    policy_agent: Callable[[Any, int], Opponent]  # (policy holder, seed): a league snapshot
    add_arguments: Callable[[argparse.ArgumentParser], None] = _no_arguments
    check: Callable[[argparse.ArgumentParser, argparse.Namespace], None] = _no_check
    # finish(model, args, run info) -> extra entries for run.json (a final evaluation)
    finish: Callable[[Any, argparse.Namespace, Row], Row] | None = None


# ------------------------------------------------------------------------------ evaluation
class WinRateCallback(BaseCallback):
    """Every `every` steps (and at the start): win rates against the opponents, to eval.csv
    and TensorBoard. `win_rate(model, opponent)` plays the games and returns one row."""

    def __init__(
        self,
        win_rate: Callable[[Any, str], Row],
        opponents: list[str],
        every: int,
        out: Path,
    ) -> None:
        super().__init__()
        self.win_rate, self.opponents, self.every = win_rate, opponents, every
        self.path, self.next_at = out / "eval.csv", 0

    def _on_training_start(self) -> None:
        self.next_at = self.num_timesteps

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_at:
            self.next_at = self.num_timesteps + self.every
            self.evaluate()
        return True

    def evaluate(self) -> list[Row]:
        """One row per opponent at the current step count, appended to eval.csv."""
        rows = []
        for name in self.opponents:
            r = self.win_rate(self.model, name)
            r["steps"] = self.num_timesteps
            self.logger.record(f"eval/win_rate_vs_{name}", r["win_rate"])
            rows.append(r)
        new = not self.path.exists()
        with self.path.open("a", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            if new:
                writer.writeheader()
            writer.writerows(rows)
        summary = ", ".join(f"{r['opponent']} {r['win_rate']:.3f}" for r in rows)
        print(f"[eval @ {self.num_timesteps} steps] win rate vs {summary}", flush=True)
        return rows


class LeagueCallback(BaseCallback):
    """Every `every` steps a frozen copy of the policy (`snapshot(holder, seed)`, the game's
    policy agent) joins the opponents with weight `weight`; only the newest `most` keep a
    weight (older ones stay in the list with weight 0, so games under way keep their
    opponents)."""

    def __init__(
        self,
        env: BatchedVecEnv,
        every: int,
        weight: float,
        most: int,
        seed: int,
        snapshot: Callable[[Any, int], Opponent],
    ) -> None:
        super().__init__()
        self.env, self.every, self.weight, self.most, self.seed = env, every, weight, most, seed
        self.snapshot = snapshot
        self.base: list[Opponent] = list(env.opponents)
        self.base_weights = list(env.opponent_weights)
        self.snapshots: list[Opponent] = []
        self.next_at = 0

    def _on_training_start(self) -> None:
        self.next_at = self.num_timesteps + self.every

    def _on_step(self) -> bool:
        if self.every and self.num_timesteps >= self.next_at:
            self.next_at = self.num_timesteps + self.every
            frozen = SimpleNamespace(policy=copy.deepcopy(self.model.policy))
            self.snapshots.append(self.snapshot(frozen, self.seed + len(self.snapshots)))
            live = [
                self.weight if i >= len(self.snapshots) - self.most else 0.0
                for i in range(len(self.snapshots))
            ]
            self.env.set_opponents(self.base + self.snapshots, self.base_weights + live)
        return True


def plot_learning_curve(csv_path: Path, png: Path) -> None:
    """Win rate (with 95% interval) against each evaluation opponent over training steps."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = list(csv.DictReader(csv_path.open()))
    fig, ax = plt.subplots(figsize=(7, 4))
    for name in dict.fromkeys(r["opponent"] for r in rows):
        mine = [r for r in rows if r["opponent"] == name]
        steps = [int(r["steps"]) for r in mine]
        rate = [float(r["win_rate"]) for r in mine]
        ax.plot(steps, rate, marker="o", label=f"vs {name}")
        low, high = ([float(r[k]) for r in mine] for k in ("ci_low", "ci_high"))
        ax.fill_between(steps, low, high, alpha=0.2)
    ax.set_xlabel("learner steps")
    ax.set_ylabel("win rate (95% Wilson)")
    ax.set_ylim(0, 1)
    ax.legend()
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    plt.close(fig)


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
            weights.append(non_negative_float(weight) if weight else 1.0)
        if not sum(weights) > 0:
            raise argparse.ArgumentTypeError(f"the weights of {text!r} sum to 0")
        return names, weights

    return parse


def resumed(args: argparse.Namespace) -> MaskablePPO | None:
    """The checkpoint to continue, if any (its hyper-parameters, not the flags', apply)."""
    if not args.resume:
        return None
    model = MaskablePPO.load(args.resume, device="cpu")
    model.tensorboard_log = str(args.out / "tb")
    return model


def build_model(
    spec: GameSpec, args: argparse.Namespace, env: BatchedVecEnv, model: MaskablePPO | None
) -> MaskablePPO:
    """The resumed model on `env`, or a new one (behaviour-cloned first with --bc-expert)."""
    if model is not None:
        model.set_env(env)
        return model
    hyper = {k: getattr(args, k) for k in spec.hyper}
    model = MaskablePPO(
        "MlpPolicy",
        env,
        policy_kwargs=spec.policy_kwargs(),
        seed=args.seed,
        tensorboard_log=str(args.out / "tb"),
        device="cpu",
        verbose=0,
        **hyper,
    )
    if args.bc_expert:
        samples = spec.collect(args, args.bc_expert, args.bc_games, args.seed + 1)
        history = clone(model, samples, args.bc_epochs, seed=args.seed)
        (args.out / "bc.json").write_text(json.dumps(history, indent=1))
        print(
            f"behaviour cloning of {args.bc_expert}: {len(samples)} decisions, "
            f"accuracy {history[-1]['accuracy']:.3f}",
            flush=True,
        )
    return model


def train(spec: GameSpec, args: argparse.Namespace) -> MaskablePPO:
    """One training run (see the module docstring); returns the trained model."""
    began = time.perf_counter()
    args.out.mkdir(parents=True, exist_ok=True)
    names, weights = args.opponents
    previous = resumed(args)
    done = previous.num_timesteps if previous is not None else 0
    env = spec.make_env(args, names, weights, derived_seed(args.seed, done))  # new games
    model = build_model(spec, args, env, previous)
    setup_seconds = time.perf_counter() - began  # with the behaviour cloning
    eval_seed = args.seed + 7

    def win_rate(m: Any, opponent: str) -> Row:
        return spec.win_rate(m, args, opponent, args.eval_games, eval_seed)

    evaluator = WinRateCallback(win_rate, args.eval_opponents, args.eval_every, args.out)
    league = LeagueCallback(
        env,
        args.snapshot_every,
        args.snapshot_weight,
        args.max_snapshots,
        args.seed + 1000,
        spec.policy_agent,
    )
    every = max(args.checkpoint_every // args.envs, 1)
    checkpoints = CheckpointCallback(every, str(args.out / "checkpoints"), "model")
    start = time.perf_counter()
    model.learn(
        args.steps,
        callback=CallbackList([checkpoints, league, evaluator]),
        progress_bar=not args.no_progress,
        reset_num_timesteps=not args.resume,
        tb_log_name="ppo",
    )
    seconds = time.perf_counter() - start
    model.save(args.out / "final.zip")
    info = {
        "args": {k: str(v) for k, v in vars(args).items()},
        "seconds": seconds,  # model.learn only
        "setup_seconds": setup_seconds,  # the environment and model, behaviour cloning
        "learner_steps_per_second": args.steps / seconds,
        "env_decisions_per_second": env.decisions / seconds,  # learner + opponents
        "final_eval": evaluator.evaluate(),
        "num_timesteps": model.num_timesteps,
    }
    if spec.finish is not None:
        info.update(spec.finish(model, args, info))
    info["wall_seconds"] = time.perf_counter() - began  # everything but the plot
    (args.out / "run.json").write_text(json.dumps(info, indent=1))
    plot_learning_curve(args.out / "eval.csv", args.out / "learning_curve.png")
    rate = env.decisions / seconds
    print(f"done: {args.steps} learner steps in {seconds:.0f} s ({rate:.0f} env decisions/s);")
    print(f"model in {args.out / 'final.zip'}")
    return model


def parse_args(spec: GameSpec, argv: list[str] | None = None) -> argparse.Namespace:
    """The shared flags (defaults from `spec.defaults`), the game's own, the hyper-
    parameters; unknown agents are refused."""
    d = spec.defaults
    p = argparse.ArgumentParser(prog=spec.name, description=spec.description)
    p.add_argument("--players", type=int, default=d["players"], choices=(2, 3, 4))
    spec.add_arguments(p)
    p.add_argument(
        "--opponents",
        type=opponents_parser(spec.opponents),
        default=d["opponents"],
        help=f"name:weight pairs among {sorted(spec.opponents)} (default {d['opponents']})",
    )
    p.add_argument("--reward", default=d["reward"], choices=("win", "rank", "margin"))
    p.add_argument("--steps", type=positive, default=d["steps"], help="learner decisions to train")
    p.add_argument("--envs", type=positive, default=d["envs"], help="games played at once")
    p.add_argument("--seed", type=non_negative, default=0)
    p.add_argument("--out", type=Path, default=Path(d["out"]))
    p.add_argument("--resume", type=existing_file, help="a checkpoint .zip to continue")
    p.add_argument("--bc-expert", choices=sorted(spec.opponents), help="clone this agent first")
    p.add_argument("--bc-games", type=positive, default=2000)
    p.add_argument("--bc-epochs", type=positive, default=10)
    p.add_argument("--snapshot-every", type=non_negative, default=0, help="0 = no league")
    p.add_argument("--snapshot-weight", type=non_negative_float, default=0.5)
    p.add_argument("--max-snapshots", type=positive, default=5)
    p.add_argument("--eval-every", type=positive, default=d["eval_every"])
    p.add_argument("--eval-games", type=positive, default=200, help="games per curve point")
    p.add_argument(
        "--eval-opponents", type=lambda s: s.split(","), default=list(d["eval_opponents"])
    )
    p.add_argument("--checkpoint-every", type=positive, default=d["checkpoint_every"])
    p.add_argument("--no-progress", action="store_true")
    for name, value in spec.hyper.items():
        kind = positive if isinstance(value, int) else non_negative_float
        p.add_argument(f"--{name.replace('_', '-')}", type=kind, default=value)
    args = p.parse_args(argv)
    unknown = [o for o in args.eval_opponents if o not in spec.opponents]
    if unknown:
        p.error(f"unknown --eval-opponents {unknown}; known: {sorted(spec.opponents)}")
    spec.check(p, args)
    if args.resume is not None:
        _check_checkpoint(p, args.resume)
    return args


def _check_checkpoint(parser: argparse.ArgumentParser, path: Path) -> None:
    """A usage error unless `path` holds a saved MaskablePPO model."""
    try:
        MaskablePPO.load(path, device="cpu")
    except Exception as e:  # any failure to read it: the file is not a checkpoint
        parser.error(f"argument --resume: {path} is not a saved MaskablePPO model ({e})")


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


if __name__ == "__main__":
    sys.exit(main())
