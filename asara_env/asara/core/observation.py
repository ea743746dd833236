"""The observation: one flat float32 vector per seat, exactly what that seat may know (R10)
plus the context of the pending decision.

Everything is player-relative: relative seat r = (seat - viewer) mod P, the viewer first,
padded to 4 players (the "present" flag marks real ones), so the size is the same for every
configuration. Values are raw counts; -1 sentinels become all-zero one-hots. The layout is
declared once in `OBS_SLICES`; `OBS_DIM`, `OBS_INDEX` and docs/asara/observation.md derive
from it.

`encode_view` encodes the reference `seat_view` dict (plain loops, the specification);
`observe` encodes a whole `CoreState` batch with numpy and must agree with it.
"""

from __future__ import annotations

import functools
import itertools
import math
import threading
from collections.abc import Callable
from dataclasses import fields, replace

import numpy as np
from numpy.typing import NDArray

from asara_env.asara.actions import TARGETS
from asara_env.asara.config import GameConfig
from asara_env.asara.constants import (
    GIFT_SLOTS,
    MAX_LIGHTS_DRAWN,
    MAX_PLAYERS,
    MAX_TOWERS_PER_COLOUR,
    MIN_PLAYERS,
    N_AREAS,
    N_CARD_COLOURS,
    N_CARDS,
    N_CHESTS,
    N_GIFT_KINDS,
    N_GOLD,
    N_LIGHTED,
    N_PARTS,
    N_TILE_COLOURS,
    N_YEARS,
    Area,
)
from asara_env.asara.core.state import N_SPACES, SPACE_VALUE, SPACES, CoreState
from asara_env.asara.phases import N_PHASES, Phase
from asara_env.common.layout import ObsNormalizer, ObsSlice, slice_highs, slice_index, slice_scales
from asara_env.common.markdown import page, slice_table, table

N_PLAYER_COUNTS = MAX_PLAYERS - MIN_PLAYERS + 1
TOWER_FEATURES = N_PARTS * N_GOLD + 3  # part/gold counts, lit plain, lit gold, exists
SPACE_FEATURES = MAX_PLAYERS + N_CARD_COLOURS + 1 + N_CARD_COLOURS
P4, C, B = MAX_PLAYERS, N_TILE_COLOURS, N_CARD_COLOURS


