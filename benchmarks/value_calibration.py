"""How well a model's value head predicts the win share, by game phase and by whose view:
the calibration behind value-head leaves in the search.

    python -m benchmarks.value_calibration [--models ppo_2p sp_2p RUN/model.zip] [--games 200]

ASARA, 2 players, the compiled core. `--games` games of the model against itself (each
action drawn from its policy, so the outcomes vary), and at every decision the value
head read twice: from the mover's own observation (what the network was trained on) and
from the other seat's observation of the same state (what a search's leaf asks when the
searching seat is not the one to move), both turned into that seat's win share. Per
phase (the share of the game's decisions made so far, in `--bins` bins) and view: the
mean predicted and realised win share, the Brier score, and the correlation. One JSON
line per (model, view, phase).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import numpy as np
import torch
from numpy.typing import NDArray

from agents.models import _load, model_path
from asara_env.common.seeding import derived_seeds
from asara_env.games import reward_schemes
from training.asara.imitation import self_play
from training.selfplay.search import share_map

VIEWS = ("mover", "other")


def heads(model: Any, obs: NDArray[np.float32]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """(logits float[B, A], the observer's own value float[B]) of a MaskablePPO."""
    policy = model.policy
    known = int(np.prod(policy.observation_space.shape))  # older models read a prefix
    with torch.no_grad():
        features = policy.extract_features(torch.as_tensor(np.ascontiguousarray(obs[:, :known])))
        logits = policy.action_net(policy.mlp_extractor.forward_actor(features))
        values = policy.value_net(policy.mlp_extractor.forward_critic(features))
    return logits.numpy().astype(np.float64), values.numpy()[:, 0].astype(np.float64)


def record(model: Any, games: int, seed: int) -> dict[str, NDArray[Any]]:
    """Every decision's game, step, the values from both views and the realised shares."""
    from asara_env.asara.config import GameConfig

    game = self_play(GameConfig(num_players=2), "numba")
    a, b = share_map(reward_schemes("asara")["win"], 2) or (1.0, 0.0)
    rng = np.random.default_rng(seed)
    state = game.init(derived_seeds(seed, np.arange(games)))
    rows: dict[str, list[NDArray[Any]]] = {k: [] for k in ("game", "seat", "step", *VIEWS)}
    step = 0
    while not game.over(state):
        g, s, o, m = game.decisions(state)
        other = game.core.observe(state, (state.seat + 1) % 2)[g]
        logits, mover_v = heads(model, o.astype(np.float32))
        _, other_v = heads(model, np.asarray(other, np.float32))
        z = np.where(m, logits, -np.inf)
        p = np.exp(z - z.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        actions = (np.cumsum(p, axis=1) < rng.random(len(p))[:, None]).sum(axis=1)
        for k, v in zip(("game", "seat", "step"), (g, s, np.full(len(g), step))):
            rows[k].append(v)
        rows["mover"].append(mover_v * a + b)
        rows["other"].append(1.0 - (other_v * a + b))  # the other seat's value -> mover's
        game.step(state, g, s, np.minimum(actions, m.shape[1] - 1).astype(np.int64))
        step += 1
    out = {k: np.concatenate(v) for k, v in rows.items()}
    shares = game.rewards(state, "win") * a + b
    out["realised"] = shares[out["game"], out["seat"]]
    last = np.zeros(games)
    np.maximum.at(last, out["game"], out["step"])
    out["phase"] = out["step"] / np.maximum(last[out["game"]], 1)
    return out


def table(name: str, data: dict[str, NDArray[Any]], bins: int) -> list[dict[str, Any]]:
    """One row per view and phase bin (module docstring)."""
    rows = []
    which = np.minimum((data["phase"] * bins).astype(int), bins - 1)
    for view in VIEWS:
        for k in range(bins):
            sel = which == k
            pred, real = data[view][sel], data["realised"][sel]
            rows.append(
                {
                    "model": name,
                    "view": view,
                    "phase": f"{k / bins:.2f}-{(k + 1) / bins:.2f}",
                    "n": int(sel.sum()),
                    "predicted": round(float(pred.mean()), 3),
                    "realised": round(float(real.mean()), 3),
                    "brier": round(float(((pred - real) ** 2).mean()), 4),
                    "corr": round(float(np.corrcoef(pred, real)[0, 1]), 3),
                }
            )
    return rows


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--models", nargs="+", default=["ppo_2p", "sp_2p"])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--bins", type=int, default=4)
    p.add_argument("--seed", type=int, default=9001)
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    for name in args.models:
        path = Path(name) if Path(name).is_file() else model_path("asara", name)
        model = _load(path)
        for row in table(name, record(model, args.games, args.seed), args.bins):
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
