"""Who plays the self-play games: one `Worker` in the trainer's process, or several as
Ray actors (`--ray`, `--address`), each with its own copy of the network, sent the
learner's weights at every iteration.

Game g of iteration i is seeded derived_seed(derived_seed(seed, i), g), whoever plays it;
the iteration's games are split among the workers in contiguous blocks, and each block's
search draws from a generator seeded by (seed, i, its first game), so the same run on the
same number of workers plays the same games.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import numpy as np
import torch

from asara_env.common.seeding import derived_seed, derived_seeds
from training.evaluation.distribute import ROOT, import_ray

from .buffer import Positions
from .network import model_like
from .play import Searcher, WorkerSettings, play_games

Weights = dict[str, np.ndarray]


def weights_of(policy: torch.nn.Module) -> Weights:
    """The network's weights as numpy arrays (what is sent to the workers)."""
    return {k: v.detach().cpu().numpy().copy() for k, v in policy.state_dict().items()}


def blocks(games: int, workers: int) -> list[np.ndarray]:
    """The game indices 0..games-1 in `workers` contiguous blocks of near-equal size."""
    return [b for b in np.array_split(np.arange(games), workers) if len(b)]


class Worker:
    """Plays blocks of an iteration's games with its own network and search."""

    def __init__(self, settings: WorkerSettings):
        from training.games import game_module

        from .search import make_searcher

        torch.set_num_threads(settings.threads)
        self.settings = settings
        spec = game_module(settings.game, "selfplay").SPEC
        self.game = spec.self_play(settings.config, settings.backend)
        size, actions = spec.sizes(settings.config)
        self.model = model_like(settings.architecture, size, actions, settings.seed)
        self.make_searcher: Callable[..., Searcher] = make_searcher
        self.evaluations = 0  # network rows evaluated by this worker's searches
        self.calls = 0  # ... in this many forward passes of a head

    def node(self) -> str:
        """The Ray node this worker runs on ('' outside Ray)."""
        import sys

        ray = sys.modules.get("ray")
        if ray is None or not ray.is_initialized():
            return ""
        return str(ray.get_runtime_context().get_node_id())

    def set_weights(self, weights: Weights) -> None:
        """Load the learner's weights."""
        state = {k: torch.as_tensor(v) for k, v in weights.items()}
        self.model.policy.load_state_dict(state)
        self.model.policy.set_training_mode(False)

    def play(
        self, iteration: int, games: np.ndarray, on_step: Callable[[int], None] | None = None
    ) -> tuple[Positions, float]:
        """The positions of games `games` of iteration `iteration`, and the CPU seconds
        this process spent on them."""
        began = time.process_time()
        s = self.settings
        rng = np.random.default_rng([s.seed, iteration, int(games[0])])
        searcher = self.make_searcher(s, self.model, rng)
        seeds = derived_seeds(derived_seed(s.seed, iteration), games)
        positions = play_games(self.game, searcher, seeds, s.reward, int(games[0]), on_step)
        evaluator = getattr(searcher, "evaluator", None)
        if evaluator is not None:
            self.evaluations += sum(evaluator.evaluations.values())
            self.calls += evaluator.calls
        return positions, time.process_time() - began


class LocalPool:
    """One worker in this process."""

    def __init__(self, settings: WorkerSettings):
        self.worker = Worker(settings)
        self.size, self.nodes = 1, [""]

    def play(
        self, iteration: int, weights: Weights, games: int, on_step: Callable[[int], None]
    ) -> tuple[Positions, float]:
        """All `games` games of the iteration; (positions, CPU seconds of self-play)."""
        self.worker.set_weights(weights)
        return self.worker.play(iteration, np.arange(games), on_step)

    def close(self) -> None:
        pass


class RayPool:
    """`workers` Ray actors (a new local instance, or the cluster at `address`)."""

    def __init__(self, settings: WorkerSettings, workers: int, address: str | None):
        ray = import_ray()
        if not ray.is_initialized():
            env = {"env_vars": {"PYTHONPATH": ROOT, "OMP_NUM_THREADS": str(settings.threads)}}
            ray.init(
                address=address,
                include_dashboard=False,
                log_to_driver=False,
                runtime_env=env,
            )
        actor = ray.remote(num_cpus=1)(Worker)
        self.ray, self.size = ray, workers
        self.actors = [actor.remote(settings) for _ in range(workers)]
        self.nodes = ray.get([a.node.remote() for a in self.actors])

    def play(
        self, iteration: int, weights: Weights, games: int, on_step: Callable[[int], None]
    ) -> tuple[Positions, float]:
        """All `games` games of the iteration, in blocks over the actors; (positions in
        game order, CPU seconds of self-play summed over the actors)."""
        ref = self.ray.put(weights)  # one copy in the object store, read by every actor
        for a in self.actors:
            a.set_weights.remote(ref)
        parts = blocks(games, self.size)
        pending = {
            a.play.remote(iteration, b): i for i, (a, b) in enumerate(zip(self.actors, parts))
        }
        done: dict[int, tuple[Positions, float]] = {}
        while pending:
            (ready,), _ = self.ray.wait(list(pending), num_returns=1)
            i = pending.pop(ready)
            done[i] = self.ray.get(ready)
            on_step(len(done[i][0]))
        results = [done[i] for i in sorted(done)]
        return Positions.join([r[0] for r in results]), float(sum(r[1] for r in results))

    def close(self) -> None:
        for a in self.actors:
            self.ray.kill(a)


def make_pool(
    settings: WorkerSettings, ray: bool, workers: int, address: str | None
) -> LocalPool | RayPool:
    """The workers of a run: Ray actors with `ray` (or an `address`), else this process."""
    if ray or address:
        return RayPool(settings, workers, address)
    os.environ.setdefault("OMP_NUM_THREADS", str(settings.threads))
    return LocalPool(settings)
