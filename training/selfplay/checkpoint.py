"""A self-play run's checkpoints: checkpoints/iter-<n>/ with the model, the optimizer, the
replay buffer and the counters, written into a temporary folder and renamed into place.

`restore` reads a checkpoint whole and checks every part against the run it continues
before anything is kept: the counters (whole numbers and CPU seconds not below 0, the
iteration of the folder's name, as many positions as the buffer has received), the
model (a saved MaskablePPO whose network has the shapes of the run's), the optimizer
(Adam's state for exactly those parameters), the buffer (the arrays of this game's
positions, each improved policy a distribution over its mask). A checkpoint that fails
is a `CheckpointError`: one line naming the file and what is wrong.
"""

from __future__ import annotations

import json
import math
import shutil
import zipfile
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np
import torch

from .buffer import Positions, ReplayBuffer, check_policies
from .learner import Learner

CHECKPOINTS, MODEL = "checkpoints", "model.zip"
LEARNER, BUFFER, COUNTERS = "learner.pt", "buffer.npz", "counters.json"
TARGETS = "targets"  # the buffer's array saying which positions carry a policy target
PREFIX = "iter-"
MESSAGE_CHARS = 200  # the most of a library's own message a refusal quotes


class CheckpointError(ValueError):
    """A checkpoint that cannot be continued: one line naming the file and the problem."""


@dataclass
class Counters:
    """How far the run has come (kept in every checkpoint)."""

    iteration: int = 0  # iterations finished
    games: int = 0
    positions: int = 0
    selfplay_cpu: float = 0.0  # CPU seconds of self-play, every worker's
    learner_cpu: float = 0.0  # CPU seconds of the learner's updates
    eval_cpu: float = 0.0  # CPU seconds of the evaluations (not counted as training)

    @property
    def cpu_hours(self) -> float:
        """Training CPU-hours: self-play and learning."""
        return (self.selfplay_cpu + self.learner_cpu) / 3600


def checkpoint_dir(out: Path, iteration: int) -> Path:
    return out / CHECKPOINTS / f"{PREFIX}{iteration:06d}"


def latest_checkpoint(out: Path) -> Path | None:
    """The newest complete checkpoint folder of a run (None: none yet)."""
    found = sorted((out / CHECKPOINTS).glob(f"{PREFIX}*[0-9]"))
    return found[-1] if found else None