TILES = (N_PARTS, C, N_GOLD)
COUNT_HIGH = float(N_CARDS)  # the largest count the state holds (state.COUNT: -1..45)
INT32_HIGH = float(np.iinfo(np.int32).max)  # money and prestige: no limit in the rules
# their typical sizes, which the normalised observation maps to 0.5 (common.layout)
MONEY_SCALE = 20.0  # Asari: a year's income is about this
PRESTIGE_SCALE = 50.0  # a final score is about this to twice this
_S = ObsSlice
OBS_SLICES: tuple[ObsSlice, ...] = (
    _S("num_players", (N_PLAYER_COUNTS,), "one-hot: 2, 3, 4 players"),
    _S("pro", (1,), "1 = professional variant (R7)"),
    _S("genie", (1,), "1 = Bottle Genie expansion (R9.1)"),
    _S("gifts", (1,), "1 = gifts expansion (R9.2)"),
    _S("year", (N_YEARS,), "one-hot: year 1..4"),
    _S("phase", (N_PHASES,), "one-hot: Phase value (PLACE..GAME_OVER, GENIE, GIFT_*)"),
    _S("seat_to_move", (P4,), "one-hot relative seat to decide"),
    _S("caliph", (P4,), "one-hot relative seat holding the Caliph tile"),
    _S("present", (P4,), "[relative seat] 1 = a player sits there"),
    _S("money", (P4,), "[relative seat] Asari", high=INT32_HIGH, scale=MONEY_SCALE),
    _S(
        "prestige",
        (P4,),
        "[relative seat] prestige (final scoring added at the end)",
        high=INT32_HIGH,
        scale=PRESTIGE_SCALE,
    ),
    _S("hand_sizes", (P4,), "[relative seat] cards in hand", high=COUNT_HIGH),
    _S("hand", (B,), "[card colour] the viewer's hand", high=COUNT_HIGH),
    _S("draw_pile_size", (1,), "cards in the draw pile", high=COUNT_HIGH),
    _S("stacks", TILES, "[part, colour, gold] face-down stacks", high=COUNT_HIGH),
    _S("displays", TILES, "[part, colour, gold] face-up market displays", high=COUNT_HIGH),
    _S(
        "supply", (P4, *TILES), "[relative seat, part, colour, gold] unbuilt tiles", high=COUNT_HIGH
    ),
    _S("lighted_held", (P4,), "[relative seat] unbuilt lighted windows", high=COUNT_HIGH),
    _S("lighted_supply", (C,), "[colour] the viewer's unbuilt lighted windows", high=COUNT_HIGH),
    _S("lighted_stack_size", (1,), "lighted windows in the stack", high=COUNT_HIGH),
    _S(
        "lighted_stack_known",
        (N_LIGHTED, C),
        "[position from the top, colour] one-hot where the viewer put that window back",
    ),
    _S(
        "towers",
        (P4, C, MAX_TOWERS_PER_COLOUR, TOWER_FEATURES),
        "[relative seat, colour, k-th tower started, (tiles by part x gold, gold fastest (8),"
        " lit plain, lit gold, exists)]",
        high=COUNT_HIGH,
    ),
    _S("area_colour", (N_AREAS, B), "[area] one-hot required card colour (R3.2)"),
    _S(
        "spaces",
        (N_SPACES, SPACE_FEATURES),
        "[space, (relative seat one-hot (4), face-up colour one-hot (5), face-down flag,"
        " the viewer's own face-down cards by colour (5))]",
        high=COUNT_HIGH,
    ),
    _S("coloured", (P4,), "[relative seat] cards on the coloured building", high=COUNT_HIGH),
    _S(
        "coloured_own",
        (B,),
        "[card colour] the viewer's cards on the coloured building",
        high=COUNT_HIGH,
    ),
    _S("market", (N_PARTS,), "BUY: one-hot part of the market"),
    _S("bribe_stack", (N_PARTS,), "BRIBE_TAKE: one-hot part of the searched stack"),
    _S(
        "lights_drawn",
        (C,),
        "LIGHTS_KEEP: [colour] windows drawn, if the viewer drew them",
        high=COUNT_HIGH,
    ),
    _S("lights_drawn_count", (1,), "LIGHTS_KEEP: windows drawn and not yet kept", high=COUNT_HIGH),
    _S("lights_keep", (1,), "LIGHTS_KEEP: windows still to keep", high=COUNT_HIGH),
    _S("build_left", (1,), "BUILD: tiles still to place", high=COUNT_HIGH),
    # R9.2 gifts (appended, so that the slices above keep their positions)
    _S(
        "chest_gifts",
        (N_CHESTS, GIFT_SLOTS, N_GIFT_KINDS),
        "[chest, k-th gift laid, gift kind] one-hot: the gifts face up on each chest space",
    ),
    _S("gift_pile", (N_GIFT_KINDS,), "[gift kind] gift cards left in the pile", high=COUNT_HIGH),
    _S(
        "gift_queue",
        (GIFT_SLOTS, N_GIFT_KINDS),
        "GIFT_*: [k-th, gift kind] one-hot: the gifts still to carry out, in order",
    ),
    _S("gift_chest", (N_CHESTS,), "GIFT_*: one-hot chest being emptied"),
    _S("pending_target", (len(TARGETS),), "GIFT_*: one-hot placement target whose move follows"),
    _S(
        "draw_pile_seen",
        (B,),
        "GIFT_CARD: [card colour] the draw pile, if the viewer chooses",
        high=COUNT_HIGH,
    ),
    _S(
        "lighted_stack_seen",
        (C,),
        "GIFT_LIGHTS: [colour] the lighted-window stack, if the viewer looks through it",
        high=COUNT_HIGH,
    ),
)


