"""Pictures per second: the text board, the SVG picture and its pixels, side by side.

    python -m benchmarks.basari.bench_render [--positions 60]

Draws positions spread over one random game per configuration below (barters kept short):
`render_state` (text), `svg_of` as seat 0 sees it (SVG text) and `to_rgb_array` (SVG
rasterised by resvg), and a reference engine step for scale.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from asara_env.basari.config import BasariConfig
from asara_env.basari.phases import Phase
from asara_env.basari.reference import State, legal_actions, new_game, step
from asara_env.basari.render import render_state
from asara_env.basari.render_svg import svg_of, to_rgb_array
from benchmarks.render_rates import main, spread

CONFIGS = {"3 players": BasariConfig(3), "4 players": BasariConfig(4)}
CLOSING = 4.0  # weight of the ids that end a barter step, so that barters stay short


def joint(state: State, rng: np.random.Generator) -> list[int]:
    """A random legal id per seat, the ids that close a barter weighted `CLOSING`."""
    lay = state.config.actions
    weights = np.ones(lay.n_actions)
    weights[[lay.accept, lay.forfeit, lay.submit]] = CLOSING
    out = []
    for seat in range(state.num_players):
        w = legal_actions(state, seat) * weights
        out.append(int(rng.choice(lay.n_actions, p=w / w.sum())))
    return out


def positions(config: BasariConfig, n: int) -> list[State]:
    """n positions spread over one random game."""
    state, rng, states = new_game(config, 0), np.random.default_rng(0), []
    while state.phase != Phase.OVER:
        states.append(state.copy())
        step(state, joint(state, rng))
    return spread(states, n)


RNG = np.random.default_rng(1)
DRAWS: dict[str, Callable[[State], object]] = {
    "text": lambda s: render_state(s, [f"player_{i}" for i in range(s.num_players)]),
    "svg": lambda s: svg_of(s, 0),
    "rgb_array": lambda s: to_rgb_array(svg_of(s, 0)),
    "legal + step": lambda s: step(s.copy(), joint(s, RNG)) if s.phase != Phase.OVER else None,
}

if __name__ == "__main__":
    main(__doc__.split("\n\n")[0], CONFIGS, positions, DRAWS)
