"""The observation (E3): one flat float32 vector per seat, ego-centric (the viewer first,
then the following seats clockwise, padded to 4 seats with `present` = 0), the same size for
2-4 players: OBS_SIZE = 112 + 9 * N for a board of N archways (364 on the default board).

The layout is declared once: `top_slices(n)` (the whole vector) and `seat_slices(n)` (the
block repeated for each of the 4 ego seats). `obs_index(n)` gives every named slice's
position, `observation_markdown()` writes docs/basari/observation.md from the same tables.

Scales: gem counts / 25, archway points / 7, scores / 100, archways left / N, raises / 10;
one-hots and flags are 0 or 1; an absent item (no offer, no barter) is all zeros. The
bounds (`obs_high`) follow the board: archway points / 7 up to its richest archway / 7. The only
information private to one seat is the bundle it is building (E2): it appears in the
acting seat's observation only. `observe` is the vectorised encoder; `bridge.encode_view`
encodes a reference state with plain loops and must agree with it.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from asara_env.basari.config import BasariConfig
from asara_env.basari.constants import GEMS_PER_COLOUR, MAX_PLAYERS, N_CARDS, N_COLOURS, ROUNDS
from asara_env.basari.core.state import BasariState
from asara_env.basari.core.tables import Tables, tables
from asara_env.basari.phases import N_PHASES
from asara_env.common.layout import ObsNormalizer, ObsSlice, slice_highs, slice_index, slice_scales
from asara_env.common.markdown import page, slice_table

GEM_SCALE = float(GEMS_PER_COLOUR)
POINTS_SCALE = 7.0
SCORE_SCALE = 100.0
RAISES_SCALE = 10.0
# scores and raises have no limit in the rules: their bound is the int32 fields' largest value
SCORE_HIGH = float(np.iinfo(np.int32).max) / SCORE_SCALE
RAISES_HIGH = float(np.iinfo(np.int32).max) / RAISES_SCALE
# their typical sizes in the observation, which the normalised observation maps to 0.5
SCORE_TYPICAL = 1.0  # 100 points: a final score is about this
RAISES_TYPICAL = 0.3  # 3 raises


_S = ObsSlice


def seat_slices(n: int) -> tuple[ObsSlice, ...]:
    """The per-seat block (20 + n values), repeated for ego seats 0..3."""
    return (
        _S("present", (1,), "1 = a player sits in this ego seat"),
        _S("score", (1,), "points / 100", high=SCORE_HIGH, scale=SCORE_TYPICAL),
        _S("gems", (N_COLOURS,), "gems held per colour (red, yellow, green, blue) / 25"),
        _S("position", (n,), "one-hot archway of the merchant (all 0 during SETUP)"),
        _S("lap_left", (1,), "archways left to complete the lap / N (0 once completed)"),
        _S("lap_done", (1,), "1 = the merchant has completed its lap this round"),
        _S(
            "archway",
            (1 + N_COLOURS,),
            "its archway's points / 7 and gems (red, yellow, green, blue) / 25",
        ),
        _S("card", (1 + N_CARDS,), "card revealed this turn, one-hot none / Die / Points / Gems"),
        _S("barter_role", (3,), "is a party of the running barter, is its opener, is to act"),
    )


def top_slices(n: int) -> tuple[ObsSlice, ...]:
    """The whole observation for a board of n archways, in order."""
    seat = sum(s.size for s in seat_slices(n))
    return (
        _S("phase", (N_PHASES,), "one-hot SETUP / SELECT / BARTER / OVER"),
        _S("round", (ROUNDS,), "one-hot round"),
        _S("turn_in_round", (1,), "turns played this round / N"),
        _S("carpets", (N_COLOURS,), "gems left per colour / 25"),
        _S(
            "board",
            (n, 1 + N_COLOURS),
            "[archway] points / 7, gems (red, yellow, green, blue) / 25 (static)",
        ),
        _S("seats", (MAX_PLAYERS, seat), "[ego seat] the per-seat block below", high=SCORE_HIGH),
        _S("barter_card", (N_CARDS,), "one-hot card being bartered"),
        _S("offer", (N_COLOURS,), "standing offer, gems per colour / 25"),
        _S("offer_by", (MAX_PLAYERS,), "one-hot ego seat that made the standing offer"),
        _S("offer_exists", (1,), "1 = there is a standing offer"),
        _S(
            "raises",
            (1,),
            "raises so far (offers after the opening one) / 10",
            high=RAISES_HIGH,
            scale=RAISES_TYPICAL,
        ),
        _S("queued_card", (N_CARDS,), "one-hot card of the second barter still to come"),
        _S("pending", (N_COLOURS,), "bundle being built, per colour / 25 (acting seat only)"),
    )


@lru_cache(maxsize=16)
def obs_index(n: int) -> dict[str, slice]:
    """name -> slice of every top-level slice of the observation."""
    return slice_index(top_slices(n))


@lru_cache(maxsize=16)
def seat_index(n: int) -> dict[str, slice]:
    """name -> slice within one seat's block."""
    return slice_index(seat_slices(n))


