"""BASARI's generated docs: `write_docs(out_dir)` writes actions.md, observation.md and
state.md (run every game's with `python -m asara_env.docs`); `write_pictures(out_dir)`
draws the docs' pictures with the SVG renderer (run with `python -m apps.screenshots`)."""

from __future__ import annotations

import errno
from pathlib import Path

import numpy as np

from asara_env.basari.actions import Group, layout_markdown
from asara_env.basari.config import BasariConfig
from asara_env.basari.core.observation import observation_markdown
from asara_env.basari.phases import Phase
from asara_env.basari.reference.engine import new_game, step
from asara_env.basari.reference.record import GameRecord
from asara_env.basari.reference.rules import legal_actions
from asara_env.basari.reference.state import State
from asara_env.basari.render_svg import replay_frames, save_gif, svg_full, to_png
from asara_env.common.files import atomic_write_bytes, atomic_write_text
from asara_env.common.markdown import write_pages

PICTURE_GAME = (BasariConfig(4), 11)  # the game the pictures show: config, seed
PICTURE_ROUND = 1  # the picture shows a barter of the second round
CLOSING = 4.0  # weight of the ids that end a barter step, so that barters stay short
REPLAY_STEPS = 24  # joint actions in the animated replay
PICTURES = ("position.svg", "position.png", "replay.gif")


def pages() -> dict[str, str]:
    """file name -> text of every generated page."""
    from asara_env.basari.reference.serialize import schema_markdown  # pydantic

    return {
        "actions.md": layout_markdown(),
        "observation.md": observation_markdown(),
        "state.md": schema_markdown(),
    }


def write_docs(out_dir: Path) -> list[Path]:
    """Write the pages into `out_dir` (created if missing); the paths written."""
    return write_pages(out_dir, pages())


# ------------------------------------------------------------------------ pictures
def random_joint(state: State, rng: np.random.Generator) -> list[int]:
    """A random legal id per seat, the ids that end a barter step weighted `CLOSING`."""
    lay = state.config.actions
    weights = np.ones(lay.n_actions)
    for group in (Group.ACCEPT, Group.FORFEIT, Group.SUBMIT):
        weights[lay.offset(group)] = CLOSING
    joint = []
    for seat in range(state.num_players):
        w = legal_actions(state, seat) * weights
        joint.append(int(rng.choice(lay.n_actions, p=w / w.sum())))
    return joint


def showcase(config: BasariConfig, seed: int) -> tuple[State, GameRecord]:
    """A random game played (seeded `seed`) to its first position in round
    `PICTURE_ROUND + 1` where a raise is being built over a standing offer, and its
    record; a ValueError if the game ends first."""
    state, rng = new_game(config, seed), np.random.default_rng(seed)
    record = GameRecord(config, seed)
    while state.phase != Phase.OVER:
        building = state.offer_by >= 0 and bool(state.pending.any())
        if state.round >= PICTURE_ROUND and building:
            return state, record
        record.actions.append(random_joint(state, rng))
        step(state, record.actions[-1])
    raise ValueError(f"game {seed} ends before a raise is built in round {PICTURE_ROUND + 1}")


def write_pictures(out_dir: Path, force: bool = False) -> list[Path]:
    """Draw `PICTURES` into `out_dir` (created if missing): the full picture of a barter
    position as SVG and PNG, and the first `REPLAY_STEPS` joint actions of its game as an
    animated GIF. A FileExistsError naming the first picture already there, unless
    `force`; each file is written whole or not at all. The paths written."""
    paths = [Path(out_dir) / name for name in PICTURES]
    there = [p for p in paths if p.exists()]
    if there and not force:
        raise FileExistsError(errno.EEXIST, "already there (force overwrites it)", str(there[0]))
    state, record = showcase(*PICTURE_GAME)
    svg = svg_full(state)
    paths[0].parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(paths[0], svg, encoding="utf-8")
    atomic_write_bytes(paths[1], to_png(svg))
    opening = GameRecord(record.config, record.seed, record.actions[:REPLAY_STEPS])
    save_gif(replay_frames(opening), paths[2], seconds=1.0)
    return paths
