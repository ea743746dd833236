"""Does the search help its own network? A self-play network alone against the same
network searching with it, head to head.

    python -m benchmarks.search_vs_net --game asara --model RUN/model.zip [--games 200]
        [--search gumbel:32:prior=self:value=net]

2 players, basic rules, the compiled core; game g seeded from `--seed` and g, the
searching side in seat g mod 2. The network alone plays its most probable legal action;
the other side decides by the trainer's search (training/selfplay/search.py) guided by the
same network, its move the root's choice (`--pick root`: Gumbel noise included, as in
self-play) or the most probable action of its improved policy (`--pick improved`). Prints
the search's win share with its 95% Wilson interval and the CPU
seconds per searched decision.
"""

from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np
import torch
from sb3_contrib import MaskablePPO

from asara_env.common.outcome import win_shares
from asara_env.common.seeding import derived_seeds
from asara_env.games import reward_schemes
from training.games import game_module
from training.selfplay.network import seat_policy
from training.selfplay.play import WorkerSettings
from training.selfplay.search import make_searcher
from training.selfplay.searchspec import read_search

Z = 1.959964


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="asara")
    p.add_argument("--model", required=True)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--search", default="gumbel:32:prior=self:value=net")
    p.add_argument("--seed", type=int, default=4242)
    p.add_argument(
        "--pick",
        choices=("root", "improved"),
        default="root",
        help="the search's move: the Gumbel root's choice (noise included) or the most "
        "probable action of its improved policy",
    )
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    spec = game_module(args.game, "selfplay").SPEC
    config = spec.config(
        argparse.Namespace(players=2, variant="basic", expansions=(), start_mode="choose")
    )
    search = read_search(args.search, tuple(reward_schemes(args.game)))
    model = MaskablePPO.load(args.model, device="cpu")
    settings = WorkerSettings(
        args.game, config, "win", search.simulations, search.search, args.seed, {},
        leaf=search.leaf, playout=search.playout, c_scale=search.c_scale,
    )  # fmt: skip
    searcher = make_searcher(settings, model, np.random.default_rng(args.seed))
    policy = seat_policy(model)
    game = spec.self_play(config, "numba")
    state = game.init(derived_seeds(args.seed, np.arange(args.games)))
    searching = np.arange(args.games) % 2
    cpu, searched = 0.0, 0
    while not game.over(state):
        g, s, o, m = game.decisions(state)
        with torch.no_grad():
            logits = policy.logits(torch.as_tensor(np.asarray(o, np.float32))).numpy()
        actions = np.where(m, logits, -np.inf).argmax(axis=1).astype(np.int64)
        mine = np.flatnonzero((s == searching[g]) & (m.sum(axis=1) > 1))
        if len(mine):
            began = time.process_time()
            chosen, improved, _ = searcher(state, (g[mine], s[mine], o[mine], m[mine]))
            actions[mine] = chosen if args.pick == "root" else improved.argmax(axis=1)
            cpu += time.process_time() - began
            searched += len(mine)
        game.step(state, g, s, actions)
    shares = win_shares(np.asarray(game.core.scores(state)))[np.arange(args.games), searching]
    n, rate = args.games, float(shares.mean())
    centre = (rate + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(rate * (1 - rate) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    row = {"model": args.model, "search": args.search, "pick": args.pick, "games": n}
    row["search_win_share"] = rate
    row |= {"ci_low": round(centre - half, 3), "ci_high": round(centre + half, 3)}
    print(json.dumps({**row, "cpu_s_per_search": round(cpu / max(searched, 1), 4)}))


if __name__ == "__main__":
    main()
