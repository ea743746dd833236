"""One round of expert iteration (Anthony, Tian & Barber 2017) for ASARA: a network-guided
search plays itself, and a copy of its network is distilled towards what the search decided.

    python -m training.asara.expert_iteration --expert ismcts:128:prior=ppo_2p:value=net:wave=128 \\
        --model ppo_2p --games 200 --seed 17 --out runs/xit

1. Self-play (`self_play`): `--games` games of the expert against itself through the core
   (basic rules, `--players` seats, game g seeded derived_seed(seed, g), `--batch` games
   searched together). At every decision the mover's observation and legal mask are
   recorded with the search's target: the root's visit distribution over the legal
   actions (the searching seat's edges are keyed by action id), or the only legal action
   where there was no search; and, when the game ends, the mover's outcome (its win
   share, the `win` reward the shipped models are trained for).
2. Distillation (`distil`): a copy of the network `--model` (a shipped model's name or a
   saved model's path) is fitted for `--epochs` epochs with Adam (`--lr`) to the
   cross-entropy of its masked policy to the visit distribution plus `--value-weight`
   times the squared error of its value head to the outcome. The last `--holdout` share of
   the games is held out: its positions are only scored, before and after.

Outputs in `--out` (refused if it holds another run, unless `--force` moves it aside):
`targets.npz` (the self-play targets; `--targets FILE` reuses a saved one instead of
playing), `distilled.zip` (the distilled model, a MaskablePPO usable as
`policy:model=<out>/distilled.zip`) and `report.json` (the settings and per-epoch losses,
train and held out). Every file is written atomically.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np
import torch
from tqdm import tqdm

from asara_env.asara.config import GameConfig
from asara_env.common.batch import concatenate
from asara_env.common.seeding import derived_seeds
from commandline import command as cli
from commandline.outputs import (
    atomic_open,
    atomic_save,
    atomic_write_text,
    out_problem,
    prepare_out_dir,
)

from . import make_agent, shipped_model
from .imitation import AsaraSelfPlay

EXPERT = "ismcts:128:prior=ppo_2p:value=net:wave=128"  # the search that plays itself
MODEL = "ppo_2p"  # the network distilled (a copy of it)
REWARD = "win"  # the outcome recorded: the reward the shipped models are trained for
TARGETS, DISTILLED, REPORT = "targets.npz", "distilled.zip", "report.json"


@dataclass
class Targets:
    """What the search decided at every decision of its self-play games."""

    observations: np.ndarray  # float32[N, OBS]: the mover's observation
    masks: np.ndarray  # bool[N, A]: its legal actions
    visits: np.ndarray  # float32[N, A]: the root's visits of each action (0 off the mask)
    outcomes: np.ndarray  # float32[N]: the mover's final outcome (win share)
    games: np.ndarray  # int64[N]: the game each position is from

    def __len__(self) -> int:
        return len(self.games)

    def take(self, rows: np.ndarray) -> Targets:
        """The targets of `rows`."""
        return Targets(*(getattr(self, f.name)[rows] for f in fields(Targets)))

    def save(self, path: Path) -> None:
        """Written atomically as one .npz archive."""
        with atomic_open(path, "wb") as f:
            np.savez_compressed(f, **asdict(self))

    @staticmethod
    def load(path: Path) -> Targets:
        with np.load(path) as saved:
            return Targets(*(saved[f.name] for f in fields(Targets)))


def root_visits(root: Any, mask: np.ndarray) -> np.ndarray:
    """float32[A]: the root's visits of each action (`root`: an ismcts root whose edges are
    action ids), or one visit of the only legal action of a decision not searched (`root`
    None)."""
    counts = np.zeros(len(mask), np.float32)
    if root is None:
        legal = np.flatnonzero(mask)
        if len(legal) != 1:
            raise ValueError(f"a decision with {len(legal)} legal actions was not searched")
        counts[legal[0]] = 1.0
        return counts
    for action, child in root.children.items():
        counts[action] = child.visits
    if not mask[counts > 0].all():
        raise ValueError("the search visited an action its mask does not allow")
    return counts


def visit_distribution(visits: np.ndarray, prune: bool = False) -> np.ndarray:
    """float32[N, A]: each row of root visits as a distribution. With `prune`, first one
    visit less for every action but the most visited: the root tries every legal action
    once whatever its value, and that visit says nothing of the search's preference."""
    counts = np.asarray(visits, np.float32)
    if prune:
        best = counts == counts.max(axis=1, keepdims=True)
        counts = np.where(best, counts, np.maximum(counts - 1, 0))
    result: np.ndarray = counts / counts.sum(axis=1, keepdims=True)
    return result


