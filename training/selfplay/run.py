"""The self-play trainer shared by every game: `asara-selfplay`, `basari-selfplay`, or
`python -m training.selfplay GAME ...` (each game's `SelfPlaySpec` in
training/<game>/selfplay.py).

Each iteration:

1. Self-play: `--games` games played to their ends on the game's compiled core, all at
   once, every decision of every seat by the search `--search`, one agent spec
   (training/selfplay/searchspec.py; by default the shared search's Gumbel root at 32
   simulations, guided by the current network, its leaves scored by its value head;
   training/selfplay/search.py), in this process or on `--workers` Ray actors (`--ray`,
   `--address` of a cluster) that receive the learner's weights first.
2. The positions (observation, mask, the search's improved policy, every seat's final
   reward under `--reward`) join the replay buffer (the newest `--buffer` positions).
3. The learner (in this process) makes `--updates` Adam steps on minibatches of
   `--batch-size` positions drawn from the buffer: cross-entropy to the improved policy
   plus `--value-weight` times the squared error of the seat values.

The network (training/selfplay/network.py) starts from `--start`: a shipped model's name
(the default is the game's model for the player count), a saved model's path, or
`scratch`. Every `--eval-every` iterations (and before the first) the network alone, its
most probable legal action at each decision, plays `--eval-games` seat-rotated games
against copies of each of `--eval-opponents` (the game's evaluation, Wilson intervals):
rows in eval.csv with the CPU-hours spent so far, TensorBoard scalars, and
learning_curve.png (win rate against CPU-hours).

The run folder `--out` (default `runs/<game>-selfplay-<players>p-<time>`): run.json (the
settings, recorded once; training/runfolder.py), progress.csv (one row per iteration:
positions, losses, CPU seconds), eval.csv, tb/, checkpoints/iter-<n>/ (the model, the
optimizer, the replay buffer and the counters, written into a temporary folder and
renamed; the newest `--keep` are kept) every `--checkpoint-every` iterations, and
model.zip (the newest network, a MaskablePPO file that `policy:model=...` and the
evaluation commands play). A folder holding a run is refused unless `--resume OUT`
continues it (with its recorded settings; others only with --change-settings) or
`--force` moves it aside. `--iterations N` runs N MORE iterations. The run is
deterministic: resumed from a checkpoint it continues exactly as if it had not stopped
(on the same number of workers). Ctrl-C (or SIGTERM) keeps every finished iteration: the
checkpoint of the last one is written before the command ends.
"""

from __future__ import annotations

import argparse
import csv
import json
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from asara_env.games import reward_schemes
from commandline import command
from commandline.outputs import atomic_open

from .. import runfolder
from .buffer import ReplayBuffer
from .learner import Learner, LearnerSettings
from .network import new_model, scheme_total, seat_policy
from .play import WorkerSettings
from .searchspec import playout_mix, read_search
from .spec import Row, SelfPlaySpec
from .workers import make_pool, weights_of

SESSION_ONLY = frozenset(
    {
        *runfolder.SESSION_ONLY,
        "iterations",
        "ray",
        "address",
        "workers",
        "threads",
    }
)
SCRATCH = "scratch"  # --start: a network initialised afresh
CHECKPOINTS, MODEL, PROGRESS, EVAL = "checkpoints", "model.zip", "progress.csv", "eval.csv"
MAX_GAMES = 100_000  # games of one iteration or one evaluation
MAX_SIMULATIONS = 4096
MAX_COUNT = 10**7  # iterations of a session, learner steps of one, positions of the buffer


# ---------------------------------------------------------------------- checkpoints
@dataclass
class Counters:
    """How far the run has come (kept in every checkpoint)."""

    iteration: int = 0  # iterations finished
    games: int = 0
    positions: int = 0
    selfplay_cpu: float = 0.0  # CPU seconds of self-play, every worker's
    learner_cpu: float = 0.0  # CPU seconds of the learner's updates
    eval_cpu: float = 0.0  # CPU seconds of the evaluations (not counted as training)

    @property
    def cpu_hours(self) -> float:
        """Training CPU-hours: self-play and learning."""
        return (self.selfplay_cpu + self.learner_cpu) / 3600