@lru_cache(maxsize=16)
def obs_high(n: int, top_points: int = int(POINTS_SCALE)) -> np.ndarray:
    """float32[OBS_SIZE]: each entry's upper bound for a board of n archways whose largest
    archway is worth `top_points` (the seat block's bounds repeated for the 4 ego seats).
    An archway's points / 7 are bounded by max(top_points, 7) / 7: 1 on the default board,
    more on a board with richer archways (up to MAX_ARCHWAY_POINTS / 7)."""
    seat = slice_highs(seat_slices(n))
    seat[seat_index(n)["archway"].start] = points_high(top_points)
    parts = [
        np.tile(seat, MAX_PLAYERS) if s.name == "seats" else slice_highs([s]) for s in top_slices(n)
    ]
    high = np.concatenate(parts)
    board = obs_index(n)["board"]
    high[board.start : board.stop : 1 + N_COLOURS] = points_high(top_points)
    high.flags.writeable = False
    return high


@lru_cache(maxsize=16)
def obs_scale(n: int) -> np.ndarray:
    """float32[OBS_SIZE]: each entry's squashing scale (`common.layout`; 0 for the entries
    with a bound), the seat block's repeated for the 4 ego seats."""
    seat = np.tile(slice_scales(seat_slices(n)), MAX_PLAYERS)
    parts = [seat if s.name == "seats" else slice_scales([s]) for s in top_slices(n)]
    scale = np.concatenate(parts)
    scale.flags.writeable = False
    return scale


def obs_normalizer(config: BasariConfig) -> ObsNormalizer:
    """The normalised observation of `config`'s games (`normalize_obs=True` of the envs):
    every entry in [0, 1]."""
    return ObsNormalizer(config_obs_high(config), obs_scale(config.n_archways))


def points_high(top_points: int) -> float:
    """The bound of an archway's points / 7 on a board whose largest archway is worth
    `top_points`."""
    return max(float(top_points), POINTS_SCALE) / POINTS_SCALE


def config_obs_high(config: BasariConfig) -> np.ndarray:
    """float32[OBS_SIZE]: `obs_high` for the board of `config`."""
    return obs_high(config.n_archways, int(config.board[:, 0].max()))


@lru_cache(maxsize=16)
def obs_size(n: int) -> int:
    """OBS_SIZE for a board of n archways: 112 + 9 n (E3)."""
    return sum(s.size for s in top_slices(n))


assert all(obs_size(n) == 112 + 9 * n for n in (1, 28, 34))


_BOARD_FEATURES: dict[int, tuple[Tables, np.ndarray]] = {}


def _board_features(t: Tables) -> np.ndarray:
    """float64[N * 5]: every archway's points / 7 and gems / 25 (cached per tables)."""
    hit = _BOARD_FEATURES.get(id(t))
    if hit is None or hit[0] is not t:
        feats = np.concatenate([t.points[:, None] / POINTS_SCALE, t.board_gems / GEM_SCALE], 1)
        hit = _BOARD_FEATURES[id(t)] = (t, feats.reshape(-1))
    return hit[1]


def _seat_block(state: BasariState) -> np.ndarray:
    """float32[B, P, seat size]: every absolute seat's public block."""
    n, t = state.config.n_archways, tables(state.config)
    ix = seat_index(n)
    b, p = state.score.shape
    f = np.zeros((b, p, ix["barter_role"].stop), np.float32)
    f[:, :, ix["present"]] = 1.0
    f[:, :, ix["score"].start] = state.score / SCORE_SCALE
    f[:, :, ix["gems"]] = state.gems / GEM_SCALE
    pos = state.position.astype(np.int64)
    placed = pos >= 0
    bb, ss = np.nonzero(placed)
    f[bb, ss, ix["position"].start + pos[placed]] = 1.0
    f[:, :, ix["lap_left"].start] = np.maximum(n - state.progress, 0) / n
    f[:, :, ix["lap_done"].start] = state.progress >= n
    arch = ix["archway"].start
    f[bb, ss, arch] = t.points[pos[placed]] / POINTS_SCALE
    f[bb, ss, arch + 1 : arch + 1 + N_COLOURS] = t.board_gems[pos[placed]] / GEM_SCALE
    f[
        np.arange(b)[:, None], np.arange(p), ix["card"].start + 1 + state.revealed.astype(np.int64)
    ] = 1.0
    seats = np.arange(p)
    role = ix["barter_role"].start
    f[:, :, role] = (seats == state.opener[:, None]) | (seats == state.responder[:, None])
    f[:, :, role + 1] = seats == state.opener[:, None]
    f[:, :, role + 2] = seats == state.to_act[:, None]
    return f


