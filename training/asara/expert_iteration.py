"""One round of expert iteration (Anthony, Tian & Barber 2017) for ASARA: a network-guided
search plays itself, and a copy of its network is distilled towards what the search decided.

    python -m training.asara.expert_iteration --expert ismcts:128:prior=ppo_2p:value=net:wave=128 \\
        --model ppo_2p --games 200 --seed 17 --out runs/xit

1. Self-play (`self_play`): `--games` games of the expert against itself through the core
   (basic rules, `--players` seats, game g seeded derived_seed(seed, g), `--batch` games
   searched together by a fresh agent, the batch from game b seeded sub_seed(seed, 1, b), so
   a batch depends on nothing else). At every decision the mover's observation and legal mask are
   recorded with the search's target: the root's visit distribution over the legal
   actions (the searching seat's edges are keyed by action id), or the only legal action
   where there was no search; and, when the game ends, the mover's outcome (its win
   share, the `win` reward the shipped models are trained for).
2. Distillation (`distil`): a copy of the network `--model` (a shipped model's name or a
   saved model's path) is fitted for `--epochs` epochs with Adam (`--lr`) to the
   cross-entropy of its masked policy to the visit distribution plus `--value-weight`
   times the squared error of its value head to the outcome. The last `--holdout` share of
   the games is held out: its positions are only scored, before and after.

Outputs in `--out`: `run.json` (the settings, recorded once: training/runfolder.py),
`self_play/` (each batch's targets, kept as it finishes), `targets.npz` (all the self-play
targets; `--targets FILE` reuses a saved one instead of playing), `distilled.zip` (the
distilled model, a MaskablePPO usable as `policy:model=<out>/distilled.zip`) and
`report.json` (the settings and per-epoch losses, train and held out). Every file is
written atomically.

Resuming: the same command run again continues the run in `--out`: kept batches are read
back instead of played, finished targets are not played again, and a finished run only
prints its report. Ctrl-C says how many self-play games are kept. A folder of a run with
other settings (each difference named), or holding anything else, is refused before any
work, unless `--force` moves it aside to `<out>.old-<n>`.
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
    aside_path,
    atomic_open,
    atomic_save,
    atomic_write_text,
    holds_run,
    out_problem,
    prepare_out_dir,
)
from training import runfolder
from training.game_agents import saved_model_problem
from training.tournament import sub_seed

from . import check, make_agent, shipped_model
from .imitation import AsaraSelfPlay
from .imitation import self_play as core_self_play

EXPERT = "ismcts:128:prior=ppo_2p:value=net:wave=128"  # the search that plays itself
MODEL = "ppo_2p"  # the network distilled (a copy of it)
REWARD = "win"  # the outcome recorded: the reward the shipped models are trained for
TARGETS, DISTILLED, REPORT = "targets.npz", "distilled.zip", "report.json"
SELF_PLAY = "self_play"  # the folder of the finished batches' targets
SESSION = frozenset({"out", "force"})  # the options that are not the run's settings


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


def self_play(
    config: GameConfig,
    expert: str,
    games: int,
    seed: int,
    batch: int = 16,
    keep: Path | None = None,
) -> Targets:
    """The targets of `games` self-play games of the searching agent `expert` (game g
    seeded derived_seed(seed, g)), in batches of `batch` games searched together by a
    fresh agent (seeded sub_seed(seed, 1, first game)). With `keep` (a folder), each
    batch's targets are written there as it finishes and a batch found there is read back
    instead of played."""
    parts = []
    bar = tqdm(total=games, desc=f"{expert} self-play", unit="game")
    for start in range(0, games, batch):
        index = np.arange(start, min(start + batch, games))
        path = None if keep is None else keep / f"games-{start}-{index[-1]}.npz"
        if path is not None and path.is_file():
            part = Targets.load(path)
        else:
            agent = make_agent(expert, sub_seed(seed, 1, start))
            if not hasattr(agent, "last_roots"):
                raise ValueError(f"{expert!r} keeps no search trees (use an ismcts spec)")
            part = _play(core_self_play(config), agent, index, derived_seeds(seed, index))
            if path is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
                part.save(path)
        parts.append(part)
        bar.update(len(index))
    bar.close()
    return concatenate(parts)


def kept_games(keep: Path) -> int:
    """How many self-play games the batches kept in `keep` hold."""
    return sum(len(np.unique(Targets.load(p).games)) for p in keep.glob("games-*.npz"))


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


def _spec(text: str) -> str:
    """An argparse type: an agent spec of ASARA that searches (`ismcts...`)."""
    try:
        spec = check(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    if not spec.startswith("ismcts"):
        raise argparse.ArgumentTypeError(f"{text!r} keeps no search trees (use an ismcts spec)")
    return spec


def _targets(text: str) -> Path:
    """An argparse type: a readable targets file (targets.npz of an earlier run)."""
    path = cli.existing_file(text)
    try:
        Targets.load(path)
    except (OSError, ValueError, KeyError, EOFError) as e:
        raise argparse.ArgumentTypeError(
            f"{text} is not a targets file of expert iteration ({e})"
        ) from None
    return path


def _model(text: str) -> str:
    """An argparse type: a shipped model's name or the path of a saved model."""
    path = shipped_model(text) or Path(text)
    if not path.is_file():
        raise argparse.ArgumentTypeError(
            f"no model at {text} (a shipped model's name or a .zip file)"
        )
    problem = saved_model_problem(path)
    if problem:
        raise argparse.ArgumentTypeError(f"{text} is not a saved MaskablePPO model ({problem})")
    return text


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The arguments of `python -m training.asara.expert_iteration`."""
    p = cli.parser("python -m training.asara.expert_iteration", __doc__.splitlines()[0])
    p.add_argument(
        "--expert", type=_spec, default=EXPERT, help="the searching agent (an ismcts spec)"
    )
    p.add_argument(
        "--model",
        type=_model,
        default=MODEL,
        help="the network copied and distilled (a shipped model's name or a .zip path)",
    )
    p.add_argument("--players", type=cli.bounded_int(2, 4), default=2)
    p.add_argument("--games", type=cli.positive_int, default=200, help="self-play games")
    p.add_argument("--batch", type=cli.positive_int, default=16, help="games searched together")
    p.add_argument("--seed", type=cli.seed, default=17)
    p.add_argument("--targets", type=_targets, help="reuse these targets: no self-play")
    p.add_argument("--epochs", type=cli.positive_int, default=4)
    p.add_argument("--lr", type=cli.positive_float, default=1e-5)
    p.add_argument("--value-weight", type=cli.bounded_float(0.0), default=0.5)
    p.add_argument("--batch-size", type=cli.positive_int, default=256)
    p.add_argument("--prune", action="store_true", help="targets without the root's tries")
    p.add_argument("--holdout", type=cli.bounded_float(0.0, 0.9), default=0.1)
    p.add_argument("--out", type=Path, required=True, help="folder of the outputs")
    p.add_argument(
        "--force",
        action="store_true",
        help="move an --out of another run aside (the same command resumes its own run)",
    )
    args = p.parse_args(argv)
    args.settings = runfolder.settings_of(vars(args), SESSION)
    problem = folder_problem(args.out, args.settings)
    if problem and not args.force:
        p.error(problem)
    return args


def folder_problem(out: Path, settings: runfolder.Settings) -> str:
    """'' if a run with `settings` may write into `out` (new, or resuming its own run);
    else one line naming the differences and the ways on."""
    if out.exists() and not out.is_dir():
        return f"argument --out: {out} is a file, not a folder"
    if not holds_run(out):
        return ""
    try:
        recorded = runfolder.recorded_settings(out, SESSION)
    except ValueError:
        recorded = None
    if recorded is None:
        return out_problem(out, "something other than an expert-iteration run")
    found = runfolder.differences(recorded, settings)
    if not found:
        return ""
    return (
        f"argument --out: {out} holds an expert-iteration run of other settings "
        f"({runfolder.describe(found)}); run it with its own settings to resume it, move it "
        f"aside with --force (to {aside_path(out)}), or name a new --out"
    )


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Self-play (or `--targets`), distillation and the outputs; the report. Resumes the
    run of the same settings in `--out` (see the module docstring)."""
    began = time.perf_counter()
    cpu = time.process_time()
    settings = runfolder.settings_of(vars(args), SESSION | {"settings"})
    moved = prepare_out_dir(args.out, args.force and bool(folder_problem(args.out, settings)))
    if moved is not None:
        print(f"--force: the old {args.out} is now {moved}", flush=True)
    resuming = runfolder.read_record(args.out) is not None
    runfolder.start(args.out, settings, resuming=resuming, force=False, at=0)
    if (args.out / REPORT).is_file() and (args.out / DISTILLED).is_file():
        print(f"this run is finished: its outputs are in {args.out}", flush=True)
        finished: dict[str, Any] = json.loads((args.out / REPORT).read_text())
        return finished
    if args.targets is not None:
        targets = Targets.load(args.targets)
    elif (args.out / TARGETS).is_file():
        targets = Targets.load(args.out / TARGETS)  # the self-play of an earlier session
    else:
        config = GameConfig(num_players=args.players)
        keep = args.out / SELF_PLAY
        try:
            targets = self_play(config, args.expert, args.games, args.seed, args.batch, keep)
        except KeyboardInterrupt:
            raise cli.Interrupted(
                f"{kept_games(keep)} of {args.games} self-play games are kept in {keep}; run "
                "the same command again to play only the rest"
            ) from None
    play_cpu = time.process_time() - cpu
    targets.save(args.out / TARGETS)
    model = load_model(args.model)
    train, held = split(targets, args.holdout)
    try:
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
    except KeyboardInterrupt:
        raise cli.Interrupted(
            f"the self-play targets are kept in {args.out / TARGETS}; run the same command "
            "again to distil them"
        ) from None
    atomic_save(model, args.out / DISTILLED)
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
