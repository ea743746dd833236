"""Play BASARI agents against each other on the batched core, and measure their barters.

`play_batch(config, agents, seating, seeds, batch_size, bar, stats)` plays G games B at a
time (the shared loop, agents/arena.py); `seating[g, s]` is the index (into `agents`) of
the agent in seat s of game g. Every
step every seat of every live game acts: each agent is asked once, for all the (game, seat)
pairs it sits in that have a real decision, in game then seat order; a seat without a
decision sends NOOP. Agents draw their random numbers in that order, so results depend on
`batch_size` (and not on anything else).

`NegotiationStats` is filled from the core's state before and after each step (no agent
reports anything): per agent, barters played and won (by an accepted offer of its own or
by the opener's forfeit), gems paid and received, offers made, offers and steps per barter,
and its card picks that were contested (2+ seats) and cancelled (3+ seats, B5.2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from agents import arena
from asara_env.basari.actions import ActionLayout
from asara_env.basari.config import BasariConfig
from asara_env.basari.constants import N_CARDS
from asara_env.basari.core import BasariState, scores
from asara_env.basari.phases import Phase
from asara_env.common.opponents import Actor
from asara_env.games import CoreVerbs, bind_core

BasariPlayer = Actor  # what a BASARI seat needs of its agent: `act_batch` (an Agent[object])

COUNTERS = (
    "picks",  # cards played at SELECT
    "contested",  # picks whose card 2+ seats played
    "cancelled",  # picks whose card 3+ seats played (B5.2)
    "barters",  # barters taken part in
    "opened",  # barters taken part in as the opener
    "won",  # barters won (own offer accepted, or the opener forfeited)
    "won_by_forfeit",  # of them, won because the other party (the opener) forfeited
    "forfeits",  # own forfeits as opener
    "gems_paid",  # gems given in the barters won
    "gems_received",  # gems received for barters lost by accepting
    "offers_made",  # offers submitted
    "barter_offers",  # offers in the barters taken part in (both parties)
    "barter_steps",  # steps of the barters taken part in (every ADD/SUBMIT/ACCEPT/FORFEIT)
    "games",  # seats played
    "points",  # final points of the seats played
)


@dataclass
class NegotiationStats:
    """Counters per agent index (float64[K] each, see COUNTERS)."""

    num_agents: int
    counts: dict[str, np.ndarray] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in COUNTERS:
            self.counts.setdefault(name, np.zeros(self.num_agents))

    def add(self, name: str, agent_index: ArrayLike, amount: ArrayLike = 1.0) -> None:
        np.add.at(self.counts[name], np.asarray(agent_index, np.int64), amount)

    def rows(self, names: list[str]) -> list[dict[str, Any]]:
        """One dict per agent: counts and the derived rates (NaN where undefined)."""
        c = self.counts

        def ratio(a: str, b: str, k: int) -> float:
            return float(c[a][k] / c[b][k]) if c[b][k] else float("nan")

        return [
            {
                "agent": name,
                **{key: float(c[key][k]) for key in COUNTERS},
                "barter_win_rate": ratio("won", "barters", k),
                "gems_paid_per_win": ratio("gems_paid", "won", k),
                "contested_rate": ratio("contested", "picks", k),
                "cancel_rate": ratio("cancelled", "contested", k),
                "offers_per_barter": ratio("barter_offers", "barters", k),
                "steps_per_barter": ratio("barter_steps", "barters", k),
                "mean_points": ratio("points", "games", k),
            }
            for k, name in enumerate(names)
        ]


class _Recorder:
    """Follows one batch's barters from the state transitions into `stats`."""

    def __init__(self, state: BasariState, seating: np.ndarray, stats: NegotiationStats):
        self.seating, self.stats = seating, stats
        self.steps = np.zeros(state.batch, np.int64)  # steps of the running barter

    def before(self, state: BasariState, actions: NDArray[np.int64]) -> None:
        """Record the step about to be applied."""
        g = np.flatnonzero(state.phase == Phase.SELECT)
        if g.size:
            self._cards(state, g, actions[g])
        g = np.flatnonzero(state.phase == Phase.BARTER)
        if g.size:
            self._barter(state, g, actions[g, state.to_act[g]], state.config.actions)

    def _cards(self, state: BasariState, g: np.ndarray, actions: np.ndarray) -> None:
        cards = actions - state.config.actions.card(0)  # [n, P]
        count = (cards[:, :, None] == np.arange(N_CARDS)).sum(axis=1)  # [n, card]
        mine = np.take_along_axis(count, cards, axis=1)  # [n, P]
        who = self.seating[g]
        self.stats.add("picks", who.ravel())
        self.stats.add("contested", who[mine >= 2])
        self.stats.add("cancelled", who[mine >= 3])

    def _barter(
        self, state: BasariState, g: np.ndarray, choice: np.ndarray, lay: ActionLayout
    ) -> None:
        """Record the barter step of games `g`, whose acting seats chose `choice`."""
        self.steps[g] += 1
        actor = state.to_act[g].astype(np.int64)
        self.stats.add("offers_made", self.seating[g, actor][choice == lay.submit])
        end = (choice == lay.accept) | (choice == lay.forfeit)
        if not end.any():
            return
        g, choice, actor = g[end], choice[end], actor[end]
        opener, responder = state.opener[g].astype(np.int64), state.responder[g].astype(np.int64)
        a, b = self.seating[g, opener], self.seating[g, responder]
        offers = state.offers[g].astype(float)
        for who in (a, b):
            self.stats.add("barters", who)
            self.stats.add("barter_offers", who, offers)
            self.stats.add("barter_steps", who, self.steps[g].astype(float))
        self.stats.add("opened", a)
        forfeit = choice == lay.forfeit
        self.stats.add("forfeits", a[forfeit])
        self.stats.add("won", b[forfeit])
        self.stats.add("won_by_forfeit", b[forfeit])
        acc = ~forfeit
        winner = self.seating[g, state.offer_by[g].astype(np.int64)]
        paid = state.offer[g].sum(axis=1).astype(float)
        self.stats.add("won", winner[acc])
        self.stats.add("gems_paid", winner[acc], paid[acc])
        self.stats.add("gems_received", self.seating[g, actor][acc], paid[acc])
        self.steps[g] = 0

    def finish(self, state: BasariState) -> None:
        self.stats.add("games", self.seating.ravel())
        self.stats.add("points", self.seating.ravel(), state.score.ravel().astype(float))