def _one_hot(index: np.ndarray, size: int) -> np.ndarray:
    """bool[..., size]: index one-hot; all False where index is -1."""
    return index[..., None] == np.arange(size)


def observe(state: BasariState) -> np.ndarray:
    """float32[B, P, OBS_SIZE]: every seat's ego-centric observation of every game."""
    n, t = state.config.n_archways, tables(state.config)
    ix = obs_index(n)
    b, p = state.score.shape
    common = np.zeros((b, obs_size(n)), np.float32)
    common[:, ix["phase"]] = _one_hot(state.phase, N_PHASES)
    common[:, ix["round"]] = _one_hot(state.round, ROUNDS)
    common[:, ix["turn_in_round"].start] = state.turn / n
    common[:, ix["carpets"]] = state.carpet / GEM_SCALE
    common[:, ix["board"]] = _board_features(t)
    common[:, ix["barter_card"]] = _one_hot(state.barter_card, N_CARDS)
    common[:, ix["offer"]] = state.offer / GEM_SCALE
    common[:, ix["offer_exists"].start] = state.offer_by >= 0
    common[:, ix["raises"].start] = np.maximum(state.offers - 1, 0) / RAISES_SCALE
    common[:, ix["queued_card"]] = _one_hot(state.queued_card, N_CARDS)
    out = np.repeat(common[:, None, :], p, axis=1)
    viewers = np.arange(p)
    ego = (viewers[:, None] + viewers[None, :]) % p  # [viewer, ego seat] -> absolute seat
    block = _seat_block(state)
    seats = ix["seats"]
    out[:, :, seats.start : seats.start + p * block.shape[2]] = block[:, ego].reshape(b, p, -1)
    # the offerer as an ego seat of each viewer; -1 (no offer) stays -1
    by = state.offer_by[:, None].astype(np.int64)
    rel = np.where(by >= 0, (by - viewers) % p, -1)  # [B, viewer]
    out[:, :, ix["offer_by"].start : ix["offer_by"].start + p] = _one_hot(rel, p)
    builder = viewers == state.to_act[:, None]  # [B, viewer]; to_act is -1 outside barters
    out[:, :, ix["pending"]] = (
        np.where(builder[:, :, None], state.pending[:, None, :], 0) / GEM_SCALE
    )
    return out


def global_state(state: BasariState) -> np.ndarray:
    """float32[B, OBS_SIZE]: the whole game as one vector: seat 0's observation with the
    pending bundle filled in whoever builds it (nothing else is private between steps)."""
    out = observe(state)[:, 0]
    ix = obs_index(state.config.n_archways)
    out[:, ix["pending"]] = state.pending / GEM_SCALE
    return out


def observation_markdown(n: int | None = None) -> str:
    """docs/basari/observation.md, generated from the slice tables."""
    from asara_env.basari.constants import N_ARCHWAYS

    n = N_ARCHWAYS if n is None else n
    intro = [
        "# BASARI observation",
        "",
        f"`float32[{obs_size(n)}]` per agent on the default board of {n} archways "
        "(112 + 9 N for a board of N archways), ego-centric: the agent's own seat first, then",
        "the following seats clockwise, padded to 4 seats. Generated from",
        "`asara_env/basari/core/observation.py` by `python -m asara_env.docs` (`make docs`);",
        "do not edit by hand.",
    ]
    outro = [
        "Scales: gem counts / 25, archway points / 7, scores / 100, archways left / N, raises "
        "/ 10.",
        "One-hots and flags are 0 or 1; an absent item (no offer, no barter) is all zeros.",
        "The max column is the default board's: on a board whose richest archway is worth P > 7",
        "points, the archway points entries are bounded by P / 7 (`obs_high`).",
        "Only the `pending` bundle is private: it is set in the acting agent's observation alone.",
    ]
    return page(
        intro,
        slice_table(top_slices(n)),
        "Per-seat block (offsets within the block):",
        slice_table(seat_slices(n)),
        outro,
    )
