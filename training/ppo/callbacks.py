"""The callbacks of a training run (training/ppo/run.py): the evaluation curve
(`WinRateCallback`), the self-play league (`LeagueCallback`), atomic checkpoints and the
learning-curve picture. Imported by the run once its arguments are checked (it imports
stable-baselines3 and torch)."""

from __future__ import annotations

import copy
import csv
from collections.abc import Callable, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from stable_baselines3.common.callbacks import BaseCallback, CheckpointCallback

from commandline.outputs import atomic_open, atomic_save

from .sb3_vec_env import BatchedVecEnv, Opponent

Row = dict[str, Any]


class WinRateCallback(BaseCallback):
    """Every `every` steps (and at the start): win rates against the opponents, to eval.csv
    and TensorBoard. `win_rate(model, opponent)` plays the games and returns one row."""

    def __init__(
        self,
        win_rate: Callable[[Any, str], Row],
        opponents: list[str],
        every: int,
        out: Path,
        segment: int = 0,
        at_start: bool = True,
    ) -> None:
        super().__init__()
        self.win_rate, self.opponents, self.every = win_rate, opponents, every
        self.path, self.next_at, self.segment = out / "eval.csv", 0, segment
        self.at_start = at_start

    def _on_training_start(self) -> None:
        self.next_at = self.num_timesteps + (0 if self.at_start else self.every)

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next_at:
            self.next_at = self.num_timesteps + self.every
            self.evaluate()
        return True

    def evaluate(self) -> list[Row]:
        """One row per opponent at the current step count, appended to eval.csv (with
        the run's settings segment: 0 until the first recorded change of settings)."""
        rows = []
        for name in self.opponents:
            r = self.win_rate(self.model, name)
            r["steps"] = self.num_timesteps
            r["settings"] = self.segment
            self.logger.record(f"eval/win_rate_vs_{name}", r["win_rate"])
            rows.append(r)
        before = list(csv.DictReader(self.path.open())) if self.path.exists() else []
        names = list(dict.fromkeys([*(before[0] if before else {}), *rows[0]]))
        with atomic_open(self.path, "w", newline="") as f:  # the old rows and the new ones
            writer = csv.DictWriter(f, fieldnames=names, restval=0)  # older rows: segment 0
            writer.writeheader()
            writer.writerows([*before, *rows])
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


class AtomicCheckpoints(CheckpointCallback):
    """SB3's `CheckpointCallback`, each model written atomically."""

    def _on_step(self) -> bool:
        if self.n_calls % self.save_freq == 0:
            atomic_save(self.model, Path(self._checkpoint_path(extension="zip")))
        return True


def plot_learning_curve(csv_path: Path, png: Path, marks: Sequence[tuple[int, str]] = ()) -> None:
    """Win rate (with 95% interval) against each evaluation opponent over training steps;
    a dashed line at each (step, change of settings) of `marks`."""
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
    for at, text in marks:
        ax.axvline(at, color="grey", linestyle="--", linewidth=1)
        ax.annotate(text, (at, 0.98), rotation=90, va="top", ha="right", fontsize=7)
    ax.set_xlabel("learner steps")
    ax.set_ylabel("win rate (95% Wilson)")
    ax.set_ylim(0, 1)
    ax.legend()
    fig.tight_layout()
    with atomic_open(png, "wb") as f:
        fig.savefig(f, dpi=100, format="png")
    plt.close(fig)
