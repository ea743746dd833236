"""Strength against search budget: the win rates of heads-up matches
(training/evaluation/heads_up.py logs) of one search at several budgets against the same
opponent, with their Wilson intervals, as one picture.

    python -m training.evaluation.heads_up_plot results/guided/g32_vs_ppo_2p.jsonl \\
        results/guided/g128_vs_ppo_2p.jsonl --out docs/images/guided_budgets.png

A match's budget is its agent spec's iterations (`ismcts:128:...` or `...:sims=128:...`);
each point is labelled with its games and the CPU seconds per searched decision. The
picture is written atomically.
"""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path
from typing import Any

from commandline import command as cli
from commandline.outputs import atomic_write_bytes

from .heads_up import summary


def read_log(path: Path) -> dict[str, Any]:
    """The summary of the heads-up match logged at `path` (its chunks so far)."""
    lines = path.read_text().splitlines()
    if not lines:
        raise ValueError(f"{path} is empty: not a heads-up log")
    settings = json.loads(lines[0])["settings"]
    chunks = []
    for line in lines[1:]:
        try:
            chunks.append(json.loads(line))
        except ValueError:  # cut short by a kill
            continue
    return summary(settings, chunks)


def budget(spec: str) -> int:
    """The search iterations of an agent spec: its bare value or its `sims=`."""
    for part in spec.split(":")[1:]:
        key, _, value = part.rpartition("=")
        if key in ("", "sims"):
            return int(value)
    raise ValueError(f"{spec!r} names no budget (a bare value or sims=)")


def family(specs: list[str]) -> str:
    """The specs with their budget as N and only the options they all share
    (`ismcts:N:prior=ppo_2p`)."""
    parts = [
        [p for p in spec.split(":")[1:] if p.rpartition("=")[0] not in ("", "sims")]
        for spec in specs
    ]
    shared = [p for p in parts[0] if all(p in other for other in parts[1:])]
    return ":".join([specs[0].split(":")[0], "N", *shared])


def plot_budgets(matches: list[dict[str, Any]], png: Path) -> None:
    """Win rate with its interval against budget, one point per match summary."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = sorted(matches, key=lambda m: budget(m["spec"]))
    x = [budget(m["spec"]) for m in rows]
    rate = [m["win_rate"] for m in rows]
    below = [m["win_rate"] - m["ci_low"] for m in rows]
    above = [m["ci_high"] - m["win_rate"] for m in rows]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.errorbar(x, rate, yerr=[below, above], marker="o", capsize=4, label="win rate, Wilson 95%")
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=1)
    for m, xi, yi in zip(rows, x, rate):
        note = f"{m['games']} games\n{m['cpu_s_per_search']:.3f} s/decision"
        ax.annotate(note, (xi, yi), textcoords="offset points", xytext=(8, -24), fontsize=8)
    ax.set_xscale("log", base=2)
    ax.set_xticks(x, [str(v) for v in x])
    ax.set_xlim(min(x) / 1.6, max(x) * 1.9)
    ax.set_ylim(0, 1)
    ax.set_xlabel("search iterations per decision")
    ax.set_ylabel(f"win rate against {rows[0]['opponent']}")
    ax.set_title(family([m["spec"] for m in rows]), fontsize=9)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=120)
    plt.close(fig)
    atomic_write_bytes(png, buffer.getvalue())


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The arguments of `python -m training.evaluation.heads_up_plot`."""
    p = cli.parser("python -m training.evaluation.heads_up_plot", __doc__.splitlines()[0])
    p.add_argument("logs", nargs="+", type=cli.existing_file, help="heads-up match logs")
    p.add_argument("--out", type=cli.writable_file, required=True, help="the picture (.png)")
    p.add_argument("--force", action="store_true", help="replace an existing --out picture")
    args = p.parse_args(argv)
    if args.out.exists() and not args.force:
        p.error(f"argument --out: {args.out} exists: --force to replace it, or name another file")
    return args


@cli.run_main("python -m training.evaluation.heads_up_plot")
def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    """`python -m training.evaluation.heads_up_plot`: the picture, and each match's summary
    printed."""
    args = parse_args(argv)
    matches = [read_log(path) for path in args.logs]
    plot_budgets(matches, args.out)
    for m in matches:
        print(json.dumps(m))
    return matches


if __name__ == "__main__":
    main()
