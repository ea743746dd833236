"""Text rendering of a BASARI game for people: the board ring with merchants and start
disks, the carpets, every player's score, gems, lap and revealed card, the running barter
with its standing offer, and the turn's events (reveal, each offer, accept or forfeit);
`render_compact` the same for one seat in 80 columns, only the archways that matter
expanded."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

import numpy as np

from asara_env.basari.constants import CARD_NAMES, COLOUR_NAMES, DIE_FACES, ROUNDS
from asara_env.basari.phases import Phase
from asara_env.basari.reference.state import State

LETTERS = "RYGB"


def bundle_text(bundle: Sequence[int] | np.ndarray) -> str:
    """'2 red + 1 blue', or 'nothing'."""
    parts = [f"{int(k)} {COLOUR_NAMES[c]}" for c, k in enumerate(bundle) if k]
    return " + ".join(parts) if parts else "nothing"


def _gems_short(bundle: Sequence[int] | np.ndarray) -> str:
    return "".join(LETTERS[c] * int(k) for c, k in enumerate(bundle)) or "-"


def render_state(game: State, agents: Sequence[str], events: Sequence[str] = ()) -> str:
    """The whole game as text (BASARI has no hidden state between steps)."""
    n = game.config.n_archways
    board = np.asarray(game.config.board)
    lines = [
        f"BASARI  round {game.round + 1}/{ROUNDS}  turn {game.turn + 1}  phase {game.phase.name}",
        "carpets: " + ", ".join(f"{COLOUR_NAMES[c]} {int(k)}" for c, k in enumerate(game.carpet)),
        "",
        "archway  pts  gems    pieces (M = merchant, S = start disk)",
    ]
    for k in range(n):
        pieces = [f"M{s}" for s in range(game.num_players) if game.position[s] == k]
        pieces += [f"S{s}" for s in range(game.num_players) if game.start[s] == k]
        gems = _gems_short(board[k, 1:])
        lines.append(f"  {k:>4}  {board[k, 0]:>4}  {gems:<6}  {' '.join(pieces)}".rstrip())
    lines += ["", _cells(FULL_COLUMNS, ["player", *PLAYER_TITLES])]
    lines += [
        _cells(FULL_COLUMNS, [agent, *_player_cells(game, s, "Die action")])
        for s, agent in enumerate(agents)
    ]
    lines += _barter_lines(game, agents)
    if events:
        lines += ["", "this turn:"] + [f"  {e}" for e in events]
    return "\n".join(lines) + "\n"


def _barter_lines(game: State, agents: Sequence[str]) -> list[str]:
    if game.phase != Phase.BARTER:
        return []
    out = [
        "",
        f"barter for {CARD_NAMES[game.barter_card]}: {agents[game.opener]} (opener) vs "
        f"{agents[game.responder]}; {agents[game.to_act]} to act",
    ]
    if game.offer_by >= 0:
        out.append(f"  standing offer by {agents[game.offer_by]}: {bundle_text(game.offer)}")
    else:
        out.append("  no offer yet")
    if game.pending.any():
        out.append(f"  {agents[game.to_act]} is building: {bundle_text(game.pending)}")
    if game.queued_card >= 0:
        out.append(f"  next barter: {CARD_NAMES[game.queued_card]}")
    return out


# ------------------------------------------------------------------------ 80 columns
COMPACT_WIDTH = 80


def archway_short(game: State, k: int) -> str:
    """'12:6pt RRB M0 S1': the archway's number, points and gems (B2.4), then the
    merchants (M) and start disks (S) on it."""
    board = np.asarray(game.config.board)
    pieces = [f"M{s}" for s in range(game.num_players) if game.position[s] == k]
    pieces += [f"S{s}" for s in range(game.num_players) if game.start[s] == k]
    return " ".join([f"{k}:{board[k, 0]}pt {_gems_short(board[k, 1:])}", *pieces])


def shown_archways(game: State, viewer: int) -> list[int]:
    """The archways worth showing: every one before the merchants are placed; then those
    with a merchant or start disk and the DIE_FACES ahead of the viewer's merchant (where
    a Die card can take it, B6.1)."""
    n = game.config.n_archways
    if game.position[viewer] < 0:
        return list(range(n))
    ahead = {(int(game.position[viewer]) + d) % n for d in range(1, DIE_FACES + 1)}
    placed = {int(k) for k in (*game.position, *game.start) if k >= 0}
    return sorted(ahead | placed)


def archway_lines(game: State, viewer: int) -> list[str]:
    """The shown archways packed into COMPACT_WIDTH columns, a run of hidden ones as
    '..'."""
    shown = shown_archways(game, viewer)
    items: list[str] = []
    for i, k in enumerate(shown):
        if i and k != shown[i - 1] + 1:
            items.append("..")
        items.append(archway_short(game, k))
    if shown and (shown[0] != 0 or shown[-1] != game.config.n_archways - 1):
        items.append("..")
    return textwrap.wrap(
        " | ".join(items),
        COMPACT_WIDTH,
        subsequent_indent="  ",
        break_long_words=False,
        break_on_hyphens=False,
    )


# The players' table: (gap before, width, alignment) of each column, its titles and cells
# made once for both layouts, so every title sits over its column.
Column = tuple[str, int, str]
PLAYER_TITLES = ["score", *LETTERS, "lap", "card", "rolls"]  # after the player's label
_GEMS: list[Column] = [("  ", 2, ">"), *[(" ", 2, ">")] * 3]
COMPACT_COLUMNS: list[Column] = [("", 7, "<"), (" ", 5, ">"), *_GEMS]
COMPACT_COLUMNS += [("  ", 6, "<"), ("  ", 9, "<"), ("  ", 0, "<")]
FULL_COLUMNS: list[Column] = [("", 10, "<"), (" ", 5, ">"), *_GEMS]
FULL_COLUMNS += [("  ", 9, "<"), ("  ", 9, "<"), ("  ", 0, "<")]


def _cells(columns: Sequence[Column], cells: Sequence[str]) -> str:
    """One line of the players' table: each cell padded to its column."""
    return "".join(
        f"{gap}{c:{align}{width}}" for c, (gap, width, align) in zip(cells, columns)
    ).rstrip()


