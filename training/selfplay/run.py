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
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

from asara_env.games import reward_schemes
from commandline import command

from .. import runfolder
from .buffer import ReplayBuffer
from .checkpoint import (
    MODEL,
    Counters,
    latest_checkpoint,
    restore,
    save_checkpoint,
)
from .checks import SCRATCH, start_path
from .learner import Learner, LearnerSettings
from .network import new_model, scheme_total, seat_policy
from .play import WorkerSettings
from .records import EVAL, PROGRESS, append_rows, plot_curve, rows_until, write_rows
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
MAX_GAMES = 100_000  # games of one iteration or one evaluation
MAX_SIMULATIONS = 4096
MAX_COUNT = 10**7  # iterations of a session, learner steps of one, positions of the buffer


# ---------------------------------------------------------------------- the run
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
        setattr(self.model, runfolder.TRAINED_PLAYERS, players)  # saved with it, evaluate reads it
        self.learner = Learner(
            seat_policy(self.model),
            LearnerSettings(args.updates, args.batch_size, args.learning_rate, args.value_weight),
        )
        self.buffer = ReplayBuffer(args.buffer, size, actions, players)
        self.counters = Counters()
        self.kept: dict[str, list[Row] | None] = {}  # a resumed run's rows (`resume`)
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
        """Take up the newest checkpoint in the run folder (iteration 0 where the run
        stopped before its first one), the checkpoint and the run's rows checked whole
        (a `CheckpointError` naming the file) before `run` changes any file."""
        folder = latest_checkpoint(self.out)
        if folder is not None:
            self.counters = restore(folder, self.model, self.learner, self.buffer)
        done = self.counters.iteration
        # the evaluation before the first iteration is redone by a run resumed at 0
        until = {PROGRESS: done, EVAL: done if done else -1}
        self.kept = {name: rows_until(self.out / name, i) for name, i in until.items()}

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
        for name, rows in self.kept.items():
            write_rows(self.out / name, rows)
        if a.resume:
            print(f"resumed {self.out} after iteration {self.counters.iteration}", flush=True)
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
