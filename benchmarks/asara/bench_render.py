"""Pictures per second: the text board, the SVG picture and its pixels, side by side.

    python -m benchmarks.asara.bench_render [--positions 60]

Draws every position of random games (one per configuration below) as one seat sees it:
`render_view` (text), `svg_view` (SVG text) and `to_rgb_array` (SVG rasterised by resvg),
and a reference engine step for scale.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from asara_env import GameConfig
from asara_env.asara.reference import engine
from asara_env.asara.reference.rules import legal_actions
from asara_env.asara.reference.state import State
from asara_env.asara.reference.view import seat_view
from asara_env.asara.render import render_view
from asara_env.asara.render_svg import svg_view, to_rgb_array
from benchmarks.render_rates import main, spread

CONFIGS = {
    "2p basic": GameConfig(num_players=2),
    "4p pro + genie + gifts": GameConfig(
        num_players=4, variant="pro", expansions=("genie", "gifts")
    ),
}


def positions(config: GameConfig, n: int) -> list[State]:
    """n positions spread over one random game."""
    state, rng, states = engine.new_game(config, 0), np.random.default_rng(0), []
    while not state.is_over:
        states.append(state.copy())
        engine.step(state, int(rng.choice(legal_actions(state))))
    return spread(states, n)


DRAWS: dict[str, Callable[[State], object]] = {
    "text": lambda s: render_view(seat_view(s, s.seat)),
    "svg": lambda s: svg_view(seat_view(s, s.seat)),
    "rgb_array": lambda s: to_rgb_array(svg_view(seat_view(s, s.seat))),
    "legal + step": lambda s: engine.step(s.copy(), legal_actions(s)[0]),
}

if __name__ == "__main__":
    main(__doc__.split("\n\n")[0], CONFIGS, positions, DRAWS)
