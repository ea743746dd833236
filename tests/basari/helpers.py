"""Hand-made BASARI positions and small drivers for the rule tests.

Numbers in the tests are written out as docs/basari/rules.md states them (not read from
asara_env.basari.constants), so a wrong constant makes a test fail.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import numpy as np

from asara_env.basari.actions import ActionLayout
from asara_env.basari.config import BasariConfig
from asara_env.basari.phases import Phase
from asara_env.basari.reference import State, legal_actions, step, violations

LAYOUT = ActionLayout(28)
NOOP = 0
DIE, POINTS, GEMS = 0, 1, 2
RED, YELLOW, GREEN, BLUE = 0, 1, 2, 3
CARD = {c: LAYOUT.card(c) for c in (DIE, POINTS, GEMS)}
ADD = {c: LAYOUT.add(c) for c in (RED, YELLOW, GREEN, BLUE)}
ACCEPT, FORFEIT, SUBMIT = LAYOUT.accept, LAYOUT.forfeit, LAYOUT.submit


def position(
    num_players: int = 3,
    seed: int = 0,
    start: Sequence[int] | None = None,
    progress: Sequence[int] | None = None,
    gems: Sequence[Sequence[int]] | None = None,
    score: Sequence[int] | None = None,
    round_: int = 0,
    turn: int = 0,
    config: BasariConfig | None = None,
) -> State:
    """A sound SELECT position: merchants `progress` archways past their `start` disks,
    gems moved between the carpets and the seats so that every colour still totals 25."""
    config = config or BasariConfig(num_players)
    p = config.num_players
    state = State.initial(config, seed)
    state.phase, state.round, state.turn = Phase.SELECT, round_, turn
    state.start = np.array(start if start is not None else range(p), np.int64)
    state.progress = np.array(progress if progress is not None else [turn + 1] * p, np.int64)
    state.position = (state.start + state.progress) % config.n_archways
    state.move_roll = np.minimum(state.progress - turn, 6).clip(min=1)
    if gems is not None:
        state.gems = np.array(gems, np.int64)
        state.carpet = 25 - state.gems.sum(axis=0)
    if score is not None:
        state.score = np.array(score, np.int64)
    broken = violations(state)
    assert not broken, broken
    return state


def play(state: State, *joints: Sequence[int]) -> State:
    """Step each joint action in turn; return the state."""
    for joint in joints:
        step(state, list(joint))
    return state


def barter(state: State, *moves: int) -> State:
    """Play barter decisions: each move by the seat to act, NOOP for everyone else."""
    for move in moves:
        joint = [NOOP] * state.num_players
        joint[state.to_act] = move
        step(state, joint)
    return state


def offer(state: State, bundle: Sequence[int]) -> State:
    """The seat to act builds `bundle` (counts per colour), red first, and submits it."""
    moves = [ADD[c] for c in range(4) for _ in range(bundle[c])]
    return barter(state, *moves, SUBMIT)


def legal(state: State, seat: int) -> set[int]:
    return {int(a) for a in np.flatnonzero(legal_actions(state, seat))}


def find_seed(pred: Callable[[int], bool], limit: int = 100_000) -> int:
    """The first seed for which `pred` holds."""
    for seed in range(limit):
        if pred(seed):
            return seed
    raise AssertionError("no seed found")


def random_joint(state: State, rng: np.random.Generator) -> list[int]:
    """A uniformly random legal action for every seat."""
    return [
        int(rng.choice(np.flatnonzero(legal_actions(state, s)))) for s in range(state.num_players)
    ]


CONFIGS = [BasariConfig(players, mode) for players in (2, 3, 4) for mode in ("choose", "random")]


def random_game(
    config: BasariConfig, seed: int, rng: np.random.Generator
) -> Iterator[tuple[State, list[int], State]]:
    """Yield (before, joint, after) for every step of a game of uniformly random legal
    actions; `before` is a copy, `after` the live state."""
    from asara_env.basari.reference import new_game

    state = new_game(config, seed)
    while state.phase != Phase.OVER:
        before = state.copy()
        joint = random_joint(state, rng)
        step(state, joint)
        yield before, joint, state


def e5_rewards(scores: np.ndarray, key: np.ndarray, reward: str) -> list[float]:
    """E5's rewards written out seat by seat."""
    n = len(scores)
    if reward == "win":
        best = key == key.max()
        return [1 / best.sum() if best[i] else 0.0 for i in range(n)]
    if reward == "rank":
        return [((key < key[i]).sum() - (key > key[i]).sum()) / (n - 1) for i in range(n)]
    return [(scores[i] - (scores.sum() - scores[i]) / (n - 1)) / 50 for i in range(n)]
