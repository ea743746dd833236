"""Shrink a MaskablePPO checkpoint into a small model file to ship.

    python -m training.export runs/2p/checkpoints/model_599936_steps.zip asara_2p.zip

A file to ship goes to agents/weights/ with one entry in `MODELS` of agents/models.py.

Drops the optimizer's moment estimates (a fresh optimizer state is stored instead) and the
last rollout observations, and stores the policy's weights as float16 (they are cast back
to float32 when `MaskablePPO.load` reads them). The file stays a normal SB3 zip; the
exported policy is what the evaluations in docs/performance.md measure.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import torch
from sb3_contrib import MaskablePPO

DROPPED = [
    "_last_obs",
    "_last_episode_starts",
    "_last_original_obs",
    "ep_info_buffer",
    "ep_success_buffer",
]


def export(source: Path, target: Path) -> Path:
    """Write the small copy of checkpoint `source` to `target`; return its path."""
    model = MaskablePPO.load(source, device="cpu")
    policy = model.policy
    # the class is e.g. Adam, which takes lr (SB3 types it as the bare Optimizer)
    settings = {"lr": model.learning_rate, **policy.optimizer_kwargs}
    policy.optimizer = policy.optimizer_class(policy.parameters(), **settings)
    policy.half()  # saved as float16; load_state_dict casts back to float32
    target.parent.mkdir(parents=True, exist_ok=True)
    model.save(target, exclude=DROPPED)
    return target


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("source", type=Path)
    p.add_argument("target", type=Path)
    args = p.parse_args(argv)
    path = export(args.source, args.target)
    print(f"{path}: {path.stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    torch.set_num_threads(1)
    main()