def _player_cells(game: State, s: int, die: str) -> list[str]:
    """Seat `s`'s cells under PLAYER_TITLES: score, gems by colour, lap, card, rolls (the
    Die card's roll named `die`)."""
    n = game.config.n_archways
    lap = "done" if game.progress[s] >= n else f"{int(game.progress[s])}/{n}"
    card = CARD_NAMES[game.revealed[s]] if game.revealed[s] >= 0 else "-"
    rolls = f"move {int(game.move_roll[s])}" if game.move_roll[s] else ""
    if game.action_roll[s]:
        rolls += f", {die} {int(game.action_roll[s])}"
    gems = [str(int(k)) for k in game.gems[s]]
    return [str(int(game.score[s])), *gems, lap, card, rolls]


def render_compact(game: State, labels: Sequence[str], viewer: int) -> str:
    """The game in at most COMPACT_WIDTH columns for the seat `viewer`: the round and
    carpet, the archways that matter (`shown_archways`, number:points gems, M merchant,
    S start disk), every player (the viewer first) and the running barter."""
    carpet = " ".join(f"{LETTERS[c]}{int(k)}" for c, k in enumerate(game.carpet))
    lines = [
        f"== BASARI round {game.round + 1}/{ROUNDS} turn {game.turn + 1} | {game.phase.name}"
        f" | carpet {carpet} ==",
        "archways (number:points gems; M merchant, S start disk; .. archways not shown):",
        *archway_lines(game, viewer),
        _cells(COMPACT_COLUMNS, ["seat", *PLAYER_TITLES]),
    ]
    for s in [viewer, *(s for s in range(game.num_players) if s != viewer)]:
        lines.append(_cells(COMPACT_COLUMNS, [labels[s], *_player_cells(game, s, "Die")]))
    return "\n".join(lines + [line for line in _barter_lines(game, labels) if line])