OBS_INDEX: dict[str, slice] = slice_index(OBS_SLICES)
OBS_DIM: int = sum(s.size for s in OBS_SLICES)
OBS_HIGH: NDArray[np.float32] = slice_highs(OBS_SLICES)  # float32[OBS_DIM]: each entry's bound
# the normalised observation (`normalize_obs=True` of the envs): every entry in [0, 1]
OBS_NORMALIZER = ObsNormalizer(OBS_HIGH, slice_scales(OBS_SLICES))


def observation_markdown() -> str:
    """docs/asara/observation.md, generated from `OBS_SLICES`."""
    intro = [
        "# Observation",
        "",
        f"One flat `float32[{OBS_DIM}]` vector per seat, the same size for every configuration",
        "(`asara_env.asara.core.observation`). Player axes are relative to the viewer (relative",
        "seat r = (seat - viewer) mod P, the viewer first) and padded to 4 players; values are",
        "raw counts. It holds exactly what the viewer may know (R10). Generated by",
        "`python -m asara_env.docs` (`make docs`); do not edit by hand.",
    ]
    spaces = [(k, Area(a).name, i, SPACE_VALUE[k]) for k, (a, i) in enumerate(SPACES)]
    return page(
        intro,
        slice_table(OBS_SLICES),
        "## Spaces",
        table(("space", "area", "index", "value"), spaces),
    )


# ------------------------------------------------------------------------------ vectorised
# `observe` writes each game's observation as int8 into an image (every value it shows but
# money and prestige stays within -1..45), one numpy operation per table of the layout:
#  - a player table is gathered in relative seat order by one `take` over the batch's
#    (game, seat) rows: row b * P + (viewer + r) % P is relative seat r of game b;
#  - a run of adjacent one-hots, and the 15 features of a space, are one row of a `_Rows`
#    table made once for every combination of the values (and the viewer) they show,
#    picked by the mixed-radix code of those values;
# then it casts the image into the float32 output in one copy and writes money and
# prestige. The image is a scratch buffer of the thread, written whole by every call, for
# up to _CHUNK games at a time (so that it stays in the cache while it is written).


class _Rows:
    """A run of observation entries that depends on a few small values only: its row for
    every combination of the values, made once, and a batch's rows picked by one `take`.

    Value v of a digit of size n is in -1..n-1 (-1: none); `rows` holds the combinations
    in mixed-radix order of the digits v + 1 (the last digit fastest); `wrapped` holds the
    same rows in the order of the digits v mod (n + 1), that of numpy's "wrap" mode."""

    def __init__(self, sizes: tuple[int, ...], row: Callable[..., list[int]]) -> None:
        self.dims = tuple(n + 1 for n in sizes)
        assert math.prod(self.dims) <= np.iinfo(np.int16).max  # codes are int16
        grid = itertools.product(*(range(-1, n) for n in sizes))
        self.rows = np.array([row(*values) for values in grid], np.int8)
        values = np.indices(self.dims).reshape(len(sizes), -1) - 1
        self.wrapped = np.empty_like(self.rows)
        self.wrapped[np.ravel_multi_index(values, self.dims, mode="wrap")] = self.rows
        self.offset = int(np.ravel_multi_index([1] * len(sizes), self.dims))  # all v + 1

    def pick(self, first: np.ndarray, *others: np.ndarray | int) -> NDArray[np.int8]:
        """int8[*shape, width]: the row of each game's values (arrays that broadcast to the
        first's shape; the viewer, last, may be an int). The codes are in range, so `take`
        runs in its fastest ("clip") mode."""
        if not others:
            return self.rows.take(first + 1, axis=0, mode="clip")
        if first.size < _FEW:  # one numpy call
            code = np.ravel_multi_index((first, *others), self.dims, mode="wrap")
            return self.wrapped.take(code, axis=0, mode="clip")
        code = first.astype(np.int16)  # a few calls, each much faster on many values
        for values, radix in zip(others, self.dims[1:]):
            code *= radix
            code += values
        code += self.offset
        return self.rows.take(code, axis=0, mode="clip")


_FEW = 256  # values of a digit below which `_Rows.pick` computes codes in one numpy call
_CHUNK = 1024  # games observed at once (their image, 2.3 MB, stays in the cache)


