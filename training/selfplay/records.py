"""A self-play run's rows: progress.csv (one per iteration) and eval.csv (one per
evaluation and opponent), each written whole and atomically, a resumed run's rows read
and checked before they are cut back to its checkpoint, and learning_curve.png."""

from __future__ import annotations

import csv
from pathlib import Path

from commandline.outputs import atomic_open

from .checkpoint import CheckpointError
from .spec import Row

PROGRESS, EVAL = "progress.csv", "eval.csv"


def append_rows(path: Path, rows: list[Row]) -> None:
    """Add rows to a CSV (written whole, atomically; the header from the first row)."""
    old = list(csv.DictReader(path.open())) if path.exists() else []
    fields = list(dict.fromkeys([*(old[0] if old else {}), *rows[0]]))
    with atomic_open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields)
        writer.writeheader()
        writer.writerows([*old, *rows])


def rows_until(path: Path, iteration: int) -> list[Row] | None:
    """The rows of `path` up to `iteration` (those after it are redone by a resumed run;
    None: no such file). A `CheckpointError` naming the file if it is not a CSV of the
    run's rows, each with a whole iteration number."""
    if not path.exists():
        return None
    try:
        rows = list(csv.DictReader(path.open(newline="")))
        numbers = [int(r["iteration"]) for r in rows]
    except (OSError, UnicodeDecodeError, csv.Error, KeyError, TypeError, ValueError) as e:
        raise CheckpointError(
            f"{path}: not the run's rows with an iteration each ({e!r})"
        ) from None
    return [r for r, n in zip(rows, numbers, strict=True) if n <= iteration]


def write_rows(path: Path, rows: list[Row] | None) -> None:
    """`path` holding `rows` (written whole, atomically; removed if there are none)."""
    if rows is None:
        return
    if not rows:
        path.unlink(missing_ok=True)
        return
    with atomic_open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


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