def self_play(config: GameConfig, expert: str, games: int, seed: int, batch: int = 16) -> Targets:
    """The targets of `games` self-play games of the searching agent `expert` (game g
    seeded derived_seed(seed, g)), in batches of `batch` games searched together."""
    agent = make_agent(expert, seed)
    if not hasattr(agent, "last_roots"):
        raise ValueError(f"{expert!r} keeps no search trees (use an ismcts spec)")
    parts = []
    bar = tqdm(total=games, desc=f"{expert} self-play", unit="game")
    for start in range(0, games, batch):
        index = np.arange(start, min(start + batch, games))
        parts.append(_play(AsaraSelfPlay(config), agent, index, derived_seeds(seed, index)))
        bar.update(len(index))
    bar.close()
    return concatenate(parts)


def _play(game: AsaraSelfPlay, agent: Any, index: np.ndarray, seeds: np.ndarray) -> Targets:
    """The targets of the games `index` (seeded `seeds`) played together to their ends."""
    state = game.init(np.asarray(seeds, np.uint64))
    logs: tuple[list[np.ndarray], ...] = ([], [], [], [], [])
    while not game.over(state):
        g, s, o, m = game.decisions(state)
        actions = agent.act_core(state, g)
        pi = np.stack([root_visits(r, row) for r, row in zip(agent.last_roots, m)])
        for log, item in zip(logs, (g, s, o, m, pi)):
            log.append(item)
        game.step(state, g, s, actions)
    g, s, o, m, pi = (np.concatenate(log) for log in logs)
    outcome = game.rewards(state, REWARD)[g, s].astype(np.float32)
    return Targets(o.astype(np.float32), m.astype(bool), pi, outcome, index[g])


def split(targets: Targets, holdout: float) -> tuple[Targets, Targets]:
    """(train, held out): the positions of the last `holdout` share of the games held out."""
    games = np.unique(targets.games)
    held = games[len(games) - int(round(holdout * len(games))) :]
    out = np.isin(targets.games, held)
    return targets.take(np.flatnonzero(~out)), targets.take(np.flatnonzero(out))


