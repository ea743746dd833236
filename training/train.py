"""Train a MaskablePPO agent on the batched core (console script `asara-train`).

    python -m training.train --players 2 --opponents towers:0.6,tall:0.2,greedy:0.2 \\
        --bc-expert towers --steps 2000000 --out runs/2p

- Environment: `training.vec_env.AsaraVecEnv` (`--envs` games at once in the core); the
  learner plays a random seat per game, opponents are drawn per game from `--opponents`
  (name:weight pairs). Reward: `--reward` (win / rank / margin, see asara_env/aec.py).
- Self-play league: every `--snapshot-every` steps the current policy is frozen and added
  to the opponents with weight `--snapshot-weight` (at most `--max-snapshots`, the oldest
  dropped).
- Warm start: `--bc-expert NAME` clones that baseline's play first (`--bc-games`,
  `--bc-epochs`; see training/imitation.py).
- Network and hyper-parameters: `training.policy.policy_kwargs()` (log1p features, 512-256
  ReLU MLPs for policy and value) and the defaults of `HYPER` below (overridable).
- Output in `--out`: TensorBoard logs (`tb/`), checkpoints (`checkpoints/`), `eval.csv`
  (win rate against each baseline every `--eval-every` steps, from heads-up or full-table
  games through the tournament harness) with `learning_curve.png`, and `final.zip`.
- `--resume PATH.zip` continues a run from a checkpoint: `--steps` more learner steps
  with the checkpoint's hyper-parameters, on new games; league snapshots start afresh.
"""

from __future__ import annotations

import argparse
import copy
import csv
import json
import time
from pathlib import Path
from types import SimpleNamespace

from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback, CallbackList, CheckpointCallback

from agents import AGENTS, PolicyAgent
from apps.options import add_expansions_argument, check_rules
from asara_env.core import derived_seed

from .evaluate import win_rate
from .imitation import clone, collect
from .policy import policy_kwargs
from .vec_env import AsaraVecEnv

HYPER = {  # MaskablePPO settings (documented defaults; see --help)
    "learning_rate": 1e-4,
    "n_steps": 128,
    "batch_size": 1024,
    "n_epochs": 4,
    "gamma": 1.0,
    "gae_lambda": 0.95,
    "clip_range": 0.1,
    "ent_coef": 0.003,
    "vf_coef": 0.5,
}


# ------------------------------------------------------------------------------ evaluation
class WinRateCallback(BaseCallback):
    """Every `every` steps (and at the start): win rates against the baselines, to eval.csv
    and TensorBoard."""

    def __init__(self, config, opponents, games, every, out: Path, seed: int):
        super().__init__()
        self.config, self.opponents, self.games, self.every = config, opponents, games, every
        self.path, self.seed, self.next_at = out / "eval.csv", seed, 0

    def _on_training_start(self) -> None:
        self.next_at = self.num_timesteps

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_at:
            self.next_at = self.num_timesteps + self.every
            self.evaluate()
        return True

    def evaluate(self) -> list[dict]:
        rows = []
        for name in self.opponents:
            r = win_rate(self.model, self.config, name, self.games, self.seed)
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
    """Every `every` steps a frozen copy of the policy joins the opponents with weight
    `weight`; only the newest `most` keep a weight (older ones stay in the list with
    weight 0, so games under way keep their opponents)."""

    def __init__(self, env: AsaraVecEnv, every: int, weight: float, most: int, seed: int):
        super().__init__()
        self.env, self.every, self.weight, self.most, self.seed = env, every, weight, most, seed
        self.base = list(env.opponents)
        self.base_weights = list(env.opponent_weights)
        self.snapshots: list[PolicyAgent] = []
        self.next_at = 0

    def _on_training_start(self) -> None:
        self.next_at = self.num_timesteps + self.every

    def _on_step(self) -> bool:
        if self.every and self.num_timesteps >= self.next_at:
            self.next_at = self.num_timesteps + self.every
            frozen = SimpleNamespace(policy=copy.deepcopy(self.model.policy))
            self.snapshots.append(PolicyAgent(frozen, seed=self.seed + len(self.snapshots)))
            live = [
                self.weight if i >= len(self.snapshots) - self.most else 0.0
                for i in range(len(self.snapshots))
            ]
            self.env.set_opponents(self.base + self.snapshots, self.base_weights + live)
        return True


# ------------------------------------------------------------------------------ the run
def parse_opponents(text: str) -> tuple[list[str], list[float]]:
    """'towers:0.6,greedy:0.4' -> names and weights (weight 1 where omitted)."""
    names, weights = [], []
    for item in text.split(","):
        name, _, weight = item.partition(":")
        if name not in AGENTS:
            raise argparse.ArgumentTypeError(f"unknown agent {name!r}; known: {sorted(AGENTS)}")
        names.append(name)
        weights.append(float(weight) if weight else 1.0)
    return names, weights


def resumed(args) -> MaskablePPO | None:
    """The checkpoint to continue, if any (its hyper-parameters, not the flags', apply)."""
    if not args.resume:
        return None
    model = MaskablePPO.load(args.resume, device="cpu")
    model.tensorboard_log = str(args.out / "tb")
    return model