def _hot(n: int, value: int) -> list[int]:
    """One-hot of length n; all zero for -1."""
    return [int(k == value) for k in range(n)]


def _relative(p: int, seat: int, viewer: int) -> int:
    """The relative seat of absolute `seat` (-1 for -1)."""
    return (seat - viewer) % p if seat >= 0 else -1


def _space_row(p: int, seat: int, face_up: int, card: int, other: int, viewer: int) -> list[int]:
    """The 15 features of a space: the buyer's relative seat, its face-up colour, whether
    it lies face down, and its cards if it is the viewer's own face-down buyer (R10)."""
    face_down = seat >= 0 and face_up == 0
    own = [0] * B
    if face_down and seat == viewer:
        for c in (card, other):
            if c >= 0:
                own[c] += 1
    up = _hot(B, card if face_up == 1 else -1)
    return _hot(P4, _relative(p, seat, viewer)) + up + [int(face_down)] + own


def _seats_row(p: int, seat: int, caliph: int, viewer: int) -> list[int]:
    """seat_to_move and caliph, relative to the viewer."""
    return _hot(P4, _relative(p, seat, viewer)) + _hot(P4, _relative(p, caliph, viewer))


@functools.cache
def _seat_tables(p: int) -> tuple[_Rows, _Rows]:
    """The tables that depend on the viewer, for p players (made on first use)."""
    # digits: the buyer's seat, face up, its two cards, the viewer
    spaces = _Rows((p, 2, B, B, p), functools.partial(_space_row, p))
    # digits: the seat to move, the caliph's seat, the viewer
    seats = _Rows((p, p, p), functools.partial(_seats_row, p))
    return spaces, seats


def _run(first: str, last: str) -> slice:
    """The observation entries of the adjacent slices `first`..`last`."""
    names = [s.name for s in OBS_SLICES]
    run = names[names.index(first) : names.index(last) + 1]
    assert all(OBS_INDEX[a].stop == OBS_INDEX[b].start for a, b in zip(run, run[1:]))
    return slice(OBS_INDEX[first].start, OBS_INDEX[last].stop)


_FLOW = _Rows((N_YEARS + 1, N_PHASES), lambda y, ph: _hot(N_YEARS, y - 1) + _hot(N_PHASES, ph))
_MARKET = _Rows((N_PARTS, N_PARTS), lambda m, b: _hot(N_PARTS, m) + _hot(N_PARTS, b))
_CHEST = _Rows((N_CHESTS, len(TARGETS)), lambda c, t: _hot(N_CHESTS, c) + _hot(len(TARGETS), t))
_COLOUR = _Rows((C,), functools.partial(_hot, C))
_GIFT = _Rows((N_GIFT_KINDS,), functools.partial(_hot, N_GIFT_KINDS))
# the runs of one-hots written from one table row: year..phase, seat_to_move..caliph, ...
_AT_FLOW, _AT_SEATS = _run("year", "phase"), _run("seat_to_move", "caliph")
_AT_MARKET, _AT_CHEST = _run("market", "bribe_stack"), _run("gift_chest", "pending_target")
_AT_PRESENT = _run("present", "prestige")  # present, then money and prestige written later
_AT_SEEN = _run("draw_pile_seen", "lighted_stack_seen")
_AT = {
    name: OBS_INDEX[name].start
    for name in ("money", "prestige", "draw_pile_size", "lighted_stack_size", "lights_drawn")
}
# _ROTATION[p][viewer, r]: the absolute seat at relative seat r
_ROTATION = {
    p: (np.arange(p)[:, None] + np.arange(p)) % p for p in range(MIN_PLAYERS, MAX_PLAYERS + 1)
}
# what the seat to move alone sees while it decides: 1 the lighted windows it drew
# (LIGHTS_KEEP), 2 the draw pile (GIFT_CARD), 3 the lighted-window stack (GIFT_LIGHTS)
_PRIVATE = np.zeros(N_PHASES, np.int8)
_PRIVATE[[Phase.LIGHTS_KEEP, Phase.GIFT_CARD, Phase.GIFT_LIGHTS]] = 1, 2, 3
_COLOURS = np.arange(C)
_ONES = np.ones(
    max(B, C, MAX_LIGHTS_DRAWN), np.int8
)  # x @ _ONES[:n]: the sums of x's rows of n counts
# _EXISTS[n, k]: 1 where k < n, a colour's k-th tower exists when the player started n
_SLOTS = np.arange(MAX_TOWERS_PER_COLOUR)
_EXISTS = (np.arange(MAX_TOWERS_PER_COLOUR + 1)[:, None] > _SLOTS).astype(np.int8)
_TILE_COUNTS = N_PARTS * N_GOLD  # a tower's tile counts, copied as one int64
assert np.dtype(np.int64).itemsize == _TILE_COUNTS and np.dtype(np.int16).itemsize == N_GOLD
_SCRATCH = threading.local()  # .image: int8[rows, OBS_DIM], rows <= _CHUNK
_CONSTANT_ROWS: dict[GameConfig, tuple[NDArray[np.int8], NDArray[np.int8]]] = {}


