"""Agents that score every legal action with a documented valuation (see `Plan`).

All three read only the observation (agents/asara/features.py) and the mask, and score the whole
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

The expansions (R9) are valued with the same plan, by all three agents:

- Bottle Genie (R9.1): a genie move is worth what the placement target of that space is
  worth (a market's best affordable tile net of price, a build of n paying plot n's cost
  n whatever the plots' occupancy, a bank's Asari, 5 Asari for the coloured building,
  bribery and recruiting net of their costs, the cheaper lighted-window option), ignoring
  occupancy, and -inf where the agent cannot carry it out (a build size its supply does
  not allow, a cost above its money). The GENIE_MOVE decision scores the moves so. A
  genie space (3/5/7) is worth the best move *that gets tiles* (market, build, bribery,
  lighted windows) the money left after its cost allows, less that cost in Asari: paying
  the Genie for Asari or cards (bank, coloured building, tent) is not counted, since the
  Asari and card weights are too rough for such trades: counting them, greedy and towers
  won only 33% and 40% of 40 two-player games against themselves without the Genie (about
  even without them). So the Genie is taken when it reaches a tile move the board no
  longer offers (typically a build whose plots are taken) and is worth its cost.
- Gifts of the Caliph (R9.2): a placement that would take a chest space (a market's first
  space, plot 4 as the lowest vacant plot >= n, the first lighted-windows space) adds
  the value of every gift waiting there: Asari at the plan's Asari value, +2 prestige at
  2, a buyer card at `Plan.card` (when the draw pile holds one), a tile part at the best
  affordable tile of that display net of its price (0 if none), a lighted window at
  `Plan.lighted` (if a window is free for it) less 4 Asari (0 if unaffordable or the
  stack is empty). The gift decisions reuse the move scorers: GIFT_BUY scores the tiles
  like a market buy, GIFT_LIGHTS like keeping a drawn window, and GIFT_CARD prefers the
  colour required in most areas (0.1 each), then the colour held most (0.02 per card).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from agents.base import ScoringAgent
from asara_env.asara.actions import GENIE_MOVES, GROUPS, OFFSETS, Group
from asara_env.asara.constants import (
    COLOURED_BUILDING_ASARI,
    GIFT_AMOUNT,
    GIFT_EFFECT,
    LIGHTED_GIFT_COST,
    LIGHTS_OPTIONS,
    MARKET_AREAS,
    N_BUILD_MAX,
    PRICE,
    SPACE_VALUES,
    Area,
    GiftEffect,
    Part,
)
from asara_env.asara.core.tables import OPTION_CARDS, OPTION_FACE_UP, TARGET_AREA, TARGET_BUILD_N

from .features import Seen

PRICES = np.array(PRICE, np.float64)  # [colour]
BANK = np.array(SPACE_VALUES[Area.BANK], np.float64)
SPIES = np.array(SPACE_VALUES[Area.SPIES], np.float64)
TENT = np.array(SPACE_VALUES[Area.TENT], np.float64)
OPTION_N_CARDS = np.where(OPTION_FACE_UP, 1, 2)  # [option]
BASE, TRUNK, WINDOW, TURRET = (int(p) for p in Part)
GENIE_COSTS = np.array(SPACE_VALUES[Area.GENIE], np.float64)  # [genie space]
GENIE_AREA = np.array([-1 if m.area is None else m.area for m in GENIE_MOVES])  # -1: coloured
# the genie moves a genie placement is valued by: those that get tiles (buy, build, bribery,
# lighted windows); paying the Genie for Asari or cards is not counted (in games it lost)
GENIE_FOR_TILES = np.isin(GENIE_AREA, (*MARKET_AREAS, Area.BUILDING, Area.SPIES, Area.LIGHTS))
GIFT_EFFECTS, GIFT_AMOUNTS = np.array(GIFT_EFFECT), np.array(GIFT_AMOUNT)  # [gift kind]


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


class HeuristicAgent(ScoringAgent):
    """Scores each legal action with `plan` (see the module docstring)."""

    plan: Plan

    def scores(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Each group is scored only where some row has a legal action in it (the others
        score 0, which the mask hides), so a row's scores do not depend on its batch."""
        seen, out = Seen(observations), np.zeros(masks.shape)
        for g, spec in enumerate(GROUPS):
            block = slice(OFFSETS[g], OFFSETS[g] + spec.size)
            if masks[:, block].any():
                out[:, block] = SCORERS[Group(g)](self.plan, seen).reshape(len(masks), -1)
        return out


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
def market_values(plan: Plan, seen: Seen, budget: np.ndarray) -> np.ndarray:
    """[B, part]: the best tile of each market's display, net of its price."""
    return best_from(seen.displays, net_tiles(plan, seen, budget))


