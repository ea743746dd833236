"""Agents that score every legal action with a documented valuation (see `Plan`).

All three read only the observation (agents/features.py) and the mask, and score the whole
batch at once: one scoring function per action group, each giving `[B, group size]`.
Values are in prestige points; an Asari is worth `Plan.asari` points, a buyer card (a
future turn) `Plan.card` points.

- GreedyAgent: the best immediate gain. Prestige counts 1, an Asari 0.1 (its final rate),
  a tile 1 (+0.5 gold); a build of n tiles is worth n; the Caliph 1; a card 0.5.
- TowersAgent ("many cheap towers"): buys bases and turrets of the cheap colours and gold
  tiles, pairs them into complete towers and builds them early, so that every tower and
  gold tile scores at each end of year and the most-towers award (12/6) comes its way.
- TallAgent ("tall towers of the valuable colours"): prefers black and white tiles (colour
  weights 0.8 brown .. 1.3 white) and piles trunks and windows onto its tallest tower of
  each colour, aiming at the colour awards (10/5, 12/6) and the tallest tower (8/4).

Both strategies lay the first card of an area in the colour they hold most of (so they can
follow it later), avoid face-down pairs unless the move is worth a turn, take money from
the bank when short, search a stack when the display lacks what they want, and take the
Caliph while it still has end-of-year scorings to pay.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from asara_env.actions import GROUPS, Group
from asara_env.constants import LIGHTS_OPTIONS, N_BUILD_MAX, PRICE, SPACE_VALUES, Area, Part
from asara_env.core.tables import OPTION_CARDS, OPTION_FACE_UP, TARGET_AREA, TARGET_BUILD_N

from .base import Agent
from .features import Seen

PRICES = np.array(PRICE, np.float64)  # [colour]
BANK = np.array(SPACE_VALUES[Area.BANK], np.float64)
SPIES = np.array(SPACE_VALUES[Area.SPIES], np.float64)
TENT = np.array(SPACE_VALUES[Area.TENT], np.float64)
OPTION_N_CARDS = np.where(OPTION_FACE_UP, 1, 2)  # [option]
BASE, TRUNK, WINDOW, TURRET = (int(p) for p in Part)


@dataclass(frozen=True)
class Plan:
    """The weights of a heuristic agent (prestige points per unit)."""

    asari: float  # one Asari
    card: float  # one buyer card spent
    colour: tuple[float, ...]  # a tile of each colour (brown .. white)
    part: tuple[float, ...]  # a tile of each part (base, trunk, window, turret)
    gold: float  # a gold decoration
    pair: float = 0.0  # a base or turret that completes a pair waiting in the supply
    grow: float = 0.0  # a trunk or window of a colour with a tower (or a pair) to go on
    glut: float = 0.0  # less per unbuilt tile of the same part and colour already held
    build: float = 1.0  # a tile built (it scores 1 at once)
    new_tower: float = 0.0  # per end-of-year scoring left, a complete tower a build adds
    tallest: float = 0.0  # per tile of height, placing on the tallest tower of the colour
    caliph: float = 1.0  # the Caliph tile, not yet held
    lighted: float = 0.0  # a lighted window with a free window to go on
    thrift: float = 0.0  # extra value of Asari when short of money


class HeuristicAgent(Agent):
    """Scores each legal action with `plan` (see the module docstring)."""

    plan: Plan

    def scores(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        seen = Seen(observations)
        parts = [SCORERS[g](self.plan, seen) for g in Group]
        return np.concatenate([p.reshape(len(masks), -1) for p in parts], axis=1)


# ------------------------------------------------------------------------------ values
def asari_value(plan: Plan, seen: Seen) -> np.ndarray:
    """[B]: one Asari; more when short of money, the final 1/10 in the last year."""
    short = np.maximum(0.0, 12.0 - seen.money) / 12.0
    value = plan.asari * (1.0 + plan.thrift * short)
    return np.where(seen.year == 4, np.maximum(0.1, 0.6 * value), value)


def tile_values(plan: Plan, seen: Seen) -> np.ndarray:
    """[B, part, colour, gold]: one more unbuilt tile, before its price."""
    colour, part = np.array(plan.colour), np.array(plan.part)
    value = part[:, None, None] * colour[None, :, None] + plan.gold * np.arange(2)
    value = np.broadcast_to(value, seen.supply.shape).copy()
    bases, turrets = seen.in_supply(Part.BASE), seen.in_supply(Part.TURRET)
    value[:, BASE] += (plan.pair * (turrets > bases))[..., None]
    value[:, TURRET] += (plan.pair * (bases > turrets))[..., None]
    can_grow = (seen.n_towers > 0) | (np.minimum(bases, turrets) > 0)
    for p in (TRUNK, WINDOW):
        value[:, p] += (plan.grow * can_grow)[..., None]
    value -= plan.glut * seen.supply.sum(axis=-1, keepdims=True)
    return value * np.where(seen.year == 4, 0.6, 1.0)[:, None, None, None]


def net_tiles(plan: Plan, seen: Seen, budget: np.ndarray) -> np.ndarray:
    """[B, part, colour, gold]: value minus price of each tile, -inf where unaffordable."""
    price = PRICES[None, None, :, None]
    net = tile_values(plan, seen) - asari_value(plan, seen)[:, None, None, None] * price
    return np.where(price <= budget[:, None, None, None], net, -np.inf)


def best_from(pile: np.ndarray, net: np.ndarray) -> np.ndarray:
    """[B, part]: the best net value among the tiles present in `pile` (-inf if none)."""
    return np.where(pile > 0, net, -np.inf).max(axis=(-1, -2))


# ------------------------------------------------------------------------------ placement
def target_values(plan: Plan, seen: Seen) -> np.ndarray:
    """[B, target]: what the move of each placement target gives, its costs paid."""
    a = asari_value(plan, seen)
    out = np.zeros((len(a), len(TARGET_AREA)))
    markets = np.flatnonzero(TARGET_AREA <= Area.MARKET_TURRET)
    out[:, markets] = best_from(seen.displays, net_tiles(plan, seen, seen.money))
    out[:, TARGET_AREA == Area.BUILDING] = build_values(plan, seen, a)
    out[:, TARGET_AREA == Area.BANK] = a[:, None] * BANK
    found = [best_from(seen.stacks, net_tiles(plan, seen, seen.money - s)) for s in SPIES]
    out[:, TARGET_AREA == Area.SPIES] = np.stack(found, axis=1).max(axis=2) - a[:, None] * SPIES
    caliph = np.where(seen.holds_caliph, 0.2 * plan.caliph, plan.caliph)
    out[:, TARGET_AREA == Area.CALIPH] = caliph[:, None]
    cards = np.minimum(2, seen.draw_pile)[:, None] * plan.card
    out[:, TARGET_AREA == Area.TENT] = cards - a[:, None] * TENT
    lit = plan.lighted * (seen.free_windows().sum(axis=1) > 0)
    out[:, TARGET_AREA == Area.LIGHTS] = (lit - a * LIGHTS_OPTIONS[0][0])[:, None]
    return out


def build_values(plan: Plan, seen: Seen, a: np.ndarray) -> np.ndarray:
    """[B, n = 1..7]: n tiles built at the plot they would take, with the complete towers
    the supply's base-turret pairs could add."""
    n = TARGET_BUILD_N[TARGET_AREA == Area.BUILDING].astype(np.float64)
    pairs = np.minimum(seen.in_supply(Part.BASE), seen.in_supply(Part.TURRET)).sum(axis=1)
    towers = np.minimum(pairs[:, None], n // 2)
    bonus = plan.new_tower * towers * seen.years_left[:, None]
    cost = np.minimum(seen.plot_cost(), N_BUILD_MAX)
    return plan.build * n + bonus - a[:, None] * cost


def option_costs(plan: Plan, seen: Seen) -> np.ndarray:
    """[B, card option]: the cards a placement spends; a face-up card of a colour held
    often is cheaper (it sets or follows colours the agent can follow again)."""
    held = seen.hand[:, np.maximum(OPTION_CARDS[:, 0], 0)]
    return plan.card * OPTION_N_CARDS - 0.02 * held * OPTION_FACE_UP


def score_place(plan: Plan, seen: Seen) -> np.ndarray:
    return target_values(plan, seen)[:, :, None] - option_costs(plan, seen)[:, None, :]


def score_coloured(plan: Plan, seen: Seen) -> np.ndarray:
    gain = 5.0 * asari_value(plan, seen)
    return gain[:, None] - plan.card + 0.02 * seen.hand


# ------------------------------------------------------------------------------ moves
def score_buy(plan: Plan, seen: Seen) -> np.ndarray:
    return net_tiles(plan, seen, seen.money)


def score_bribe_stack(plan: Plan, seen: Seen) -> np.ndarray:
    return best_from(seen.stacks, net_tiles(plan, seen, seen.money))


def score_nothing(plan: Plan, seen: Seen) -> np.ndarray:
    return np.zeros((len(seen.money), 1))


def score_lights_option(plan: Plan, seen: Seen) -> np.ndarray:
    free = seen.free_windows().sum(axis=1)
    a = asari_value(plan, seen)
    worth = [plan.lighted * np.minimum(free, kept) - a * cost for cost, _, kept in LIGHTS_OPTIONS]
    return np.stack(worth, axis=1)


def score_lights_keep(plan: Plan, seen: Seen) -> np.ndarray:
    return (seen.free_windows() > 0) + 0.1 * np.array(plan.colour)


def score_build_tile(plan: Plan, seen: Seen) -> np.ndarray:
    """[B, part, colour, gold, slot]: gold first (it scores each year), the plan's colours,
    and trunks and windows onto the tallest tower of their colour."""
    b, slots = len(seen.money), seen.tower_height.shape[2]
    colour = np.array(plan.colour)[None, None, :, None, None]
    gold = np.arange(2)[None, None, None, :, None]
    height = seen.tower_height[:, None, :, None, :]  # [B, 1, colour, 1, slot]
    tallest = height == seen.tower_height.max(axis=2)[:, None, :, None, None]
    grows = np.isin(np.arange(4), (TRUNK, WINDOW))[None, :, None, None, None]
    score = colour + gold + plan.tallest * grows * tallest * height
    return np.broadcast_to(score, (b, 4, 5, 2, slots))


def score_build_lighted(plan: Plan, seen: Seen) -> np.ndarray:
    over_gold = np.arange(2)[None, None, None, :]
    return np.broadcast_to(1.0 - over_gold, (len(seen.money), 5, 4, 2)).astype(np.float64)


def zeros(group: Group):
    return lambda plan, seen: np.zeros((len(seen.money), GROUPS[group].size))


SCORERS = {
    Group.PLACE: score_place,
    Group.PLACE_COLOURED: score_coloured,
    Group.BUY: score_buy,
    Group.BRIBE_STACK: score_bribe_stack,
    Group.BRIBE_TAKE: score_buy,
    Group.BRIBE_NOTHING: score_nothing,
    Group.LIGHTS_OPTION: score_lights_option,
    Group.LIGHTS_KEEP: score_lights_keep,
    Group.BUILD_TILE: score_build_tile,
    Group.BUILD_LIGHTED: score_build_lighted,
    Group.GENIE_MOVE: zeros(Group.GENIE_MOVE),
    Group.GIFT_CARD: zeros(Group.GIFT_CARD),
}


# ------------------------------------------------------------------------------ agents
class GreedyAgent(HeuristicAgent):
    """The best immediate gain: prestige 1, an Asari 0.1, a tile 1 (+0.5 gold), a card 0.5."""

    name = "greedy"
    plan = Plan(asari=0.1, card=0.5, colour=(1.0,) * 5, part=(1.0,) * 4, gold=0.5, lighted=1.0)


class TowersAgent(HeuristicAgent):
    """Many cheap complete towers early, gold, the most-towers award."""

    name = "towers"
    plan = Plan(
        asari=0.15,
        card=1.0,
        colour=(1.3, 1.15, 1.0, 0.8, 0.6),
        part=(1.3, 0.4, 0.5, 1.3),
        gold=1.2,
        pair=0.8,
        grow=0.3,
        glut=0.3,
        build=1.3,
        new_tower=1.0,
        caliph=1.5,
        lighted=1.5,
        thrift=1.0,
    )


class TallAgent(HeuristicAgent):
    """Tall towers of black and white: the colour and tallest-tower awards."""

    name = "tall"
    plan = Plan(
        asari=0.1,
        card=1.0,
        colour=(0.8, 0.9, 1.0, 1.2, 1.3),
        part=(1.2, 1.0, 1.0, 1.2),
        gold=0.5,
        pair=0.6,
        grow=0.8,
        glut=0.15,
        build=1.2,
        new_tower=1.0,
        tallest=0.5,
        caliph=1.2,
        lighted=1.5,
        thrift=1.0,
    )