def play_chunk(
    config: BasariConfig,
    agents: Sequence[BasariPlayer],
    seating: ArrayLike,
    seeds: ArrayLike,
    stats: NegotiationStats | None = None,
    backend: CoreVerbs | str | None = None,
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """(ranking score int64[B, P], points int64[B, P]) of games seeded `seeds` played in
    one batch (the ranking score orders seats by B10: points, then the gem tie-breaks) on
    the core's `backend` ("numpy", "numba", None: the default, or the verbs bound by
    `asara_env.games.load_core`; the games are the same)."""
    core = bind_core("basari", backend)
    state = core.init(config, len(np.asarray(seeds)), seeds=np.asarray(seeds, np.uint64))
    table = np.asarray(seating, np.int64)
    recorder = None if stats is None else _Recorder(state, table, stats)
    while (state.phase != Phase.OVER).any():
        actions = choose(state, agents, table, core)
        if recorder is not None:
            recorder.before(state, actions)
        core.step(state, actions)
    if recorder is not None:
        recorder.finish(state)
    return scores(state), state.score.astype(np.int64)


def choose(
    state: BasariState,
    agents: Sequence[BasariPlayer],
    seating: NDArray[np.int64],
    backend: CoreVerbs | str | None = None,
) -> NDArray[np.int64]:
    """int64[B, P]: every seat's action: its agent's where it has a decision, else NOOP
    (the observations made by `backend`: the core's verbs, or its backend's name)."""
    legal = state.legal
    deciding = legal[:, :, 1:].any(axis=2)  # more than NOOP
    actions = np.zeros(legal.shape[:2], np.int64)
    if not deciding.any():
        return actions
    obs = bind_core("basari", backend).observe(state)
    for k, agent in enumerate(agents):
        g, s = np.nonzero(deciding & (seating == k))
        if g.size:
            actions[g, s] = agent.act_batch(obs[g, s], legal[g, s])
    return actions


def _ranking(
    config: BasariConfig,
    stats: NegotiationStats | None,
    backend: str | None,
    agents: Sequence[BasariPlayer],
    seating: NDArray[np.int64],
    seeds: NDArray[np.uint64],
) -> NDArray[np.int64]:
    return play_chunk(config, agents, seating, seeds, stats, backend)[0]


def play_batch(
    config: BasariConfig,
    agents: Sequence[BasariPlayer],
    seating: ArrayLike,
    seeds: ArrayLike,
    batch_size: int = 256,
    progress: bool | arena.ProgressBar | None = False,
    stats: NegotiationStats | None = None,
    backend: str | None = None,
) -> NDArray[np.int64]:
    """int64[G, P]: the B10 ranking score of G games (higher is better, ties already
    broken by the gem keys), game g seeded `seeds[g]` with `agents[seating[g, s]]` in seat
    s. `progress`: True for a tqdm bar, or a bar to advance by one per game. `stats`
    (optional) collects the negotiation figures. `backend`: the core's ("numpy", "numba",
    None: the default); the games are the same on both."""
    chunk = partial(_ranking, config, stats, backend)
    players = config.num_players
    return arena.play_batch(chunk, agents, seating, seeds, players, batch_size, progress)