def spies_values(plan: Plan, seen: Seen, a: np.ndarray, budget: np.ndarray) -> np.ndarray:
    """[B, spies space]: the best tile of any stack, net of its price and the space's cost."""
    found = [best_from(seen.stacks, net_tiles(plan, seen, budget - s)) for s in SPIES]
    return np.stack(found, axis=1).max(axis=2) - a[:, None] * SPIES


def tent_values(plan: Plan, seen: Seen, a: np.ndarray) -> np.ndarray:
    """[B, tent space]: two cards recruited (fewer from a short pile), less the cost."""
    return np.minimum(2, seen.draw_pile)[:, None] * plan.card - a[:, None] * TENT


def lights_value(plan: Plan, seen: Seen, a: np.ndarray) -> np.ndarray:
    """[B]: the cheaper lighted-window option: a window worth `plan.lighted` if one of the
    agent's windows is free for it, less 4 Asari."""
    lit = plan.lighted * (seen.free_windows().sum(axis=1) > 0)
    return lit - a * LIGHTS_OPTIONS[0][0]


def target_values(plan: Plan, seen: Seen) -> np.ndarray:
    """[B, target]: what the move of each placement target gives, its costs paid, plus the
    gifts on the chest space it would take (R9.2)."""
    a = asari_value(plan, seen)
    out = np.zeros((len(a), len(TARGET_AREA)))
    markets = np.flatnonzero(TARGET_AREA <= Area.MARKET_TURRET)
    out[:, markets] = market_values(plan, seen, seen.money)
    out[:, TARGET_AREA == Area.BUILDING] = build_values(plan, seen, a, seen.plot_cost())
    out[:, TARGET_AREA == Area.BANK] = a[:, None] * BANK
    out[:, TARGET_AREA == Area.SPIES] = spies_values(plan, seen, a, seen.money)
    caliph = np.where(seen.holds_caliph, 0.2 * plan.caliph, plan.caliph)
    out[:, TARGET_AREA == Area.CALIPH] = caliph[:, None]
    out[:, TARGET_AREA == Area.TENT] = tent_values(plan, seen, a)
    out[:, TARGET_AREA == Area.LIGHTS] = lights_value(plan, seen, a)[:, None]
    if seen.has_genie.any():
        out[:, TARGET_AREA == Area.GENIE] = genie_place_values(plan, seen, a)
    if seen.chest_gifts.any():
        chest = seen.target_chest()  # [B, target]
        worth = np.concatenate([chest_values(plan, seen, a), np.zeros((len(a), 1))], axis=1)
        out += np.take_along_axis(worth, chest, axis=1)  # chest -1 takes the zero column
    return out