def build_model(args, env: AsaraVecEnv, model: MaskablePPO | None) -> MaskablePPO:
    if model is not None:
        model.set_env(env)
        return model
    hyper = {k: getattr(args, k) for k in HYPER}
    model = MaskablePPO(
        "MlpPolicy",
        env,
        policy_kwargs=policy_kwargs(),
        seed=args.seed,
        tensorboard_log=str(args.out / "tb"),
        device="cpu",
        verbose=0,
        **hyper,
    )
    if args.bc_expert:
        samples = collect(env.config, args.bc_expert, args.bc_games, args.seed + 1, args.reward)
        history = clone(model, samples, args.bc_epochs, seed=args.seed)
        (args.out / "bc.json").write_text(json.dumps(history, indent=1))
        print(
            f"behaviour cloning of {args.bc_expert}: {len(samples)} decisions, "
            f"accuracy {history[-1]['accuracy']:.3f}"
        )
    return model


def train(args) -> MaskablePPO:
    args.out.mkdir(parents=True, exist_ok=True)
    names, weights = args.opponents
    previous = resumed(args)
    done = previous.num_timesteps if previous is not None else 0
    seed = derived_seed(args.seed, done)  # a resumed run plays new games
    env = AsaraVecEnv(
        args.envs, args.players, args.variant, names, weights, args.reward, seed, args.expansions
    )
    model = build_model(args, env, previous)
    evaluator = WinRateCallback(
        env.config, args.eval_opponents, args.eval_games, args.eval_every, args.out, args.seed + 7
    )
    league = LeagueCallback(
        env, args.snapshot_every, args.snapshot_weight, args.max_snapshots, args.seed + 1000
    )
    every = max(args.checkpoint_every // args.envs, 1)
    checkpoints = CheckpointCallback(every, str(args.out / "checkpoints"), "model")
    callbacks = CallbackList([checkpoints, league, evaluator])
    start = time.perf_counter()
    model.learn(
        args.steps,
        callback=callbacks,
        progress_bar=not args.no_progress,
        reset_num_timesteps=not args.resume,
        tb_log_name="ppo",
    )
    seconds = time.perf_counter() - start
    model.save(args.out / "final.zip")
    final = evaluator.evaluate()
    info = {
        "args": {k: str(v) for k, v in vars(args).items()},
        "seconds": seconds,
        "learner_steps_per_second": args.steps / seconds,
        "env_decisions_per_second": env.decisions / seconds,  # learner + opponents
        "final_eval": final,
        "num_timesteps": model.num_timesteps,
    }
    (args.out / "run.json").write_text(json.dumps(info, indent=1))
    plot_learning_curve(args.out / "eval.csv", args.out / "learning_curve.png")
    rate = env.decisions / seconds
    print(f"done: {args.steps} learner steps in {seconds:.0f} s ({rate:.0f} env decisions/s);")
    print(f"model in {args.out / 'final.zip'}")
    return model


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
        ax.fill_between(
            steps, [float(r["low"]) for r in mine], [float(r["high"]) for r in mine], alpha=0.2
        )
    ax.set_xlabel("learner steps")
    ax.set_ylabel("win rate (95% Wilson)")
    ax.set_ylim(0, 1)
    ax.legend()
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    plt.close(fig)


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    p.add_argument("--variant", default="basic", choices=("basic", "pro"))
    add_expansions_argument(p)
    p.add_argument("--opponents", type=parse_opponents, default="towers:0.6,tall:0.2,greedy:0.2")
    p.add_argument("--reward", default="win", choices=("win", "rank", "margin"))
    p.add_argument("--steps", type=int, default=1_000_000, help="learner decisions to train")
    p.add_argument("--envs", type=int, default=64, help="games played at once")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=Path("runs/latest"))
    p.add_argument("--resume", type=Path, help="a checkpoint .zip to continue")
    p.add_argument("--bc-expert", choices=sorted(AGENTS), help="clone this agent first")
    p.add_argument("--bc-games", type=int, default=2000)
    p.add_argument("--bc-epochs", type=int, default=10)
    p.add_argument("--snapshot-every", type=int, default=0, help="0 = no self-play league")
    p.add_argument("--snapshot-weight", type=float, default=0.5)
    p.add_argument("--max-snapshots", type=int, default=5)
    p.add_argument("--eval-every", type=int, default=100_000)
    p.add_argument("--eval-games", type=int, default=200)
    p.add_argument("--eval-opponents", type=lambda s: s.split(","), default=["towers", "greedy"])
    p.add_argument("--checkpoint-every", type=int, default=200_000)
    p.add_argument("--no-progress", action="store_true")
    for name, value in HYPER.items():
        p.add_argument(f"--{name.replace('_', '-')}", type=type(value), default=value)
    args = p.parse_args(argv)
    unknown = [o for o in args.eval_opponents if o not in AGENTS]
    if unknown:
        p.error(f"unknown --eval-opponents {unknown}; known: {sorted(AGENTS)}")
    check_rules(p, args)
    return args


def main(argv=None) -> None:
    train(parse_args(argv))


if __name__ == "__main__":
    main()
