"""What every part of a search reads and counts: the game, the settings, the generator,
the network, the playout policies and the work done (`SearchContext`), and the budget's
schedule (`waves`, `batches`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import numpy as np

from .base import Evaluate, Settings
from .game import SearchGame


class SearchContext:
    """A search over one game. `evaluate`: the network, used for the priors with `prior`
    and for the leaf values with `value_net`. `seed` seeds the search's generator and its
    playout policy."""

    def __init__(
        self,
        game: SearchGame,
        settings: Settings,
        seed: int | None = None,
        evaluate: Evaluate | None = None,
        prior: bool = False,
        value_net: bool = False,
    ) -> None:
        if (prior or value_net) and evaluate is None:
            raise ValueError("a network (evaluate) is needed for prior or value=net")
        self.game, self.settings = game, settings
        self.evaluate, self.prior, self.value_net = evaluate, prior, value_net
        if not value_net:
            game.check_scheme(settings.value)
        self.rng = np.random.default_rng(seed)
        self.clock: Callable[[], float] = time.perf_counter  # what `seconds` is read from
        playout_seed = (
            None if seed is None else int(np.random.SeedSequence([seed, 1]).generate_state(1)[0])
        )
        self.policy = game.playout(settings.playout, playout_seed)
        self.mixture = [
            game.playout(name, None if playout_seed is None else playout_seed + 1 + k)
            for k, (name, _) in enumerate(settings.opponents)
        ]
        weights = np.array([w for _, w in settings.opponents], np.float64)
        self.weights = weights / weights.sum() if len(weights) else weights
        self.iterations = 0  # iterations (or flat playouts) run so far
        self.tree_steps = 0  # worlds stepped inside the trees
        self.playout_steps = 0  # worlds stepped in playouts
        self.searches = 0  # decisions searched (more than one legal action)

    def waves(self) -> Iterator[int]:
        """The iterations per decision of each wave: `sims` in waves of `wave` (the last
        one smaller), or with `seconds` waves of `wave` until the time is spent (at least
        one)."""
        s = self.settings
        if s.seconds is None:
            for done in range(0, s.sims, s.wave):
                yield min(s.wave, s.sims - done)
            return
        start = self.clock()
        yield s.wave
        while self.clock() - start < s.seconds:
            yield s.wave

    def batches(self, n: int) -> Iterator[slice]:
        """`n` worlds in core batches of at most `batch`."""
        for lo in range(0, n, self.settings.batch):
            yield slice(lo, lo + self.settings.batch)