def losses(policy: Any, targets: Targets, prune: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
    """(cross-entropy of the policy to the visit distributions (`visit_distribution`),
    squared error of the value head to the outcomes), each a mean over the positions."""
    known = policy.observation_space.shape[0]  # the features it was trained on come first
    obs = torch.as_tensor(targets.observations[:, :known], device=policy.device)
    dist = policy.get_distribution(obs, action_masks=targets.masks)
    logp = dist.distribution.logits  # normalised log-probabilities, masked
    legal = torch.as_tensor(targets.masks, device=policy.device)
    pi = torch.as_tensor(visit_distribution(targets.visits, prune), device=policy.device)
    cross_entropy = -(pi * torch.where(legal, logp, torch.zeros_like(logp))).sum(1).mean()
    values = policy.predict_values(obs).squeeze(-1)
    outcome = torch.as_tensor(targets.outcomes, device=policy.device)
    return cross_entropy, ((values - outcome) ** 2).mean()


def scores(policy: Any, targets: Targets, prune: bool = False) -> dict[str, float]:
    """The losses of `targets` without training (empty targets: nan)."""
    if not len(targets):
        return {"cross_entropy": float("nan"), "value_mse": float("nan")}
    with torch.no_grad():
        ce, mse = losses(policy, targets, prune)
    return {"cross_entropy": ce.item(), "value_mse": mse.item()}


def distil(
    model: Any,
    train: Targets,
    held: Targets,
    epochs: int,
    lr: float = 1e-5,
    value_weight: float = 0.5,
    batch_size: int = 256,
    seed: int = 0,
    prune: bool = False,
) -> list[dict[str, float]]:
    """Fit `model.policy` to the targets `train`; per epoch (0: before any), the losses of
    `train` and `held`."""
    torch.manual_seed(seed)
    policy = model.policy
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    rng = np.random.default_rng(seed)
    history = [_epoch_row(0, policy, train, held, prune)]
    for epoch in tqdm(range(1, epochs + 1), desc="distilling", unit="epoch"):
        policy.set_training_mode(True)
        order = rng.permutation(len(train))
        for start in range(0, len(order), batch_size):
            ce, mse = losses(policy, train.take(order[start : start + batch_size]), prune)
            optimizer.zero_grad()
            (ce + value_weight * mse).backward()
            optimizer.step()
        policy.set_training_mode(False)
        history.append(_epoch_row(epoch, policy, train, held, prune))
        tqdm.write(json.dumps(history[-1]))
    return history


def _epoch_row(
    epoch: int, policy: Any, train: Targets, held: Targets, prune: bool
) -> dict[str, float]:
    row: dict[str, float] = {"epoch": epoch}
    for name, part in (("train", train), ("held", held)):
        row.update({f"{name}_{k}": v for k, v in scores(policy, part, prune).items()})
    return row


def load_model(name: str) -> Any:
    """A fresh copy of the shipped model `name`, or of the saved model at that path."""
    from sb3_contrib import MaskablePPO

    return MaskablePPO.load(shipped_model(name) or Path(name), device="cpu")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The arguments of `python -m training.asara.expert_iteration`."""
    p = cli.parser("python -m training.asara.expert_iteration", __doc__.splitlines()[0])
    p.add_argument("--expert", default=EXPERT, help="the searching agent (an ismcts spec)")
    p.add_argument("--model", default=MODEL, help="the network copied and distilled")
    p.add_argument("--players", type=cli.bounded_int(2, 4), default=2)
    p.add_argument("--games", type=cli.positive_int, default=200, help="self-play games")
    p.add_argument("--batch", type=cli.positive_int, default=16, help="games searched together")
    p.add_argument("--seed", type=cli.seed, default=17)
    p.add_argument("--targets", type=cli.existing_file, help="reuse these targets: no self-play")
    p.add_argument("--epochs", type=cli.positive_int, default=4)
    p.add_argument("--lr", type=cli.positive_float, default=1e-5)
    p.add_argument("--value-weight", type=cli.bounded_float(0.0), default=0.5)
    p.add_argument("--batch-size", type=cli.positive_int, default=256)
    p.add_argument("--prune", action="store_true", help="targets without the root's tries")
    p.add_argument("--holdout", type=cli.bounded_float(0.0, 0.9), default=0.1)
    p.add_argument("--out", type=Path, required=True, help="folder of the outputs")
    p.add_argument("--force", action="store_true", help="move an --out of another run aside")
    args = p.parse_args(argv)
    problem = out_problem(args.out, "another expert-iteration run")
    if problem and not args.force:
        p.error(problem)
    return args


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Self-play (or `--targets`), distillation and the outputs; the report."""
    began = time.perf_counter()
    cpu = time.process_time()
    if args.targets is not None:
        targets = Targets.load(args.targets)
    else:
        config = GameConfig(num_players=args.players)
        targets = self_play(config, args.expert, args.games, args.seed, args.batch)
    play_cpu = time.process_time() - cpu
    prepare_out_dir(args.out, args.force)
    targets.save(args.out / TARGETS)
    model = load_model(args.model)
    train, held = split(targets, args.holdout)
    history = distil(
        model,
        train,
        held,
        args.epochs,
        args.lr,
        args.value_weight,
        args.batch_size,
        args.seed,
        args.prune,
    )
    atomic_save(model, args.out / DISTILLED)
    settings = {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()}
    report = {
        "settings": settings,
        "positions": len(targets),
        "train_positions": len(train),
        "held_positions": len(held),
        "self_play_cpu_s": play_cpu,
        "wall_s": time.perf_counter() - began,
        "history": history,
    }
    atomic_write_text(args.out / REPORT, json.dumps(report, indent=1) + "\n")
    return report


@cli.run_main("python -m training.asara.expert_iteration")
def main(argv: list[str] | None = None) -> dict[str, Any]:
    """`python -m training.asara.expert_iteration`."""
    report = run(parse_args(argv))
    print(json.dumps({k: v for k, v in report.items() if k != "history"}))
    print(json.dumps(report["history"][-1]))
    return report


if __name__ == "__main__":
    main()