def build_values(plan: Plan, seen: Seen, a: np.ndarray, plot: np.ndarray) -> np.ndarray:
    """[B, n = 1..7]: n tiles built paying plot[:, n - 1], with the complete towers the
    supply's base-turret pairs could add."""
    n = TARGET_BUILD_N[TARGET_AREA == Area.BUILDING].astype(np.float64)
    pairs = np.minimum(seen.in_supply(Part.BASE), seen.in_supply(Part.TURRET)).sum(axis=1)
    towers = np.minimum(pairs[:, None], n // 2)
    bonus = plan.new_tower * towers * seen.years_left[:, None]
    cost = np.minimum(plot, N_BUILD_MAX)
    return plan.build * n + bonus - a[:, None] * cost


# ------------------------------------------------------------------------------ expansions (R9)
def genie_move_values(plan: Plan, seen: Seen, a: np.ndarray, budget: np.ndarray) -> np.ndarray:
    """[B, genie move]: each move the Genie can carry out with `budget` Asari, valued as
    the placement target of that space (any occupancy; a build of n pays n), -inf where
    the agent could not carry it out (a build its supply does not allow, a cost above the
    budget)."""
    out = np.full((len(a), len(GENIE_MOVES)), -np.inf)
    markets = np.isin(GENIE_AREA, MARKET_AREAS)
    out[:, markets] = market_values(plan, seen, budget)
    n = np.arange(1, N_BUILD_MAX + 1)
    builds = build_values(plan, seen, a, np.broadcast_to(n, (len(a), len(n))))
    can = seen.build_sizes() & (n <= budget[:, None])
    out[:, GENIE_AREA == Area.BUILDING] = np.where(can, builds, -np.inf)
    out[:, GENIE_AREA == Area.BANK] = a[:, None] * BANK
    out[:, GENIE_AREA == -1] = (COLOURED_BUILDING_ASARI * a)[:, None]
    out[:, GENIE_AREA == Area.SPIES] = spies_values(plan, seen, a, budget)
    tent = np.where(budget[:, None] >= TENT, tent_values(plan, seen, a), -np.inf)
    out[:, GENIE_AREA == Area.TENT] = tent
    can = (budget >= LIGHTS_OPTIONS[0][0]) & (seen.lighted_stack > 0)
    out[:, GENIE_AREA == Area.LIGHTS] = np.where(can, lights_value(plan, seen, a), -np.inf)[:, None]
    return out


def genie_place_values(plan: Plan, seen: Seen, a: np.ndarray) -> np.ndarray:
    """[B, genie space]: the best tile move (GENIE_FOR_TILES) the Genie could then carry
    out, less the space's cost (R9.1)."""
    best = [
        genie_move_values(plan, seen, a, seen.money - c)[:, GENIE_FOR_TILES].max(axis=1)
        for c in GENIE_COSTS
    ]
    return np.stack(best, axis=1) - a[:, None] * GENIE_COSTS


def gift_values(plan: Plan, seen: Seen, a: np.ndarray) -> np.ndarray:
    """[B, gift kind]: one gift (R9.2): a card `plan.card` (if the pile has one), Asari at
    `asari_value`, +2 prestige at 2, a tile part the best affordable tile of that display
    net of its price (0 if none), a lighted window `plan.lighted` (if a window is free for
    it) less 4 Asari (0 if the agent cannot pay or the stack is empty)."""
    value = np.zeros((len(a), len(GIFT_EFFECTS)))
    effect = GIFT_EFFECTS
    value[:, effect == GiftEffect.CARD] = (plan.card * (seen.draw_pile > 0))[:, None]
    value[:, effect == GiftEffect.ASARI] = a[:, None] * GIFT_AMOUNTS[effect == GiftEffect.ASARI]
    value[:, effect == GiftEffect.PRESTIGE] = GIFT_AMOUNTS[effect == GiftEffect.PRESTIGE]
    tiles = market_values(plan, seen, seen.money)  # [B, part]
    value[:, effect == GiftEffect.BUY] = np.where(np.isfinite(tiles), tiles, 0.0)[
        :, GIFT_AMOUNTS[effect == GiftEffect.BUY]
    ]
    can = (seen.money >= LIGHTED_GIFT_COST) & (seen.lighted_stack > 0)
    lit = plan.lighted * (seen.free_windows().sum(axis=1) > 0) - a * LIGHTED_GIFT_COST
    value[:, effect == GiftEffect.LIGHTED] = np.where(can, lit, 0.0)[:, None]
    return value


def chest_values(plan: Plan, seen: Seen, a: np.ndarray) -> np.ndarray:
    """[B, chest]: all the gifts waiting on each chest space."""
    return np.einsum("bck,bk->bc", seen.chest_gifts, gift_values(plan, seen, a))


def score_genie(plan: Plan, seen: Seen) -> np.ndarray:
    a = asari_value(plan, seen)
    return genie_move_values(plan, seen, a, seen.money)


def score_gift_card(plan: Plan, seen: Seen) -> np.ndarray:
    """[B, card colour]: a colour required in more areas (it goes face up there), then the
    colour held most."""
    required = seen.area_colour.sum(axis=1)  # [B, card colour]
    return 0.1 * required + 0.02 * seen.hand


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
    Group.GENIE_MOVE: score_genie,
    Group.GIFT_CARD: score_gift_card,
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