def _constants(cfg: GameConfig) -> tuple[NDArray[np.int8], NDArray[np.int8]]:
    """int8 rows of num_players..gifts and of present..prestige (money and prestige 0)."""
    if cfg not in _CONSTANT_ROWS:
        p = cfg.num_players
        flags = [int(cfg.pro), int(cfg.has_genie), int(cfg.has_gifts)]
        present = [int(r < p) for r in range(P4)] + [0] * (2 * P4)
        head = _hot(N_PLAYER_COUNTS, p - MIN_PLAYERS) + flags
        _CONSTANT_ROWS[cfg] = np.array(head, np.int8), np.array(present, np.int8)
    return _CONSTANT_ROWS[cfg]


def viewers_of(state: CoreState, seat: int | np.integer | np.ndarray) -> int | NDArray[np.int64]:
    """The viewer of every game: an int when all games share one, else int[B]."""
    p = state.config.num_players
    if isinstance(seat, np.ndarray) and seat.size == 1:
        seat = seat.reshape(-1)[0]
    if isinstance(seat, (int, np.integer)):
        if not 0 <= seat < p:
            raise ValueError(f"seats must be in 0..{p - 1}, got {[int(seat)]}")
        return int(seat)
    viewer = np.broadcast_to(np.asarray(seat, np.int64), state.year.shape)
    low, high = viewer.min(), viewer.max()
    if low < 0 or high >= p:
        raise ValueError(f"seats must be in 0..{p - 1}, got {np.unique(viewer).tolist()}")
    return int(low) if low == high else viewer


def output_buffer(out: NDArray[np.float32] | None, batch: int) -> NDArray[np.float32]:
    """`out` checked, or a new array."""
    shape = (batch, OBS_DIM)
    if out is None:
        return np.empty(shape, np.float32)
    if not isinstance(out, np.ndarray) or out.dtype != np.float32 or out.shape != shape:
        got = f"{out.dtype}{list(out.shape)}" if isinstance(out, np.ndarray) else type(out)
        raise ValueError(f"out must be a float32 array of shape {shape}, got {got}")
    if not out.flags.writeable:
        raise ValueError("out must be writeable")
    return out


def _image(batch: int) -> NDArray[np.int8]:
    """int8[batch, OBS_DIM]: the thread's scratch image (kept between calls)."""
    image: NDArray[np.int8] | None = getattr(_SCRATCH, "image", None)
    if image is None or len(image) < batch:
        image = _SCRATCH.image = np.empty((batch, OBS_DIM), np.int8)
    return image[:batch]


class _Players:
    """Per-seat arrays [B, P, ...] of a batch in each game's relative seat order."""

    def __init__(self, batch: int, p: int, viewer: int | NDArray[np.int64]) -> None:
        self.batch, self.p = batch, p
        # int[B, p]: the row b * P + (viewer + r) % P of relative seat r of game b
        self.rows = _ROTATION[p][viewer] + np.arange(0, batch * p, p)[:, None]

    def __call__(self, field: np.ndarray) -> np.ndarray:
        """[B, p, size of a seat's entry]"""
        return field.reshape(self.batch * self.p, -1).take(self.rows, axis=0)

    def put(self, image: NDArray[np.int8], name: str, values: np.ndarray) -> None:
        """Writes slice `name` [B, 4, ...] from values [B, p, ...], zero past the players."""
        region, size = image[:, OBS_INDEX[name]], math.prod(values.shape[1:])
        region[:, :size] = values.reshape(self.batch, size)
        if size < region.shape[1]:
            region[:, size:] = 0


