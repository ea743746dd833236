"""Every number of BASARI's rules in one table (docs/basari/rules.md B1, B2.4).

Numbers the seed does not state are [assumed]; `ASSUMED` lists each with its reason, so
changing one is a one-line edit. The board is one data table, `BOARD[N_ARCHWAYS, 5]`
(points, red, yellow, green, blue gems per archway); a configuration may replace it with a
user's own board, checked by `validate_board`.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray


class Colour(IntEnum):
    """Gem colours, highest value first (B1 `COLOURS`, B8.1)."""

    RED = 0
    YELLOW = 1
    GREEN = 2
    BLUE = 3


class Card(IntEnum):
    """Action cards, in resolution order (B1 `CARDS`, B5.3)."""

    DIE = 0
    POINTS = 1
    GEMS = 2


COLOUR_NAMES = ("red", "yellow", "green", "blue")
CARD_NAMES = ("Die", "Points", "Gemstones")
N_COLOURS = len(Colour)
N_CARDS = len(Card)

MIN_PLAYERS, MAX_PLAYERS = 2, 4  # 2 is the non-standard option (ASSUMED["two_players"])
STANDARD_PLAYERS = (3, 4)
GEMS_PER_COLOUR = 25  # B1: 100 gems, 25 of each colour
START_GEMS = 3  # B3.1: of each colour, per player
DIE_FACES = 6  # B1: uniform 1..6, one die per player
ROUNDS = 3  # B4.1
DIE_ACTION_BASE = 6  # B6.3: the Die action scores DIE_ACTION_BASE - roll
LAP_BONUS = 10  # B9.3
MAJORITY_RETURN = 3  # B9.2: the only holder of the most returns this many
TIE_RETURN = 2  # B9.2: each tied holder returns this many
POINTS_TRACK = 80  # B1: the track wraps; scores are unbounded
ARCHWAY_POINTS_RANGE = (4, 7)  # B1 (S3, S5, S6, S7, S12): the default board keeps to it
ARCHWAY_GEMS_RANGE = (2, 4)  # B1 (S3): the default board keeps to it
MAX_BARTERS_PER_TURN = 2  # B1: only 4 players form two pairs

# --------------------------------------------------------------- [assumed] (docs/basari/rules.md)
ASSUMED: dict[str, dict[str, Any]] = {
    "n_archways": {
        "value": 28,
        "rule": "B1",
        "reason": "the seed gives no count; S2 (a review of the seed's Out of the Box "
        "edition) says 28 archways in a square (S3, about 1998, says 34 stalls)",
    },
    "board_template": {
        # each side of the square repeats this 7-archway template: (points, roles);
        # the roles a, b, c, d are colours rotated by one colour per side
        "value": (
            (5, "abc"),
            (7, "dd"),
            (4, "abcd"),
            (6, "bc"),
            (4, "aad"),
            (6, "cdd"),
            (5, "bbc"),
        ),
        "rule": "B2.4",
        "reason": "the seed describes no archway; sources give only 4-7 points and 2-4 gems",
    },
    "majority_bonus": {
        "value": ((12, 10, 8, 6), (12, 10, 8, 6), (12, 10, 8, 6)),  # [round][colour]
        "rule": "B1",
        "reason": "the Bonus Points Chart was a picture and no source gives its values; they "
        "fall with the value order, with a round axis because S4 speaks of three scorings",
    },
    "two_players": {
        "value": True,
        "rule": "B1",
        "reason": "a benchmark convenience in no source (the game is for 3-4)",
    },
    "simultaneous_start": {
        "value": True,
        "rule": "B3.4",
        "reason": "the seed gives no order for choosing start archways",
    },
    "resolution_order": {
        "value": "solo actions first (Die, Points, Gemstones), then barters (Die, Points, "
        "Gemstones)",
        "rule": "B5.3",
        "reason": "the seed says solo actions happen 'immediately' and orders only barters",
    },
    "tied_opener_coin": {
        "value": 0.5,
        "rule": "B7.1",
        "reason": "the seed says only 'roll the die'; each party opens with probability 1/2",
    },
    "forced_accept": {
        "value": True,
        "rule": "B7.3",
        "reason": "a player who cannot raise must accept; the seed rejects only by raising",
    },
    "empty_majority": {
        "value": True,
        "rule": "B9.2",
        "reason": "if nobody holds a colour nobody scores it; holding none is not 'the most'",
    },
    "shared_wins": {
        "value": True,
        "rule": "B10.3",
        "reason": "the seed's tie-break stops at blue; players still tied share the win",
    },
}

N_ARCHWAYS: int = ASSUMED["n_archways"]["value"]
MAJORITY_BONUS: NDArray[np.int64] = np.array(ASSUMED["majority_bonus"]["value"], np.int64)
MAJORITY_BONUS.setflags(write=False)

# ---------------------------------------------------------------------------- the board (B2)
BOARD_COLUMNS = ("points", "red", "yellow", "green", "blue")
MAX_ARCHWAYS = 1000  # a sanity bound for user boards
MAX_ARCHWAY_POINTS = 1000  # a sanity bound for a user board's archway points
# Bounds of the unbounded quantities of a saved game, so that nothing can wrap in the core's
# dtypes: a game adds at most ROUNDS * MAX_ARCHWAYS turns of at most MAX_ARCHWAY_POINTS +
# DIE_ACTION_BASE points and a few bonuses (about 3 million) to a score, far below the core's
# int32, and `ranking_score` (score * 101**5 + tie-breaks) stays far below int64.
MAX_SCORE = 100_000_000
# archways moved in a round: below n_archways before the turn, plus two die rolls
MAX_PROGRESS = MAX_ARCHWAYS - 1 + 2 * DIE_FACES
# every offer of a barter is higher (B8) than the last, so a barter has at most one offer per
# non-empty bundle of at most GEMS_PER_COLOUR gems of each colour
MAX_OFFERS = (GEMS_PER_COLOUR + 1) ** N_COLOURS - 1


def _default_board() -> NDArray[np.int64]:
    """B2.4: four sides of one template, the colour roles rotated by one colour per side."""
    rows = []
    for side in range(4):
        roles = {r: (i + side) % N_COLOURS for i, r in enumerate("abcd")}
        for points, gems in ASSUMED["board_template"]["value"]:
            row = [points, 0, 0, 0, 0]
            for role in gems:
                row[1 + roles[role]] += 1
            rows.append(row)
    return np.array(rows, np.int64)


def validate_board(board: ArrayLike, name: str = "board") -> NDArray[np.int64]:
    """`board` as a read-only int64[n, 5] array (points, R, Y, G, B per archway), or a
    ValueError naming what is wrong and showing the value given: the shape, an entry that is
    not an integer (floats only when whole and finite; no bools), or one out of its range
    (points 0..MAX_ARCHWAY_POINTS, gems 0..GEMS_PER_COLOUR per colour)."""
    try:
        arr = np.asarray(board)
    except (ValueError, TypeError, OverflowError) as exc:
        raise ValueError(f"{name} must be an array of integers [n_archways, 5]: {exc}") from exc
    if arr.ndim != 2 or arr.shape[1] != len(BOARD_COLUMNS):
        raise ValueError(
            f"{name} must have shape [n_archways, 5] (columns {', '.join(BOARD_COLUMNS)}), "
            f"got shape {arr.shape}"
        )
    if not 1 <= arr.shape[0] <= MAX_ARCHWAYS:
        raise ValueError(f"{name} must have 1..{MAX_ARCHWAYS} archways, got {arr.shape[0]}")
    highs = np.array((MAX_ARCHWAY_POINTS,) + (GEMS_PER_COLOUR,) * N_COLOURS)
    if isinstance(board, np.ndarray) and arr.dtype.kind in "iu":  # checked at once
        out_of_range = np.argwhere((arr < 0) | (arr > highs))
        if out_of_range.size:
            k, col = out_of_range[0]
            where = f"{name}[{k}].{BOARD_COLUMNS[col]}"
            raise ValueError(f"{where} must be from 0 to {highs[col]}, got {arr[k, col].item()!r}")
        out = np.array(arr, np.int64)
        out.setflags(write=False)
        return out
    source = board if isinstance(board, (list, tuple)) else arr
    rows: list[list[int]] = []
    for k, row in enumerate(source):  # the values as given (Python or numpy scalars)
        rows.append([])
        for col, given in enumerate(row):
            value = given.item() if isinstance(given, np.generic) else given
            where = f"{name}[{k}].{BOARD_COLUMNS[col]}"
            whole = isinstance(value, float) and np.isfinite(value) and value == int(value)
            if isinstance(value, bool) or not (isinstance(value, int) or whole):
                raise ValueError(f"{where} must be an integer, got {value!r}")
            if not 0 <= value <= highs[col]:
                raise ValueError(f"{where} must be from 0 to {highs[col]}, got {value!r}")
            rows[-1].append(int(value))
    out = np.array(rows, np.int64)
    out.setflags(write=False)
    return out


BOARD: NDArray[np.int64] = validate_board(_default_board(), "BOARD")


def n_actions(n_archways: int = N_ARCHWAYS) -> int:
    """E2: NOOP, START(k) per archway, 3 cards, ACCEPT, FORFEIT, 4 ADDs, SUBMIT."""
    return n_archways + 11


def max_turns(n_archways: int = N_ARCHWAYS) -> int:
    """B10.4: every merchant moves at least 1 per turn, so a round lasts at most
    `n_archways` turns."""
    return ROUNDS * n_archways


N_ACTIONS = n_actions()  # 39 on the default board
MAX_TURNS = max_turns()  # 84 on the default board