def checkpoint_dir(out: Path, iteration: int) -> Path:
    return out / CHECKPOINTS / f"iter-{iteration:06d}"


def latest_checkpoint(out: Path) -> Path | None:
    """The newest complete checkpoint folder of a run (None: none yet)."""
    found = sorted((out / CHECKPOINTS).glob("iter-*[0-9]"))
    return found[-1] if found else None


def save_checkpoint(
    out: Path, counters: Counters, model: Any, learner: Learner, buffer: ReplayBuffer, keep: int
) -> Path:
    """Write the checkpoint of `counters.iteration` (a temporary folder renamed into
    place, so a checkpoint folder is always complete) and drop all but the newest `keep`."""
    final = checkpoint_dir(out, counters.iteration)
    tmp = final.with_name(f".{final.name}.tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    model.save(tmp / MODEL)
    torch.save(learner.state(), tmp / "learner.pt")
    buffer.save(tmp / "buffer.npz")
    (tmp / "counters.json").write_text(json.dumps(counters.__dict__, indent=1) + "\n")
    if final.exists():
        shutil.rmtree(final)
    tmp.rename(final)
    for old in sorted((out / CHECKPOINTS).glob("iter-*[0-9]"))[:-keep]:
        shutil.rmtree(old)
    return final


def load_checkpoint(folder: Path, model: Any, learner: Learner, buffer: ReplayBuffer) -> Counters:
    """Restore the model's weights, the optimizer and the buffer from `folder` (a
    checkpoint kept without its buffer, to be small, starts with an empty one, which the
    next iterations refill)."""
    from sb3_contrib import MaskablePPO

    saved = MaskablePPO.load(folder / MODEL, device="cpu")
    model.policy.load_state_dict(saved.policy.state_dict())
    learner.load_state(torch.load(folder / "learner.pt", weights_only=True))
    if (folder / "buffer.npz").exists():
        buffer.load(folder / "buffer.npz")
    return Counters(**json.loads((folder / "counters.json").read_text()))


# ---------------------------------------------------------------------- records
def append_rows(path: Path, rows: list[Row]) -> None:
    """Add rows to a CSV (written whole, atomically; the header from the first row)."""
    old = list(csv.DictReader(path.open())) if path.exists() else []
    fields = list(dict.fromkeys([*(old[0] if old else {}), *rows[0]]))
    with atomic_open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows([*old, *rows])


def cut_rows(path: Path, iteration: int) -> None:
    """Drop the rows of iterations after `iteration` (written after the checkpoint a
    resumed run continues from)."""
    if not path.exists():
        return
    rows = list(csv.DictReader(path.open()))
    kept = [r for r in rows if int(r["iteration"]) <= iteration]
    if len(kept) < len(rows):
        if kept:
            path.unlink()
            append_rows(path, kept)
        else:
            path.unlink()


def plot_curve(out: Path) -> None:
    """learning_curve.png: win rate (95% Wilson) against training CPU-hours, one line per
    evaluation opponent."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = list(csv.DictReader((out / EVAL).open()))
    fig, ax = plt.subplots(figsize=(7, 4))
    for name in dict.fromkeys(r["opponent"] for r in rows):
        mine = [r for r in rows if r["opponent"] == name]
        hours = [float(r["cpu_hours"]) for r in mine]
        ax.plot(hours, [float(r["win_rate"]) for r in mine], marker="o", label=f"vs {name}")
        low, high = ([float(r[k]) for r in mine] for k in ("ci_low", "ci_high"))
        ax.fill_between(hours, low, high, alpha=0.2)
    ax.axhline(float(rows[0]["fair_share"]), color="grey", lw=0.8, ls=":")
    ax.set_xlabel("training CPU-hours (self-play + learner)")
    ax.set_ylabel("win rate, network alone (95% Wilson)")
    ax.set_ylim(0, 1)
    ax.legend()
    fig.tight_layout()
    with atomic_open(out / "learning_curve.png", "wb") as f:
        fig.savefig(f, dpi=100, format="png")
    plt.close(fig)


# ---------------------------------------------------------------------- the run
def start_path(spec: SelfPlaySpec, text: str) -> Path:
    """The file of `--start`: a shipped model's name, or a path."""
    return spec.shipped_model(text) or Path(text)


class Trainer:
    """One run of the self-play trainer (see the module docstring)."""

    def __init__(self, spec: SelfPlaySpec, args: argparse.Namespace):
        self.spec, self.args, self.out = spec, args, Path(args.out)
        self.config = spec.config(args)
        players = int(self.config.num_players)
        size, actions = spec.sizes(self.config)
        total = scheme_total(reward_schemes(spec.game)[args.reward], players)
        start = None if args.start == SCRATCH else start_path(spec, args.start)
        hidden = getattr(args, "hidden", None)
        self.model = new_model(size, actions, players, args.seed, start, total, hidden)
        self.learner = Learner(
            seat_policy(self.model),
            LearnerSettings(args.updates, args.batch_size, args.learning_rate, args.value_weight),
        )
        self.buffer = ReplayBuffer(args.buffer, size, actions, players)
        self.counters = Counters()
        search = read_search(args.search, tuple(reward_schemes(spec.game)))
        self.settings = WorkerSettings(
            spec.game,
            self.config,
            args.reward,
            search.simulations,
            search.search,
            args.seed,
            dict(self.model.policy_kwargs),
            args.backend,
            args.threads,
            search.leaf,
            search.playout,
            search.c_scale,
            playout_mix(spec.game, search),
            search.search_reward,
            search.flat_target,
            search.full,
            search.fast,
        )

    def resume(self) -> None:
        """Continue from the newest checkpoint in the run folder."""
        folder = latest_checkpoint(self.out)
        if folder is None:
            raise ValueError(f"{self.out} holds no checkpoint to continue")
        self.counters = load_checkpoint(folder, self.model, self.learner, self.buffer)
        for name in (PROGRESS, EVAL):
            cut_rows(self.out / name, self.counters.iteration)
        print(f"resumed {self.out} after iteration {self.counters.iteration}", flush=True)

    def iteration(self, pool: Any, bar: Any) -> Row:
        """One iteration: self-play, the buffer, the learner; its progress row."""
        a, c = self.args, self.counters
        i = c.iteration + 1
        began = time.perf_counter()
        inner = _bar(a.no_progress, f"iteration {i} self-play", "position", leave=False)
        positions, selfplay_cpu = pool.play(i, weights_of(self.model.policy), a.games, inner.update)
        inner.close()
        snapshot = (self.buffer.data, self.buffer.added, weights_of(self.model.policy))
        optimizer = _copy(self.learner.state())
        try:  # the iteration counts once the learner has finished with it
            cpu = time.process_time()
            self.buffer.add(positions)
            torch.manual_seed(a.seed + i)
            stats = self.learner.update(self.buffer, np.random.default_rng([a.seed, i, 1]))
            learner_cpu = time.process_time() - cpu
        except KeyboardInterrupt:
            self.buffer.data, self.buffer.added = snapshot[0], snapshot[1]
            self.model.policy.load_state_dict(
                {k: torch.as_tensor(v) for k, v in snapshot[2].items()}
            )
            self.learner.load_state(optimizer)
            raise
        c.iteration, c.games, c.positions = i, c.games + a.games, c.positions + len(positions)
        c.selfplay_cpu += selfplay_cpu
        c.learner_cpu += learner_cpu
        return {
            "iteration": i,
            "positions": len(positions),
            "buffer": len(self.buffer),
            "policy_loss": stats["policy_loss"],
            "value_loss": stats["value_loss"],
            "selfplay_cpu_s": selfplay_cpu,
            "learner_cpu_s": learner_cpu,
            "positions_per_cpu_s": len(positions) / max(selfplay_cpu, 1e-9),
            "wall_s": time.perf_counter() - began,
            "cpu_hours": c.cpu_hours,
        }

    def evaluate(self) -> list[Row]:
        """The network alone against each evaluation opponent; rows for eval.csv."""
        a, c = self.args, self.counters
        cpu = time.process_time()
        rows = []
        for opponent in a.eval_opponents:
            row = self.spec.win_rate(self.model, self.config, opponent, a.eval_games, a.seed + 7)
            rows.append({"iteration": c.iteration, "cpu_hours": c.cpu_hours, **row})
        c.eval_cpu += time.process_time() - cpu
        append_rows(self.out / EVAL, rows)
        plot_curve(self.out)
        text = ", ".join(
            f"{r['opponent']} {r['win_rate']:.3f} [{r['ci_low']:.3f}, {r['ci_high']:.3f}]"
            for r in rows
        )
        print(f"[eval @ iteration {c.iteration}, {c.cpu_hours:.3f} CPU-h] {text}", flush=True)
        return rows

    def checkpoint(self) -> Path:
        folder = save_checkpoint(
            self.out, self.counters, self.model, self.learner, self.buffer, self.args.keep
        )
        self.model.save(self.out / ".model.tmp.zip")
        (self.out / ".model.tmp.zip").replace(self.out / MODEL)
        return folder

    def run(self) -> None:
        """The run's iterations, then its record; Ctrl-C keeps the finished ones."""
        from torch.utils.tensorboard import SummaryWriter

        a = self.args
        if a.resume:
            self.resume()
        runfolder.start(
            self.out,
            self.run_settings,
            resuming=bool(a.resume),
            force=a.force,
            at=self.counters.iteration,
        )
        writer = SummaryWriter(str(self.out / "tb"))
        pool = make_pool(self.settings, a.ray, a.workers, a.address)
        self.nodes = sorted(set(pool.nodes))
        if a.ray or a.address:
            print(f"self-play on {pool.size} Ray workers, {len(self.nodes)} nodes", flush=True)
        began, last = time.perf_counter(), self.counters.iteration + a.iterations
        bar = _bar(a.no_progress, "self-play iterations", "iteration", total=a.iterations)
        try:
            if self.counters.iteration == 0:
                self._log_eval(writer, self.evaluate())
            while self.counters.iteration < last:
                row = self.iteration(pool, bar)
                append_rows(self.out / PROGRESS, [row])
                for k in ("policy_loss", "value_loss", "positions_per_cpu_s", "cpu_hours"):
                    writer.add_scalar(f"selfplay/{k}", row[k], row["iteration"])
                bar.update(1)
                bar.set_postfix(loss=f"{row['policy_loss']:.3f}/{row['value_loss']:.3f}")
                i = self.counters.iteration
                if i % a.checkpoint_every == 0 or i == last:
                    self.checkpoint()
                if i % a.eval_every == 0:
                    self._log_eval(writer, self.evaluate())
        except KeyboardInterrupt:
            bar.close()
            folder = self.checkpoint()
            self._finish(began)
            raise command.Interrupted(
                f"the run after iteration {self.counters.iteration} is in {folder}; "
                f"continue it with --resume {self.out}"
            ) from None
        finally:
            writer.close()
            pool.close()
        bar.close()
        self._finish(began)
        print(f"done: {self.counters.iteration} iterations; model in {self.out / MODEL}")

    @property
    def run_settings(self) -> dict[str, Any]:
        return runfolder.settings_of(vars(self.args), SESSION_ONLY)

    def _log_eval(self, writer: Any, rows: list[Row]) -> None:
        for r in rows:
            writer.add_scalar(f"eval/win_rate_vs_{r['opponent']}", r["win_rate"], r["iteration"])

    def _finish(self, began: float) -> None:
        c = self.counters
        runfolder.update_record(
            self.out,
            {
                "counters": {**c.__dict__, "cpu_hours": c.cpu_hours},
                "session_wall_seconds": time.perf_counter() - began,
                "ray_nodes": len([n for n in getattr(self, "nodes", []) if n]),
                "session": {
                    k: getattr(self.args, k) for k in sorted(SESSION_ONLY) if hasattr(self.args, k)
                },
            },
        )


def _copy(state: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of an optimizer's state (tensors cloned)."""
    import copy

    return copy.deepcopy(state)


def _bar(quiet: bool, desc: str, unit: str, total: int | None = None, leave: bool = True) -> Any:
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, unit=unit, disable=quiet, leave=leave, file=sys.stderr)