def _put_players(image: NDArray[np.int8], state: CoreState, players: _Players) -> None:
    """Hands, tiles, lighted windows and coloured-building cards: every seat's counts, and
    the viewer's own (relative seat 0)."""
    hands = players(state.hands)
    players.put(image, "hand_sizes", hands @ _ONES[:B])
    image[:, OBS_INDEX["hand"]] = hands[:, 0]
    players.put(image, "supply", players(state.supply))
    lighted = players(state.lighted_supply)
    players.put(image, "lighted_held", lighted @ _ONES[:C])
    image[:, OBS_INDEX["lighted_supply"]] = lighted[:, 0]
    coloured = players(state.coloured)
    players.put(image, "coloured", coloured @ _ONES[:B])
    image[:, OBS_INDEX["coloured_own"]] = coloured[:, 0]


def _put_towers(image: NDArray[np.int8], state: CoreState, players: _Players) -> None:
    """Each tower's 11 features from three state arrays: its 8 tile counts and 2 lit
    counts are copied as one int64 and one int16 (byte copies)."""
    batch, p = players.batch, players.p
    towers = image[:, OBS_INDEX["towers"]].reshape(batch, P4, C, MAX_TOWERS_PER_COLOUR, -1)
    mine, slot, tiles = towers[:, :p], (batch, p, C, MAX_TOWERS_PER_COLOUR), _TILE_COUNTS
    parts = players(state.tower_parts).reshape(*slot, tiles)
    mine[..., :tiles].view(np.int64)[..., 0] = parts.view(np.int64)[..., 0]
    lit = players(state.tower_lit).reshape(*slot, N_GOLD)
    mine[..., tiles : tiles + N_GOLD].view(np.int16)[..., 0] = lit.view(np.int16)[..., 0]
    mine[..., tiles + N_GOLD] = _EXISTS.take(players(state.n_towers), axis=0)
    if p < P4:
        towers[:, p:] = 0


def _put_hots(image: NDArray[np.int8], state: CoreState, viewer: int | np.ndarray) -> None:
    """Every one-hot, each run of them from one table row: year..phase, seat_to_move..
    caliph, the spaces, the viewer's windows in the lighted stack, the areas' colours, the
    gifts on the chests, market..bribe_stack, the gift queue, gift_chest..pending_target."""
    batch = len(image)
    view = viewer if isinstance(viewer, int) else viewer[:, None]
    spaces, seats = _seat_tables(state.config.num_players)
    image[:, _AT_FLOW] = _FLOW.pick(state.year, state.phase)
    image[:, _AT_SEATS] = seats.pick(state.seat, state.caliph, viewer)
    cards = state.space_cards
    picked = spaces.pick(state.space_seat, state.space_face_up, cards[..., 0], cards[..., 1], view)
    image[:, OBS_INDEX["spaces"]] = picked.reshape(batch, -1)
    known = np.where(state.lighted_owner == view, state.lighted_stack, -1)
    _put_one_hots(image[:, OBS_INDEX["lighted_stack_known"]], _COLOUR, known)
    _put_one_hots(image[:, OBS_INDEX["area_colour"]], _COLOUR, state.area_colour)
    _put_one_hots(image[:, OBS_INDEX["chest_gifts"]], _GIFT, state.gifts)
    image[:, _AT_MARKET] = _MARKET.pick(state.market, state.bribe_stack)
    _put_one_hots(image[:, OBS_INDEX["gift_queue"]], _GIFT, state.gift_queue)
    image[:, _AT_CHEST] = _CHEST.pick(state.gift_chest, state.pending_target)


