"""One picture of win rate against training CPU-hours: self-play runs beside MaskablePPO
runs (`asara-train`, `basari-train`) against one evaluation opponent.

    python -m training.selfplay.compare --selfplay runs/sp-2p --ppo runs/ppo-2p \\
        --ppo-cpu-hours 0.8 --opponent towers --out curve.png

A self-play run's eval.csv carries the CPU-hours of each row (self-play and learner, its
evaluations left out). A PPO run's eval.csv carries learner steps only: give the run's
total CPU-hours (`--ppo-cpu-hours`, e.g. from `/usr/bin/time`), spread over its steps in
proportion (PPO's cost per step is constant). `--out` is refused if it exists, unless
`--force`.
"""

from __future__ import annotations

import csv
from pathlib import Path

from commandline import command
from commandline.outputs import atomic_open


def selfplay_points(run: Path, opponent: str) -> list[tuple[float, float, float, float]]:
    """(CPU-hours, win rate, low, high) of each evaluation of `opponent` in a self-play run."""
    rows = [r for r in csv.DictReader((run / "eval.csv").open()) if r["opponent"] == opponent]
    return [(float(r["cpu_hours"]), *_rates(r)) for r in rows]


def ppo_points(
    run: Path, opponent: str, cpu_hours: float
) -> list[tuple[float, float, float, float]]:
    """The same for a PPO run, its CPU-hours spread over its steps in proportion."""
    rows = [r for r in csv.DictReader((run / "eval.csv").open()) if r["opponent"] == opponent]
    last = max(int(r["steps"]) for r in rows) or 1
    return [(cpu_hours * int(r["steps"]) / last, *_rates(r)) for r in rows]


def _rates(row: dict[str, str]) -> tuple[float, float, float]:
    return float(row["win_rate"]), float(row["ci_low"]), float(row["ci_high"])


def plot(
    curves: dict[str, list[tuple[float, float, float, float]]], opponent: str, out: Path
) -> None:
    """The curves (label -> points) on one picture, written atomically to `out`."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for label, points in curves.items():
        hours, rate, low, high = zip(*sorted(points))
        ax.plot(hours, rate, marker="o", label=label)
        ax.fill_between(hours, low, high, alpha=0.2)
    ax.set_xlabel("training CPU-hours")
    ax.set_ylabel(f"win rate vs {opponent} (95% Wilson)")
    ax.set_ylim(0, 1)
    ax.legend()
    fig.tight_layout()
    with atomic_open(out, "wb") as f:
        fig.savefig(f, dpi=100, format="png")
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    p = command.parser("python -m training.selfplay.compare", __doc__.splitlines()[0])
    p.add_argument("--selfplay", type=Path, nargs="+", required=True, help="self-play run folders")
    p.add_argument("--ppo", type=Path, nargs="*", default=[], help="PPO run folders")
    p.add_argument("--ppo-cpu-hours", type=command.positive_float, nargs="*", default=[])
    p.add_argument("--opponent", required=True, help="the evaluation opponent to compare on")
    p.add_argument("--out", type=command.writable_file, required=True)
    p.add_argument("--force", action="store_true", help="replace --out")
    args = p.parse_args(argv)
    if len(args.ppo) != len(args.ppo_cpu_hours):
        p.error("argument --ppo-cpu-hours: give one figure per --ppo run")
    for run in [*args.selfplay, *args.ppo]:
        if not (run / "eval.csv").is_file():
            p.error(f"argument --selfplay/--ppo: {run} holds no eval.csv")
    if args.out.exists() and not args.force:
        p.error(f"argument --out: {args.out} exists: --force to replace it")
    curves = {f"self-play {r.name}": selfplay_points(r, args.opponent) for r in args.selfplay}
    for run, hours in zip(args.ppo, args.ppo_cpu_hours):
        curves[f"PPO {run.name}"] = ppo_points(run, args.opponent, hours)
    empty = [k for k, v in curves.items() if not v]
    if empty:
        p.error(f"argument --opponent: no evaluation against {args.opponent} in {empty}")
    plot(curves, args.opponent, args.out)
    print(f"wrote {args.out}")
    return 0


main = command.run_main("python -m training.selfplay.compare")(main)

if __name__ == "__main__":
    raise SystemExit(main())