def save_checkpoint(
    out: Path, counters: Counters, model: Any, learner: Learner, buffer: ReplayBuffer, keep: int
) -> Path:
    """Write the checkpoint of `counters.iteration` (a temporary folder renamed into
    place, so a checkpoint folder is always complete) and drop all but the newest `keep`."""
    final = checkpoint_dir(out, counters.iteration)
    tmp = final.with_name(f".{final.name}.tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    model.save(tmp / MODEL)
    torch.save(learner.state(), tmp / LEARNER)
    buffer.save(tmp / BUFFER)
    (tmp / COUNTERS).write_text(json.dumps(counters.__dict__, indent=1) + "\n")
    if final.exists():
        shutil.rmtree(final)
    tmp.rename(final)
    for old in sorted((out / CHECKPOINTS).glob(f"{PREFIX}*[0-9]"))[:-keep]:
        shutil.rmtree(old)
    return final


def restore(folder: Path, model: Any, learner: Learner, buffer: ReplayBuffer) -> Counters:
    """The checkpoint in `folder` checked whole (module docstring), then its weights, its
    optimizer and its buffer put into `model`, `learner` and `buffer`; its counters."""
    counters = read_counters(folder)
    weights = read_weights(folder / MODEL, model.policy.state_dict())
    optimizer = read_optimizer(folder / LEARNER, learner)
    if (folder / BUFFER).exists():
        data, added = read_buffer(folder / BUFFER, buffer)
    else:  # a checkpoint kept small, without its buffer: the next iterations refill it
        data, added = buffer.data.take(np.arange(0)), counters.positions
    if added != counters.positions:
        raise CheckpointError(
            f"{folder / COUNTERS}: records {counters.positions} positions, {BUFFER} "
            f"{added} received"
        )
    model.policy.load_state_dict(weights)
    learner.load_state(optimizer)
    buffer.data, buffer.added = (
        data.take(np.arange(max(len(data) - buffer.capacity, 0), len(data))),
        added,
    )
    return counters


def _quote(e: BaseException) -> str:
    """A library's message on one line, cut to `MESSAGE_CHARS`."""
    text = " ".join(str(e).split()) or type(e).__name__
    return text if len(text) <= MESSAGE_CHARS else text[: MESSAGE_CHARS - 3] + "..."


def _file(path: Path) -> None:
    if not path.is_file():
        raise CheckpointError(f"{path}: missing")


def read_counters(folder: Path) -> Counters:
    """counters.json: each counter of `Counters` and no other, whole numbers and CPU
    seconds finite and not below 0, the iteration the one of the folder's name."""
    path = folder / COUNTERS
    _file(path)
    try:
        saved = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise CheckpointError(f"{path}: not JSON ({_quote(e)})") from None
    names = [f.name for f in fields(Counters)]
    if not isinstance(saved, dict) or sorted(saved) != sorted(names):
        raise CheckpointError(f"{path}: must be a JSON object of exactly {names}")
    for name, value in saved.items():
        whole = isinstance(Counters.__dataclass_fields__[name].default, int)
        ok = isinstance(value, int) if whole else isinstance(value, int | float)
        if isinstance(value, bool) or not ok or not math.isfinite(value) or value < 0:
            what = "a whole number" if whole else "a finite number of CPU seconds"
            raise CheckpointError(f"{path}: {name} must be {what} not below 0, got {value!r}")
    counters = Counters(**saved)
    if folder.name != f"{PREFIX}{counters.iteration:06d}":
        raise CheckpointError(
            f"{path}: records iteration {counters.iteration} in the folder {folder.name}"
        )
    return counters


def read_weights(path: Path, expected: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """The network of the saved MaskablePPO at `path`, with exactly the run's parameters
    and shapes (`expected`, the run's own state dict)."""
    _file(path)
    if not zipfile.is_zipfile(path):
        raise CheckpointError(f"{path}: not a saved MaskablePPO model (not a .zip file)")
    from sb3_contrib import MaskablePPO

    try:
        weights: dict[str, torch.Tensor] = MaskablePPO.load(path, device="cpu").policy.state_dict()
    except Exception as e:  # any failure to read it: not a model
        raise CheckpointError(f"{path}: not a saved MaskablePPO model ({_quote(e)})") from None
    if sorted(weights) != sorted(expected):
        raise CheckpointError(f"{path}: a network of other layers than the run's")
    for name, tensor in weights.items():
        if tensor.shape != expected[name].shape:
            raise CheckpointError(
                f"{path}: {name} has the shape {tuple(tensor.shape)}, the run's "
                f"{tuple(expected[name].shape)}"
            )
        if not torch.isfinite(tensor).all():
            raise CheckpointError(f"{path}: {name} holds values that are not finite")
    return weights


ADAM_ENTRIES = ("step", "exp_avg", "exp_avg_sq")


def read_optimizer(path: Path, learner: Learner) -> dict[str, Any]:
    """learner.pt: Adam's state for the learner's parameters, each moment of its
    parameter's shape."""
    _file(path)
    try:
        state = torch.load(path, weights_only=True)
    except Exception as e:  # torch's unpickler: any failure means not such a state
        raise CheckpointError(f"{path}: not a saved optimizer state ({_quote(e)})") from None
    params = [p for group in learner.optimizer.param_groups for p in group["params"]]
    groups = state.get("param_groups") if isinstance(state, dict) else None
    moments = state.get("state") if isinstance(state, dict) else None
    if not isinstance(groups, list) or not isinstance(moments, dict):
        raise CheckpointError(f"{path}: not an optimizer state (its state and param_groups)")
    listed = [i for g in groups if isinstance(g, dict) for i in g.get("params", [])]
    if len(groups) != len(learner.optimizer.param_groups) or listed != list(range(len(params))):
        raise CheckpointError(f"{path}: the state of other parameters than the run's network")
    for key, entry in moments.items():
        if key not in range(len(params)) or not isinstance(entry, dict):
            raise CheckpointError(f"{path}: a moment of no parameter of the run's network")
        for name in ADAM_ENTRIES:
            value = entry.get(name)
            shape = () if name == "step" else params[key].shape
            if not isinstance(value, torch.Tensor) or value.shape != shape:
                raise CheckpointError(
                    f"{path}: {name} of parameter {key} must be a tensor of shape {tuple(shape)}"
                )
    return dict(state)


def read_buffer(path: Path, buffer: ReplayBuffer) -> tuple[Positions, int]:
    """buffer.npz: the arrays of `Positions` with this game's shapes and types, every
    improved policy a distribution over its mask, and the count of positions received."""
    _file(path)
    names = [f.name for f in fields(Positions)]
    try:
        with np.load(path, allow_pickle=False) as saved:
            arrays = {k: saved[k] for k in [*names, "added"] if k in saved.files or k != TARGETS}
    except KeyError as e:
        raise CheckpointError(f"{path}: lacks the array {_quote(e)}") from None
    except Exception as e:  # not an .npz of plain arrays (objects are refused unread)
        raise CheckpointError(f"{path}: not a saved replay buffer ({_quote(e)})") from None
    if TARGETS not in arrays:  # a buffer saved before fast searches: every policy a target
        arrays[TARGETS] = np.ones(len(arrays["games"]), bool)
    like = buffer.data
    for name in names:
        got, want = arrays[name], getattr(like, name)
        if got.dtype != want.dtype or got.shape[1:] != want.shape[1:] or got.ndim != want.ndim:
            shape = ", ".join(["N", *map(str, want.shape[1:])])
            raise CheckpointError(
                f"{path}: {name} must be {want.dtype}[{shape}], got {got.dtype}{list(got.shape)}"
            )
    data = Positions(*(arrays[n] for n in names))
    if len({len(arrays[n]) for n in names}) != 1:
        raise CheckpointError(f"{path}: its arrays hold different numbers of positions")
    added = arrays["added"]
    if added.shape != () or added.dtype.kind != "i" or not len(data) <= int(added):
        raise CheckpointError(f"{path}: added must be a whole number not below its positions")
    if not (np.isfinite(data.observations).all() and np.isfinite(data.outcomes).all()):
        raise CheckpointError(f"{path}: observations or outcomes that are not finite")
    try:
        check_policies(data.policies, data.masks)
    except ValueError as e:
        raise CheckpointError(f"{path}: {e}") from None
    return data, int(added)