def _put_one_hots(region: NDArray[np.int8], table: _Rows, values: np.ndarray) -> None:
    """region [B, n * width]: the one-hots of values [B, n] (-1: none)."""
    if values.size >= _FEW and values.max() < 0:  # e.g. no gifts without the expansion
        region[...] = 0
    else:
        region[...] = table.pick(values).reshape(len(region), -1)


def _put_counts(image: NDArray[np.int8], state: CoreState, viewer: int | np.ndarray) -> None:
    """The tile markets, the counts and what the seat to move alone sees (R7.2, R9.2)."""
    batch = len(image)
    image[:, _AT["draw_pile_size"]] = state.draw_pile @ _ONES[:B]
    image[:, OBS_INDEX["stacks"]] = state.stacks.reshape(batch, -1)
    image[:, OBS_INDEX["displays"]] = state.displays.reshape(batch, -1)
    image[:, _AT["lighted_stack_size"]] = state.lighted_len
    image[:, OBS_INDEX["gift_pile"]] = state.gift_pile
    at = _AT["lights_drawn"]
    lights = image[:, at : at + C + 3]  # drawn colours, their count, keep, build left
    lights[:, :C] = 0
    lights[:, C] = (state.lights_drawn >= 0).view(np.int8) @ _ONES[:MAX_LIGHTS_DRAWN]
    lights[:, C + 1] = state.lights_keep
    lights[:, C + 2] = state.build_left
    image[:, _AT_SEEN] = 0
    private = _PRIVATE.take(state.phase) * (state.seat == viewer)
    if private.any():  # a viewer deciding in LIGHTS_KEEP, GIFT_CARD or GIFT_LIGHTS
        drawing, cards, looking = (np.flatnonzero(private == k) for k in (1, 2, 3))
        lights[drawing, :C] = _colour_counts(state.lights_drawn[drawing])
        image[cards, _AT_SEEN.start : _AT_SEEN.start + B] = state.draw_pile[cards]
        image[looking, _AT_SEEN.start + B : _AT_SEEN.stop] = _colour_counts(
            state.lighted_stack[looking]
        )


def _colour_counts(colours: np.ndarray) -> np.ndarray:
    """int[n, colour]: how many of each colour each row of colours (-1 = none) holds."""
    return (colours[..., None] == _COLOURS).sum(axis=-2)


def observe(
    state: CoreState,
    seat: int | np.integer | np.ndarray | None = None,
    out: NDArray[np.float32] | None = None,
) -> NDArray[np.float32]:
    """float32[B, OBS_DIM]: each game's observation for `seat` (an int or int[B]; by
    default the seat to decide, whose legal actions `legal_action_mask` gives), written
    into `out` (float32[B, OBS_DIM], reused across steps) when given."""
    viewer = viewers_of(state, state.seat if seat is None else seat)
    batch = state.year.shape[0]
    out = output_buffer(out, batch)
    if batch <= _CHUNK:
        if batch:
            _observe_into(out, state, viewer)
        return out
    for start in range(0, batch, _CHUNK):  # so that a chunk's image stays in the cache
        games = slice(start, start + _CHUNK)
        views = {f.name: getattr(state, f.name)[games] for f in fields(state) if f.name != "config"}
        chunk = replace(state, **views)
        _observe_into(out[games], chunk, viewer if isinstance(viewer, int) else viewer[games])
    return out


def _observe_into(
    out: NDArray[np.float32], state: CoreState, viewer: int | NDArray[np.int64]
) -> None:
    """Writes the observations of a batch of at most _CHUNK games into `out`."""
    batch, p = len(out), state.config.num_players
    image, players = _image(batch), _Players(batch, p, viewer)
    head, present = _constants(state.config)
    image[:, : len(head)] = head
    image[:, _AT_PRESENT] = present  # money and prestige are written below
    _put_players(image, state, players)
    _put_towers(image, state, players)
    _put_hots(image, state, viewer)
    _put_counts(image, state, viewer)
    np.copyto(out, image)
    out[:, _AT["money"] : _AT["money"] + p] = players(state.money)[..., 0]
    out[:, _AT["prestige"] : _AT["prestige"] + p] = players(state.prestige)[..., 0]
