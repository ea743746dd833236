"""Text rendering of a BASARI game for people: the board ring with merchants and start
disks, the carpets, every player's score, gems, lap and revealed card, the running barter
with its standing offer, and the turn's events (reveal, each offer, accept or forfeit)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from asara_env.basari.constants import CARD_NAMES, COLOUR_NAMES, ROUNDS
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
    lines += ["", "player     score  gems (R Y G B)   lap        card       rolls"]
    for s, agent in enumerate(agents):
        held = " ".join(f"{int(k):>2}" for k in game.gems[s])
        lap = "done" if game.progress[s] >= n else f"{int(game.progress[s])}/{n}"
        card = CARD_NAMES[game.revealed[s]] if game.revealed[s] >= 0 else "-"
        rolls = f"move {int(game.move_roll[s])}" if game.move_roll[s] else ""
        if game.action_roll[s]:
            rolls += f", Die action {int(game.action_roll[s])}"
        lines.append(
            f"{agent:<10} {int(game.score[s]):>5}  {held:<15}  {lap:<9}  {card:<9}  {rolls}"
        )
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
