"""The test game is searched through its card alone: it has no search code, its agents
table gives no search verbs, and every search agent of the registry plays it, with the
options every game's search takes."""

from __future__ import annotations

import numpy as np
import pytest

from agents.registry import check_spec
from agents.search.agent import shared_kinds
from agents.search.game import SearchGame
from agents.search.gumbel import gumbel_search
from asara_env.common.sampling import uniform_legal
from tests.common.test_search import search_agent


def test_toygame_gets_search_through_its_card_alone(toygame_registered):
    """The test game has no search code: its agents table gives no verbs, the registry still
    builds every search agent, and they play whole games."""
    from tests.toygame import core as toy

    for spec in ("ismcts:16", "gumbel:16", "flatmc:16"):
        agent = search_agent("toygame", spec, 1)
        state = toy.init(toy.ToyConfig(3), 2, seeds=4)
        rng = np.random.default_rng(0)
        while not toy.is_terminal(state).all():
            mask = toy.legal_action_mask(state)
            actions = uniform_legal(
                mask.reshape(-1, mask.shape[2]) | ~mask.any(axis=2).reshape(-1, 1), rng.random(6)
            ).reshape(2, 3)
            live = np.flatnonzero(~toy.is_terminal(state))
            actions[live, 0] = agent.act_seats(state, live, np.zeros(len(live), np.int64))
            assert mask[live, 0, actions[live, 0]].all()
            toy.step(state, actions)
        assert agent.searches > 0


def test_gumbel_root_moves_the_policy_towards_the_better_action(toygame_registered):
    """Toy: with a flat prior, the improved policy puts more mass on the bid that wins the
    last round's prize than on bidding nothing."""
    from tests.toygame import core as toy

    state = toy.init(toy.ToyConfig(2), 1, seeds=0)
    for _ in range(7):  # to the last round, both seats bidding nothing
        toy.step(state, np.zeros((1, 2), np.int64))
    assert toy.legal_action_mask(state)[0, 0].sum() > 1

    def flat(obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.zeros(masks.shape), np.full(len(obs), 0.5)

    d = gumbel_search(
        SearchGame("toygame"), state, np.array([0]), flat, simulations=64, rng=0, value_net=False
    )
    assert d.policies[0, 0] < d.policies[0, 1:].max()
    assert d.actions[0] != 0


@pytest.mark.parametrize("kind", ["flatmc", "ismcts", "gumbel"])
def test_every_games_shared_search_takes_the_same_options(toygame_registered, kind):
    """One option table for every game's search: the same keys, the same answers."""
    tables = {game: shared_kinds(game)[kind].options for game in ("basari", toygame_registered)}
    assert len({tuple(sorted(t)) for t in tables.values()}) == 1
    errors = set()
    for game in tables:
        for spec in (f"{kind}:widen=0", f"{kind}:batch=0", f"{kind}:expand=first"):
            try:
                check_spec(game, spec)
            except ValueError as e:
                errors.add((spec, str(e).replace(game, "GAME")))
    assert len(errors) == 3
