"""Stepping a batch: each game applies its action, then every automatic consequence (end of
turn, end of year, scoring, the next year's set-up) up to its next decision."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from asara_env.asara.actions import NUM_ACTIONS, Group, describe_action
from asara_env.asara.constants import (
    COLOURED_BUILDING_ASARI,
    LIGHTED_GIFT_COST,
    MAX_LIGHTS_DRAWN,
    N_TILE_COLOURS,
    RECRUIT_CARDS,
    GiftEffect,
)
from asara_env.asara.core import chance
from asara_env.asara.core.mask import GIFT_MASKS, build_sizes, space_taken, write_mask
from asara_env.asara.core.state import COUNT, SPACE_VALUE, CoreState
from asara_env.asara.core.tables import (
    ACTION_FIELDS,
    ACTION_GROUP,
    AMOUNT,
    AREA,
    CHANGES_MATERIALS,
    CHEST_OF_SPACE,
    EFFECT,
    GENIE_AREA,
    GENIE_BUILD,
    GENIE_VALUE,
    GIFT_PHASE,
    LIGHTS_COST,
    LIGHTS_DRAWN,
    LIGHTS_KEPT,
    MARKET,
    MONEY_SIGN,
    N_GROUPS,
    NEXT_PHASE,
    OPTION_CARDS,
    OPTION_FACE_UP,
    OPTION_HAND,
    PHASE,
    PRICES,
    TARGET_AREA,
    TARGET_BUILD_N,
    by_value,
)
from asara_env.asara.core.year import end_turn
from asara_env.asara.phases import Phase
from asara_env.common.errors import IllegalActionError
from asara_env.common.validate import check_indices, is_int


def check_actions(
    state: CoreState, actions: ArrayLike, games: np.ndarray | None = None
) -> NDArray[np.bool_]:
    """bool[len(actions)]: which actions are legal in their games (all B games, or `games`);
    finished games accept any action."""
    actions = np.asarray(actions)
    batch = len(state.phase)
    games = np.arange(len(actions)) if games is None else check_indices("games", games, batch)
    return _legal(state, actions, games) | (state.phase[games] == PHASE.GAME_OVER)


def _legal(state: CoreState, actions: np.ndarray, games: np.ndarray) -> NDArray[np.bool_]:
    """bool[len(games)]: the action is in its game's mask (never in a finished game, whose
    mask is empty)."""
    inside = (actions >= 0) & (actions < NUM_ACTIONS)
    return inside & state.legal[games, np.where(inside, actions, 0)]


def step(
    state: CoreState,
    actions: ArrayLike,
    on_illegal: str = "raise",
    games: ArrayLike | None = None,
) -> NDArray[np.bool_]:
    """Apply one action per game, in place; finished games ignore theirs. Returns bool[B],
    the games whose action was illegal (all False unless on_illegal="report").

    `games` (distinct ints, optional): only these games move, `actions[j]` being game
    `games[j]`'s; the result is then bool[len(games)].
    on_illegal="raise": if any action is illegal, IllegalActionError names the first bad
    game and its action and no game changes. on_illegal="report": games with an illegal
    action are left unchanged and flagged; the others step.
    """
    games, actions, live, ok = checked_step(state, actions, on_illegal, games)
    apply_actions(state, games[live], actions[live].astype(np.int64))
    return ~ok


def checked_step(
    state: CoreState, actions: ArrayLike, on_illegal: str, games: ArrayLike | None
) -> tuple[NDArray[np.int64], NDArray[np.integer[Any]], NDArray[np.bool_], NDArray[np.bool_]]:
    """`step`'s arguments checked: the games, their actions, which are live and legal, and
    which are legal or finished. Raises as `step` says, before anything changes."""
    games, actions = step_arguments(state, actions, on_illegal, games)
    live = _legal(state, actions, games)
    ok = live | (state.phase[games] == PHASE.GAME_OVER)
    if on_illegal == "raise" and not ok.all():
        raise illegal_error(state, games, actions, int(np.flatnonzero(~ok)[0]))
    return games, actions, live, ok


def step_arguments(
    state: CoreState, actions: ArrayLike, on_illegal: str, games: ArrayLike | None
) -> tuple[NDArray[np.int64], NDArray[np.integer[Any]]]:
    """`step`'s games (all B by default) and their actions as integer arrays, checked for
    form (every backend's step shares this); a ValueError or IllegalActionError if bad."""
    batch = len(state.phase)
    games = np.arange(batch) if games is None else check_indices("games", games, batch)
    actions = _action_array(actions, games.shape)
    if on_illegal not in ("raise", "report"):
        raise ValueError(f"on_illegal must be 'raise' or 'report', got {on_illegal!r}")
    return games, actions


def illegal_error(
    state: CoreState, games: np.ndarray, actions: np.ndarray, j: int
) -> IllegalActionError:
    """The error of actions[j], illegal in game games[j]."""
    game, a = int(games[j]), int(actions[j])
    name = describe_action(a) if 0 <= a < NUM_ACTIONS else "?"
    phase = Phase(int(state.phase[game])).name
    reason = f"not legal in game {game} of the batch"
    return IllegalActionError(int(state.seat[game]), a, name, phase, reason)


def _action_array(actions: object, shape: tuple[int, ...]) -> NDArray[np.integer[Any]]:
    """`actions` (an array or sequence of ints: no bools, floats or strings) as an integer
    array of `shape`; IllegalActionError otherwise."""
    if isinstance(actions, (list, tuple)):
        bad = [a for a in actions if not is_int(a)]
        if bad:
            reason = f"an action id must be an int, got {type(bad[0]).__name__}"
            raise IllegalActionError(-1, bad[0], "?", "-", reason)
        huge = [int(a) for a in actions if not -(2**63) <= a < 2**63]
        if huge:
            raise IllegalActionError(-1, huge[0], "?", "-", f"action ids are 0..{NUM_ACTIONS - 1}")
        actions = np.array([int(a) for a in actions], np.int64)
    actions = np.asarray(actions)
    if actions.shape != shape or actions.dtype.kind not in "iu":
        reason = f"actions must be ints of shape {shape}, got {actions.dtype} {actions.shape}"
        raise IllegalActionError(-1, actions, "?", "-", reason)
    return actions


def apply_actions(state: CoreState, games: np.ndarray, actions: np.ndarray) -> None:
    """Apply legal `actions` to the games `games`."""
    state.decisions[games] += 1
    previous = state.phase[games]  # a copy (fancy indexing)
    groups, fields = ACTION_GROUP[actions], ACTION_FIELDS[actions]
    ended, rebuilt = [], []  # games whose turn is over; games whose mover's materials changed
    for group, pick in by_value(groups, N_GROUPS):
        acting = games[pick]
        rows = APPLY[group](state, acting, fields[pick])
        if len(rows):
            ended.append(rows)
        if CHANGES_MATERIALS[group]:
            rebuilt.append(acting)
    if rebuilt:  # the build sizes the acting player can make now (R3.5), before the turn ends
        rows = _joined(rebuilt)
        seats = state.seat[rows]
        state.build_sizes[rows, seats] = build_sizes(state, rows, seats)
    if ended:
        end_turn(state, _joined(ended))
    write_mask(state, games, previous)


def _joined(arrays: list[np.ndarray]) -> np.ndarray:
    return arrays[0] if len(arrays) == 1 else np.concatenate(arrays)


def _seat(state: CoreState, rows: np.ndarray) -> np.ndarray:
    return state.seat[rows].astype(np.int64)


# ------------------------------------------------------------------------------ placement
def _place(state: CoreState, rows: np.ndarray, f: np.ndarray) -> np.ndarray:
    target, option = f[:, 0], f[:, 1]
    seat = _seat(state, rows)
    state.hands[rows, seat] -= OPTION_HAND[option]
    space = space_taken(state, rows, target)
    state.space_seat[rows, space] = seat
    cards = OPTION_CARDS[option]
    state.space_cards[rows, space] = cards
    face_up = OPTION_FACE_UP[option]
    state.space_face_up[rows, space] = face_up
    area = TARGET_AREA[target]
    colour = state.area_colour[rows, area]  # a face-up card sets it if unset (R3.2)
    state.area_colour[rows, area] = np.where(face_up & (colour < 0), cards[:, 0], colour)
    if "gifts" not in state.config.expansions:
        return _start_move(state, rows, area, SPACE_VALUE[space], TARGET_BUILD_N[target])
    chest = CHEST_OF_SPACE[state.config.pro][space]
    gifted = chest >= 0
    gifted[gifted] = state.gifts[rows[gifted], chest[gifted], 0] >= 0
    plain = ~gifted
    value, build_n = SPACE_VALUE[space[plain]], TARGET_BUILD_N[target[plain]]
    ended = [_start_move(state, rows[plain], area[plain], value, build_n)]
    if gifted.any():  # R9.2: the gifts first, in the order laid
        g, chest = rows[gifted], chest[gifted]
        state.gift_queue[g] = state.gifts[g, chest]
        state.gifts[g, chest] = -1
        state.gift_chest[g] = chest
        state.pending_target[g] = target[gifted]
        state.pending_space[g] = space[gifted]
        ended.append(_carry_out_gifts(state, g))
    return _joined(ended)


_ASARI, _PRESTIGE, _BUY = (int(e) for e in (GiftEffect.ASARI, GiftEffect.PRESTIGE, GiftEffect.BUY))


def _carry_out_gifts(state: CoreState, rows: np.ndarray) -> np.ndarray:
    """Carry out each game's waiting gifts in order until one asks for a decision with a
    legal choice (one without does nothing), then the space's own move; return the games
    whose turn ended."""
    ended = []
    while len(rows):
        kind = state.gift_queue[rows, 0].astype(np.int64)
        done = kind < 0
        if done.any():
            ended.append(_pending_move(state, rows[done]))
            rows, kind = rows[~done], kind[~done]
        if not len(rows):
            break
        state.gift_queue[rows, :-1] = state.gift_queue[rows, 1:]
        state.gift_queue[rows, -1] = -1
        seat, effect, amount = _seat(state, rows), EFFECT[kind], AMOUNT[kind]
        state.money[rows, seat] += np.where(effect == _ASARI, amount, 0)
        state.prestige[rows, seat] += np.where(effect == _PRESTIGE, amount, 0)
        phase = GIFT_PHASE[effect]
        state.market[rows] = np.where(effect == _BUY, amount, -1)
        asks = np.zeros(len(rows), bool)
        for value, pick in by_value(phase, len(Phase)):
            if value != PHASE.PLACE:
                state.phase[rows[pick]] = value
                allowed = GIFT_MASKS[value](state, rows[pick])
                asks[pick] = next(iter(allowed.values())).any(axis=1)
        rows = rows[~asks]
    return _joined(ended) if ended else rows[:0]


def _pending_move(state: CoreState, rows: np.ndarray) -> np.ndarray:
    """The move of the space the gifts lay on, once they are carried out."""
    target = state.pending_target[rows].astype(np.int64)
    space = state.pending_space[rows].astype(np.int64)
    state.market[rows] = -1
    state.gift_chest[rows] = state.pending_target[rows] = state.pending_space[rows] = -1
    return _start_move(state, rows, TARGET_AREA[target], SPACE_VALUE[space], TARGET_BUILD_N[target])


def _start_move(
    state: CoreState, rows: np.ndarray, area: np.ndarray, value: np.ndarray, build_n: np.ndarray
) -> np.ndarray:
    """Carry out the move of a placement; return the games whose turn it ends. The pending
    fields it sets (market, build_left) are -1 / 0 at a placement, and stay so elsewhere."""
    seat = _seat(state, rows)
    phase = NEXT_PHASE[area]
    state.phase[rows] = phase
    state.market[rows] = MARKET[area]
    state.build_left[rows] = build_n
    state.money[rows, seat] += MONEY_SIGN[area] * value
    caliph = area == AREA.CALIPH
    if caliph.any():
        state.caliph[rows[caliph]] = seat[caliph]
    tent = area == AREA.TENT
    if tent.any():
        _recruit(state, rows[tent], seat[tent])
    return rows[phase == PHASE.PLACE]


def _recruit(state: CoreState, rows: np.ndarray, seat: np.ndarray) -> None:
    pile = state.draw_pile[rows].astype(np.int64)
    drawn = chance.draw_many(state, rows, pile, RECRUIT_CARDS)
    state.draw_pile[rows] = pile
    state.hands[rows, seat] += drawn.astype(COUNT)


def _place_coloured(state: CoreState, rows: np.ndarray, f: np.ndarray) -> np.ndarray:
    seat, card = _seat(state, rows), f[:, 0]
    state.hands[rows, seat, card] -= 1
    state.coloured[rows, seat, card] += 1
    state.money[rows, seat] += COLOURED_BUILDING_ASARI
    return rows


# ------------------------------------------------------------------------------ moves
def _take_tile(state: CoreState, rows: np.ndarray, f: np.ndarray, pile: np.ndarray) -> np.ndarray:
    seat = _seat(state, rows)
    part, colour, gold = f[:, 0], f[:, 1], f[:, 2]
    pile[rows, part, colour, gold] -= 1
    state.supply[rows, seat, part, colour, gold] += 1
    state.money[rows, seat] -= PRICES[colour]
    return rows


def _buy(state: CoreState, rows: np.ndarray, f: np.ndarray) -> np.ndarray:
    _take_tile(state, rows, f, state.displays)
    gift = state.phase[rows] == PHASE.GIFT_BUY
    if not gift.any():
        return rows
    return _joined([rows[~gift], _carry_out_gifts(state, rows[gift])])


def _genie_move(state: CoreState, rows: np.ndarray, f: np.ndarray) -> np.ndarray:
    move = f[:, 0]
    coloured = GENIE_AREA[move] < 0  # no card is placed (R9.1)
    c = rows[coloured]
    state.money[c, _seat(state, c)] += COLOURED_BUILDING_ASARI
    m, other = move[~coloured], rows[~coloured]
    ended = _start_move(state, other, GENIE_AREA[m], GENIE_VALUE[m], GENIE_BUILD[m])
    return _joined([c, ended])


def _gift_card(state: CoreState, rows: np.ndarray, f: np.ndarray) -> np.ndarray:
    card = f[:, 0]
    state.draw_pile[rows, card] -= 1
    state.hands[rows, _seat(state, rows), card] += 1
    return _carry_out_gifts(state, rows)


def _keep_gift_window(state: CoreState, rows: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """R9.2: keep a window of the stack, pay for it; the rest is shuffled, known to nobody."""
    seat = _seat(state, rows)
    stack = state.lighted_stack[rows]
    counts = (stack[..., None] == np.arange(N_TILE_COLOURS)).sum(axis=1)
    counts[np.arange(len(rows)), colour] -= 1
    order = chance.shuffled(state, rows, counts)
    width = state.lighted_stack.shape[1]
    padded = np.full((len(rows), width), -1, np.int64)
    padded[:, : order.shape[1]] = order
    state.lighted_stack[rows] = padded
    state.lighted_owner[rows] = -1
    state.lighted_len[rows] -= 1
    state.lighted_supply[rows, seat, colour] += 1
    state.money[rows, seat] -= LIGHTED_GIFT_COST
    return _carry_out_gifts(state, rows)


def _bribe_stack(state: CoreState, rows: np.ndarray, f: np.ndarray) -> np.ndarray:
    state.bribe_stack[rows] = f[:, 0]
    state.phase[rows] = PHASE.BRIBE_TAKE
    return rows[:0]


def _bribe_take(state: CoreState, rows: np.ndarray, f: np.ndarray) -> np.ndarray:
    return _take_tile(state, rows, f, state.stacks)


def _bribe_nothing(state: CoreState, rows: np.ndarray, f: np.ndarray) -> np.ndarray:
    return rows


def _lights_option(state: CoreState, rows: np.ndarray, f: np.ndarray) -> np.ndarray:
    option = f[:, 0]
    state.money[rows, _seat(state, rows)] -= LIGHTS_COST[option]
    length = state.lighted_len[rows].astype(np.int64)
    drawn = np.minimum(LIGHTS_DRAWN[option], length)
    stack, owner = state.lighted_stack[rows], state.lighted_owner[rows]
    k, n = np.arange(stack.shape[1]), MAX_LIGHTS_DRAWN
    state.lights_drawn[rows] = np.where(k[:n] < drawn[:, None], stack[:, :n], -1)
    shifted = np.minimum(k[None, :] + drawn[:, None], stack.shape[1] - 1)
    keep = k[None, :] < (length - drawn)[:, None]
    rr = np.arange(len(rows))[:, None]
    state.lighted_stack[rows] = np.where(keep, stack[rr, shifted], -1)
    state.lighted_owner[rows] = np.where(keep, owner[rr, shifted], -1)
    state.lighted_len[rows] = length - drawn
    state.lights_keep[rows] = np.minimum(LIGHTS_KEPT[option], drawn)
    state.phase[rows] = PHASE.LIGHTS_KEEP
    return rows[:0]


def _lights_keep(state: CoreState, rows: np.ndarray, f: np.ndarray) -> np.ndarray:
    gift = state.phase[rows] == PHASE.GIFT_LIGHTS
    if gift.any():
        ended = _keep_gift_window(state, rows[gift], f[gift, 0])
        if gift.all():
            return ended
        return _joined([ended, _keep_drawn(state, rows[~gift], f[~gift])])
    return _keep_drawn(state, rows, f)


def _keep_drawn(state: CoreState, rows: np.ndarray, f: np.ndarray) -> np.ndarray:
    colour, seat = f[:, 0], _seat(state, rows)
    drawn = state.lights_drawn[rows]
    first = np.argmax(drawn == colour[:, None], axis=1)
    drawn[np.arange(len(rows)), first] = -1
    order = np.argsort(drawn < 0, axis=1, kind="stable")
    drawn = np.take_along_axis(drawn, order, axis=1)
    state.lights_drawn[rows] = drawn
    state.lighted_supply[rows, seat, colour] += 1
    state.lights_keep[rows] -= 1
    done = state.lights_keep[rows] == 0
    if done.any():
        _return_lights(state, rows[done], seat[done], drawn[done])
    return rows[done]


def _return_lights(state: CoreState, rows: np.ndarray, seat: np.ndarray, drawn: np.ndarray) -> None:
    """Windows not kept go to the bottom of the stack in drawn order, known to `seat`."""
    length = state.lighted_len[rows].astype(np.int64)
    for k in range(drawn.shape[1]):
        back = drawn[:, k] >= 0
        r, pos = rows[back], (length + k)[back]
        state.lighted_stack[r, pos] = drawn[back, k]
        state.lighted_owner[r, pos] = seat[back]
    state.lighted_len[rows] = length + (drawn >= 0).sum(axis=1)
    state.lights_drawn[rows] = -1


def _build_tile(state: CoreState, rows: np.ndarray, f: np.ndarray) -> np.ndarray:
    seat = _seat(state, rows)
    part, colour, gold, slot = f[:, 0], f[:, 1], f[:, 2], f[:, 3]
    state.tower_parts[rows, seat, colour, slot, part, gold] += 1
    state.supply[rows, seat, part, colour, gold] -= 1
    towers = state.n_towers[rows, seat, colour]
    state.n_towers[rows, seat, colour] = np.maximum(towers, slot + 1)
    return _built_one(state, rows, seat)


def _build_lighted(state: CoreState, rows: np.ndarray, f: np.ndarray) -> np.ndarray:
    seat = _seat(state, rows)
    colour, slot, over_gold = f[:, 0], f[:, 1], f[:, 2]
    state.tower_lit[rows, seat, colour, slot, over_gold] += 1
    state.lighted_supply[rows, seat, colour] -= 1
    return _built_one(state, rows, seat)


def _built_one(state: CoreState, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
    state.prestige[rows, seat] += 1
    state.build_left[rows] -= 1
    return rows[state.build_left[rows] == 0]


_APPLY: dict[Group, Callable[[CoreState, np.ndarray, np.ndarray], np.ndarray]] = {
    Group.PLACE: _place,
    Group.PLACE_COLOURED: _place_coloured,
    Group.BUY: _buy,
    Group.BRIBE_STACK: _bribe_stack,
    Group.BRIBE_TAKE: _bribe_take,
    Group.BRIBE_NOTHING: _bribe_nothing,
    Group.LIGHTS_OPTION: _lights_option,
    Group.LIGHTS_KEEP: _lights_keep,
    Group.BUILD_TILE: _build_tile,
    Group.BUILD_LIGHTED: _build_lighted,
    Group.GENIE_MOVE: _genie_move,
    Group.GIFT_CARD: _gift_card,
}
APPLY = tuple(_APPLY[g] for g in Group)  # [group] the function applying its actions
