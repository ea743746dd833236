"""Evaluate a saved model against the baselines (console script `asara-evaluate`).

    python -m training.evaluate --model models/asara_2p.zip --players 2 --games 2000

For each baseline, the model (its most probable legal action each decision) plays one
seat and copies of the baseline the others, the model's seat rotated through every seat,
game seeds derived from `--seed`. Prints the model's win rate (a win shared by k winners
counts 1/k) with a 95% Wilson interval, and its mean prestige; `--out` also writes JSON
and a bar plot.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from agents.asara.arena import play_batch
from agents.policy_agent import PolicyAgent
from agents.registry import make_agent, unknown_agents_error
from apps.asara.options import add_expansions_argument, check_rules
from asara_env import GameConfig
from asara_env.common.outcome import win_shares
from asara_env.common.seeding import derived_seed

from .tournament import rotated_seating
from .tournament_report import rules_title
from .tournament_stats import wilson_interval

BASELINES = ("towers", "tall", "greedy", "random")


def win_rate(
    model, config: GameConfig, opponent: str, games: int, seed: int, progress=False
) -> dict:
    """The policy (greedy actions) in one seat against copies of `opponent` in the others,
    seats rotated; win shares (1/k for k winners) with a 95% Wilson interval. `progress`:
    a tqdm bar advanced by one per game (or True for a bar of its own)."""
    seating = rotated_seating(games, config.num_players)
    learner = seating == 0  # one seat per game, in game order
    seeds = np.array([derived_seed(seed, g) for g in range(games)], np.uint64)
    agents = [PolicyAgent(model, seed), make_agent("asara", opponent, seed + 1)]
    prestige = play_batch(config, agents, seating, seeds, progress=progress)
    share = win_shares(prestige)[learner]
    low, high = wilson_interval(float(share.sum()), games)
    return {
        "opponent": opponent,
        "games": games,
        "win_rate": float(share.mean()),
        "low": low,
        "high": high,
        "prestige": float(prestige[learner].mean()),
    }


def evaluate(
    model,
    players: int,
    variant: str,
    games: int,
    opponents,
    seed: int,
    expansions=(),
    progress: bool = False,
) -> list[dict]:
    """One row per opponent: win rate, its interval and mean prestige. `progress` shows a
    tqdm bar over all the games (on stderr)."""
    config = GameConfig(num_players=players, variant=variant, expansions=tuple(expansions))
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=games * len(opponents), unit="game", desc="evaluate")
    rows = [win_rate(model, config, name, games, seed, bar or False) for name in opponents]
    if bar is not None:
        bar.close()
    return rows


def table(rows: list[dict], players: int) -> str:
    lines = [f"{'opponents':<14} {'games':>6} {'win rate':>9} {'95% Wilson':>16} {'prestige':>9}"]
    for r in rows:
        who = f"{players - 1} x {r['opponent']}"
        interval = f"[{r['low']:.3f}, {r['high']:.3f}]"
        lines.append(
            f"{who:<14} {r['games']:>6} {r['win_rate']:>9.3f} {interval:>16} {r['prestige']:>9.1f}"
        )
    return "\n".join(lines)


def plot(rows: list[dict], players: int, png: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    names = [r["opponent"] for r in rows]
    rates = [r["win_rate"] for r in rows]
    errors = [[r["win_rate"] - r["low"] for r in rows], [r["high"] - r["win_rate"] for r in rows]]
    ax.bar(names, rates, yerr=errors, capsize=4, color="tab:purple")
    ax.axhline(1 / players, color="grey", linestyle="--", label=f"fair share 1/{players}")
    ax.set_ylim(0, 1)
    ax.set_ylabel("model win rate (95% Wilson)")
    copies = "1 copy" if players == 2 else f"{players - 1} copies"
    ax.set_title(f"{players} players: the model against {copies} of each")
    ax.legend()
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    plt.close(fig)


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--model", type=Path, required=True)
    p.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    p.add_argument("--variant", default="basic", choices=("basic", "pro"))
    add_expansions_argument(p)
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--opponents", type=lambda s: s.split(","), default=list(BASELINES))
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--out", type=Path, help="directory for evaluation_<P>p.json and the plot")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    args = p.parse_args(argv)
    unknown = unknown_agents_error("asara", args.opponents)
    if unknown:
        p.error(unknown)
    if not args.model.exists():
        p.error(f"no model at {args.model}")
    check_rules(p, args)
    return args


def main(argv=None) -> None:
    args = parse_args(argv)
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(args.model, device="cpu")
    rows = evaluate(
        model,
        args.players,
        args.variant,
        args.games,
        args.opponents,
        args.seed,
        args.expansions,
        progress=not args.quiet,
    )
    rules = rules_title(args.variant, args.expansions)
    print(f"{args.model}: {args.players} players, {rules}, {args.games} games each")
    print(table(rows, args.players))
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / f"evaluation_{args.players}p.json").write_text(json.dumps(rows, indent=1))
        plot(rows, args.players, args.out / f"evaluation_{args.players}p.png")
        print(f"written to {args.out}/")


if __name__ == "__main__":
    main()
