"""The main job for now: play one complete seeded game between random players and print
the final scoring table.

    python -m asara_env.cli --players 4 --variant pro --seed 1
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from agents import RandomAgent

from .actions import NUM_ACTIONS
from .config import VARIANTS, GameConfig
from .core.observation import encode_view
from .reference import engine
from .reference.record import GameRecord
from .reference.rules import legal_actions
from .reference.scoring import FINAL_CATEGORIES
from .reference.serialize import state_to_dict
from .reference.view import seat_view


def play_random_game(config: GameConfig, seed: int):
    """Play a game between seeded random agents; return the final state and its record."""
    state = engine.new_game(config, seed)
    agents = [RandomAgent(seed * 100 + s) for s in range(config.num_players)]
    record = GameRecord(config, seed)
    while not state.is_over:
        mask = np.zeros(NUM_ACTIONS, np.int8)
        mask[legal_actions(state)] = 1
        observation = encode_view(seat_view(state, state.seat))
        action = agents[state.seat].act(observation, mask)
        engine.step(state, action)
        record.actions.append(action)
    return state, record


def scoring_table(state) -> str:
    """The final scoring, one row per seat and one column per category."""
    header = ["seat", "track"] + list(FINAL_CATEGORIES) + ["final", "total"]
    rows = []
    for s, points in enumerate(state.final):
        track = state.prestige[s] - points["total"]
        rows.append(
            [s, track]
            + [points[k] for k in FINAL_CATEGORIES]
            + [points["total"], state.prestige[s]]
        )
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    lines = ["  ".join(str(x).rjust(w) for x, w in zip(row, widths)) for row in [header] + rows]
    winners = engine.winners(state)
    lines.append(f"winner{'s' if len(winners) > 1 else ''}: seat {', '.join(map(str, winners))}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--variant", choices=VARIANTS, default="basic")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save-record", help="write the game record (JSON) to this path")
    parser.add_argument("--save-state", help="write the final state (JSON) to this path")
    args = parser.parse_args(argv)
    config = GameConfig(num_players=args.players, variant=args.variant)
    state, record = play_random_game(config, args.seed)
    print(
        f"ASARA, {args.players} players, {args.variant} rules, seed {args.seed}: "
        f"{len(record.actions)} decisions"
    )
    print(scoring_table(state))
    if args.save_record:
        with open(args.save_record, "w") as f:
            json.dump(record.to_dict(), f)
    if args.save_state:
        with open(args.save_state, "w") as f:
            json.dump(state_to_dict(state), f)


if __name__ == "__main__":
    main()
