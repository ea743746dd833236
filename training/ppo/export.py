"""Shrink a MaskablePPO checkpoint into a small model file to ship.

    python -m training.ppo.export runs/2p/checkpoints/model_599936_steps.zip asara_2p.zip [--force]

A file to ship goes to agents/weights/ with one entry in `MODELS` of agents/models.py.

Drops the optimizer's moment estimates (a fresh optimizer state is stored instead) and the
last rollout observations, and stores the policy's weights as float16 (they are cast back
to float32 when `MaskablePPO.load` reads them). The player count the model was trained
for is kept (the one saved in it, else the one its run's run.json records). The file stays
a normal SB3 zip; the exported policy is what the evaluations in docs/performance.md
measure. An existing target is refused unless `--force`; the file is written atomically.
"""

from __future__ import annotations

import os
from pathlib import Path

import torch
from sb3_contrib import MaskablePPO

from asara_env.common.files import replacing
from commandline import command
from training.runfolder import TRAINED_PLAYERS, run_players

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
    players = getattr(model, TRAINED_PLAYERS, None) or run_players(source)
    if players is not None:  # kept in the copy: the evaluation checks it
        setattr(model, TRAINED_PLAYERS, players)
    policy = model.policy
    # the class is e.g. Adam, which takes lr (SB3 types it as the bare Optimizer)
    settings = {"lr": model.learning_rate, **policy.optimizer_kwargs}
    policy.optimizer = policy.optimizer_class(policy.parameters(), **settings)
    policy.half()  # saved as float16; load_state_dict casts back to float32
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.stem}.tmp-{os.getpid()}.zip")
    with replacing(target, tmp):
        model.save(tmp, exclude=DROPPED)
    return target


@command.run_main("python -m training.ppo.export")
def main(argv: list[str] | None = None) -> None:
    """`python -m training.ppo.export SOURCE TARGET [--force]`."""
    p = command.parser("python -m training.ppo.export", __doc__.splitlines()[0])
    p.add_argument("source", type=command.existing_file, help="a MaskablePPO checkpoint .zip")
    p.add_argument("target", type=command.writable_file, help="the small model file (.zip)")
    p.add_argument("--force", action="store_true", help="let the target replace a file")
    args = p.parse_args(argv)
    if args.target.suffix != ".zip":
        p.error(f"argument target: {args.target} must end in .zip (SB3 adds it otherwise)")
    if args.target.exists() and not args.force:
        p.error(f"argument target: {args.target} exists: --force to replace it, or name another")
    path = export(args.source, args.target)
    print(f"{path}: {path.stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    torch.set_num_threads(1)
    main()
