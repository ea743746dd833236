"""Conversion between BASARI's two engines: reference `State`s <-> a core `BasariState`
batch (for the differential test, and for loading saved games into the environments),
and `encode_view`, the observation of one reference state encoded with plain loops (the
specification the vectorised `core.observe` must agree with)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from asara_env.basari.constants import MAX_PLAYERS, N_COLOURS
from asara_env.basari.core.mask import write_mask
from asara_env.basari.core.observation import (
    GEM_SCALE,
    POINTS_SCALE,
    RAISES_SCALE,
    SCORE_SCALE,
    obs_index,
    obs_size,
    seat_index,
)
from asara_env.basari.core.state import FIELD_SPECS, BasariState, blank
from asara_env.basari.phases import Phase
from asara_env.basari.reference.state import State

SCALARS = tuple(name for name, spec in FIELD_SPECS.items() if spec.shape == ())
PER_GAME = tuple(name for name in FIELD_SPECS if name != "legal")


def from_reference(games: Sequence[State]) -> BasariState:
    """One core batch holding `games` (one configuration), in order, masks computed."""
    if not games:
        raise ValueError("from_reference needs at least one game")
    config = games[0].config
    if any(g.config != config for g in games):
        raise ValueError("from_reference: every game must have the same configuration")
    state = blank(config, len(games))
    for i, game in enumerate(games):
        for name in PER_GAME:
            value = getattr(game, name)
            getattr(state, name)[i] = int(value) if name in SCALARS else value
    write_mask(state)
    return state


def to_reference(state: BasariState, game: int) -> State:
    """Game `game` of a core batch as a reference State."""
    values: dict[str, Any] = {}
    for name in PER_GAME:
        value = getattr(state, name)[game]
        values[name] = int(value) if name in SCALARS else value.astype(np.int64)
    values["phase"] = Phase(values["phase"])
    return State(config=state.config, **values)


def encode_view(game: State, seat: int) -> np.ndarray:
    """float32[OBS_SIZE]: `seat`'s observation of a reference game, built field by field
    with plain loops from the E3 table (see core/observation.py)."""
    n, p = game.config.n_archways, game.config.num_players
    board = np.asarray(game.config.board).tolist()
    ix = {k: v.start for k, v in obs_index(n).items()}
    obs = [0.0] * obs_size(n)
    obs[ix["phase"] + int(game.phase)] = 1.0
    obs[ix["round"] + game.round] = 1.0
    obs[ix["turn_in_round"]] = game.turn / n
    for c in range(N_COLOURS):
        obs[ix["carpets"] + c] = int(game.carpet[c]) / GEM_SCALE
    for k in range(n):
        at = ix["board"] + 5 * k
        obs[at] = board[k][0] / POINTS_SCALE
        for c in range(N_COLOURS):
            obs[at + 1 + c] = board[k][1 + c] / GEM_SCALE
    seat_size = (obs_index(n)["seats"].stop - ix["seats"]) // MAX_PLAYERS
    for ego in range(p):
        _encode_seat(game, (seat + ego) % p, obs, ix["seats"] + ego * seat_size, board)
    if game.barter_card >= 0:
        obs[ix["barter_card"] + game.barter_card] = 1.0
    if game.offer_by >= 0:
        for c in range(N_COLOURS):
            obs[ix["offer"] + c] = int(game.offer[c]) / GEM_SCALE
        obs[ix["offer_by"] + (game.offer_by - seat) % p] = 1.0
        obs[ix["offer_exists"]] = 1.0
    obs[ix["raises"]] = max(game.offers - 1, 0) / RAISES_SCALE
    if game.queued_card >= 0:
        obs[ix["queued_card"] + game.queued_card] = 1.0
    if game.phase == Phase.BARTER and game.to_act == seat:
        for c in range(N_COLOURS):
            obs[ix["pending"] + c] = int(game.pending[c]) / GEM_SCALE
    return np.array(obs, np.float32)


def _encode_seat(game: State, s: int, obs: list[Any], at: int, board: list[Any]) -> None:
    """Write seat s's per-seat block into `obs` from index `at`."""
    n = game.config.n_archways
    sx = {k: at + v.start for k, v in seat_index(n).items()}
    obs[sx["present"]] = 1.0
    obs[sx["score"]] = int(game.score[s]) / SCORE_SCALE
    for c in range(N_COLOURS):
        obs[sx["gems"] + c] = int(game.gems[s, c]) / GEM_SCALE
    pos = int(game.position[s])
    if pos >= 0:
        obs[sx["position"] + pos] = 1.0
        obs[sx["archway"]] = board[pos][0] / POINTS_SCALE
        for c in range(N_COLOURS):
            obs[sx["archway"] + 1 + c] = board[pos][1 + c] / GEM_SCALE
    progress = int(game.progress[s])
    obs[sx["lap_left"]] = max(n - progress, 0) / n
    obs[sx["lap_done"]] = 1.0 if progress >= n else 0.0
    obs[sx["card"] + 1 + int(game.revealed[s])] = 1.0
    obs[sx["barter_role"]] = 1.0 if s in (game.opener, game.responder) else 0.0
    obs[sx["barter_role"] + 1] = 1.0 if s == game.opener else 0.0
    obs[sx["barter_role"] + 2] = 1.0 if s == game.to_act else 0.0
