"""Tables the core builds once per configuration: the board split into points and gems,
the per-phase mask templates and the action offsets."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from asara_env.basari.actions import BarterChoice, Group
from asara_env.basari.config import BasariConfig
from asara_env.basari.constants import N_CARDS, N_COLOURS
from asara_env.basari.phases import Phase

KEY_BASE = 26  # > GEMS_PER_COLOUR: the B8 key below is injective on every holding


@dataclass(frozen=True)
class Tables:
    n_archways: int
    n_actions: int
    points: np.ndarray  # int32[N] archway points (B2.2)
    board_gems: np.ndarray  # int8[N, 4] archway gems per colour (B2.2)
    start_offset: int  # id of START(0)
    card_offset: int  # id of CARD(0)
    accept: int  # id of ACCEPT; FORFEIT, ADD(0..3), SUBMIT follow it contiguously
    add_offset: int  # id of ADD(0)
    forfeit: int
    submit: int
    templates: np.ndarray  # bool[Phase, A]: every seat's mask in SETUP / SELECT; NOOP else


@lru_cache(maxsize=16)
def _tables(n_players: int, board_bytes: bytes, n_archways: int) -> Tables:
    board = np.frombuffer(board_bytes, np.int64).reshape(n_archways, 1 + N_COLOURS)
    config = BasariConfig(num_players=n_players, board=board)
    lay = config.actions
    a = lay.n_actions
    templates = np.zeros((len(Phase), a), bool)
    start = lay.offset(Group.START)
    templates[Phase.SETUP, start : start + n_archways] = True
    card = lay.offset(Group.CARD)
    templates[Phase.SELECT, card : card + N_CARDS] = True
    templates[Phase.BARTER, lay.noop] = True  # the acting seat's row is written apart
    templates[Phase.OVER, lay.noop] = True
    assert all(lay.offset(Group[c.name]) == lay.accept + c for c in BarterChoice)
    return Tables(
        n_archways=n_archways,
        n_actions=a,
        points=board[:, 0].astype(np.int32),
        board_gems=board[:, 1:].astype(np.int8),
        start_offset=start,
        card_offset=card,
        accept=lay.accept,
        add_offset=lay.add(0),
        forfeit=lay.forfeit,
        submit=lay.submit,
        templates=templates,
    )


_BY_CONFIG: dict[int, tuple[BasariConfig, Tables]] = {}


def tables(config: BasariConfig) -> Tables:
    """The tables of `config` (cached per configuration object, then per board)."""
    hit = _BY_CONFIG.get(id(config))
    if hit is not None and hit[0] is config:
        return hit[1]
    t = _tables(config.num_players, config.board.tobytes(), config.n_archways)
    if len(_BY_CONFIG) > 64:
        _BY_CONFIG.clear()
    _BY_CONFIG[id(config)] = (config, t)
    return t


def bundle_key(x: np.ndarray) -> np.ndarray:
    """int32[...]: the B8 order of bundles x[..., 4] as one number: the gem count first,
    then red, yellow, green (blue follows from the count). x > y in B8 iff key(x) > key(y)."""
    return x.astype(np.int32) @ KEY_WEIGHTS


# key(x) = ((|x| * 26 + R) * 26 + Y) * 26 + G, expanded into one weight per colour
KEY_WEIGHTS = np.array(
    [KEY_BASE**3 + KEY_BASE**2, KEY_BASE**3 + KEY_BASE, KEY_BASE**3 + 1, KEY_BASE**3], np.int32
)
