"""BASARI's baseline agents (docs/basari/rules.md E6): observation and mask in, action id out.

Every agent draws exactly one double of its own generator per decision, so `act_batch` on
B rows returns what B calls of `act` in row order would, and an agent is deterministic
given its seed. Offers are chosen as a whole bundle when the barter decision starts and
emitted one `ADD` per gem, red first, then `SUBMIT`; the target is recomputed from the
observation at every step (nothing in it changes while a bundle is built but the bundle
itself), so the agents keep no state between calls.

- `random`: uniform over the legal ids (the shared `agents.base.RandomAgent`; a started
  bundle grows until SUBMIT is drawn, so it tends to make large offers).
- `points_first`: values points. Cards: Points, or Gemstones when the archway gives at
  least 3 gems after the carpet cap. As opener, one gem of its lowest colour (forfeit with
  none); facing an offer, accepts 2 gems or more, else makes the minimal raise (accepts if
  it cannot).
- `value`: values points, gem majorities and the lap (E6; see `valuation.py`) and plays
  the card it values most, or 10% of the time a uniform card (E6; without it, copies of
  `value` collide on one card so often that one `random` seat won 36% of 4-player games
  against three of them). In barters its reservation price is its value of the card; it
  opens with its cheapest single gem, accepts an offer worth its reservation, and
  otherwise raises as people do: by a whole gem over the standing offer's count (its
  cheapest such bundle), a same-count raise only when no bigger bundle is affordable, and
  accepts when no raise costs at most its reservation. A gem's flat value is 2 / (P - 1)^2
  (E6 says 1; see `gem_flat_value`). Start archways: uniform (the die decides the rest).
- `value_l1`: `value` with E6's level-1 card choice as written (each opponent predicted to
  play the card it values most; a card one opponent is predicted on counts half, one two
  are on nothing; 10% a uniform card). Measured weaker than `value` (docs/performance.md),
  because the baselines it meets do not play as it predicts, and it loses the barters it
  avoids.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from agents.base import Actions, Agent, Masks, Observations, uniform
from asara_env.basari.actions import ActionLayout
from asara_env.basari.constants import N_CARDS, N_COLOURS, Card
from asara_env.basari.phases import Phase

from .valuation import (
    BUNDLE_KEYS,
    BUNDLE_SIZES,
    BUNDLES,
    bundle_key,
    card_values,
    fitting,
    gem_flat_value,
    gems_taken,
    give_cost,
    majority_delta,
    receive_gain,
)
from .view import View

RANDOM_CARD_RATE = 0.1  # E6 [assumed]: `value` and `value_l1` play a uniform card this often
ACCEPT_PLAN, FORFEIT_PLAN = -1, -2  # plan codes besides "offer bundle BUNDLES[i]" (i >= 0)


class BasariAgent(Agent[object]):
    """Base of BASARI's baselines: `decide(view, masks, u)` on the decoded observations
    (`View`), one uniform double per row; an id the plan makes illegal becomes a uniform
    legal one."""

    def choose(self, observations: Observations, masks: Masks, u: NDArray[np.float64]) -> Actions:
        out = self.decide(View.of(observations), masks, u)
        bad = ~masks[np.arange(len(masks)), out]
        out[bad] = uniform(masks[bad], u[bad])  # never illegal
        return out

    def decide(self, view: View, masks: Masks, u: NDArray[np.float64]) -> Actions:
        raise NotImplementedError


class _Heuristic(BasariAgent):
    """Cards by `cards`, barters by `plans` (a bundle index into BUNDLES, ACCEPT_PLAN or
    FORFEIT_PLAN per acting row), start archways uniform."""

    def decide(self, view: View, masks: np.ndarray, u: np.ndarray) -> np.ndarray:
        lay = ActionLayout(view.n_archways)
        out = uniform(masks, u)  # SETUP, and anything not decided below
        select = np.flatnonzero(view.phase == Phase.SELECT)
        if select.size:
            out[select] = lay.card(0) + self.cards(_rows(view, select), u[select])
        acting = np.flatnonzero((view.phase == Phase.BARTER) & view.to_act[:, 0])
        if acting.size:
            sub = _rows(view, acting)
            out[acting] = emit(lay, sub, self.plans(sub))
        return out

    def cards(self, view: View, u: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def plans(self, view: View) -> np.ndarray:
        raise NotImplementedError


class PointsFirstAgent(_Heuristic):
    """Points first: the Points card unless the archway gives 3+ gems (then Gemstones);
    opens with one gem of its lowest colour, accepts 2+ gems, else the minimal raise."""

    name = "points_first"

    def cards(self, view: View, u: np.ndarray) -> np.ndarray:
        rich = gems_taken(view)[:, 0].sum(axis=1) >= 3
        return np.where(rich, int(Card.GEMS), int(Card.POINTS))

    def plans(self, view: View) -> np.ndarray:
        held = view.gems[:, 0]
        fits = fitting(held, BUNDLES)  # [R, M]
        opener = ~view.offer_exists
        key = bundle_key(view.offer)
        raise_ = fits & (BUNDLE_KEYS[None] > key[:, None])
        lowest_raise = np.where(raise_.any(1), np.argmax(raise_, 1), ACCEPT_PLAN)
        lowest_single = np.where(fits.any(1), np.argmax(fits, 1), FORFEIT_PLAN)
        facing = np.where(view.offer.sum(1) >= 2, ACCEPT_PLAN, lowest_raise)
        return np.where(opener, lowest_single, facing)


class ValueAgent(_Heuristic):
    """E6 valuation of cards, gems and majorities; plays the card it values most (10% a
    uniform card, so that copies of it do not all collide on one card); a
    reservation price in barters, raising by whole gems (see the module docstring)."""

    name = "value"

    def cards(self, view: View, u: np.ndarray) -> np.ndarray:
        best = np.argmax(card_values(view)[:, 0], axis=1)  # ties: Die, then Points
        return np.where(u < RANDOM_CARD_RATE, (u / RANDOM_CARD_RATE * N_CARDS).astype(int), best)

    def plans(self, view: View) -> np.ndarray:
        m = majority_delta(view)[:, 0]  # [R, 4, D]: my majority changes
        r = np.take_along_axis(card_values(view)[:, 0], view.barter_card[:, None], 1)[:, 0]
        flat = gem_flat_value(view)
        cost = np.where(fitting(view.gems[:, 0], BUNDLES), give_cost(m, BUNDLES, flat), np.inf)
        afford = cost <= r[:, None]  # [R, M]
        size = view.offer.sum(1)
        one_gem = afford & (BUNDLE_SIZES[None] == 1)
        bigger = afford & (BUNDLE_SIZES[None] == size[:, None] + 1)
        same = afford & (BUNDLE_SIZES[None] == size[:, None])
        same &= BUNDLE_KEYS[None] > bundle_key(view.offer)[:, None]
        plan = np.full(len(r), ACCEPT_PLAN, np.int64)
        for pool in (same, bigger):  # a whole gem more wins over a same-count raise
            has = pool.any(1)
            plan[has] = _cheapest(cost, pool)[has]
        plan[receive_gain(m, view.offer, flat) >= r] = ACCEPT_PLAN
        open_plan = np.where(one_gem.any(1), _cheapest(cost, one_gem), FORFEIT_PLAN)
        return np.where(view.offer_exists, plan, open_plan)


class ValueL1Agent(ValueAgent):
    """`value` with E6's level-1 card choice as written: predicts each opponent's card as
    the one it values most, halves a card one opponent is predicted on and drops one two
    or more are on, plays the best (ties to Die first), a uniform card 10% of the time."""

    name = "value_l1"

    def cards(self, view: View, u: np.ndarray) -> np.ndarray:
        v = card_values(view)  # [R, S, 3]
        predicted = np.argmax(v[:, 1:], axis=2)  # the opponents' cards (ties: lower index)
        on_card = (predicted[:, :, None] == np.arange(N_CARDS)) & view.present[:, 1:, None]
        crowd = on_card.sum(axis=1)  # [R, 3]
        expected = v[:, 0] * np.select([crowd == 0, crowd == 1], [1.0, 0.5], 0.0)
        wild = u < RANDOM_CARD_RATE
        best = np.argmax(expected, axis=1)
        return np.where(wild, (u / RANDOM_CARD_RATE * N_CARDS).astype(np.int64), best)


def _cheapest(cost: np.ndarray, pool: np.ndarray) -> np.ndarray:
    """int64[R]: the index of the cheapest bundle in `pool` (ties: lowest in B8)."""
    return np.argmin(np.where(pool, cost, np.inf), axis=1)


def _rows(view: View, rows: np.ndarray) -> View:
    """The sub-batch `rows` of a view."""
    fields = {k: (v[rows] if isinstance(v, np.ndarray) else v) for k, v in view.__dict__.items()}
    return View(**fields)


def emit(lay: ActionLayout, view: View, plans: np.ndarray) -> np.ndarray:
    """int64[R]: the next id of each acting row's plan: ACCEPT, FORFEIT, or the next gem
    of the planned bundle (red first), then SUBMIT once the bundle is built. A bundle
    already started that the plan does not extend is finished by SUBMIT if legal, else by
    its first addable colour (the mask check in `act_batch` keeps it legal)."""
    target = BUNDLES[np.maximum(plans, 0)]
    pending = view.pending
    started = pending.any(1)
    missing = target - pending
    consistent = (plans >= 0) & (missing >= 0).all(1)
    colour = np.argmax(missing > 0, axis=1)
    build = np.where(missing.any(1), lay.add(0) + colour, lay.submit)
    out = np.where(
        plans == ACCEPT_PLAN, lay.accept, np.where(plans == FORFEIT_PLAN, lay.forfeit, build)
    )
    beyond = started & ~consistent
    held = view.gems[:, 0]
    first_add = lay.add(0) + np.argmax(held > pending, axis=1)
    over = bundle_key(pending) > bundle_key(view.offer)
    out[beyond] = np.where(over[beyond], lay.submit, first_add[beyond])
    return out.astype(np.int64)


assert N_COLOURS == 4
