"""BASARI's verbs for the shared search (`agents.search`), given on its agents table: the
determinisation of what a seat cannot see (`asara_env.basari.hidden.determinise`: the
seed of the chance to come, another seat's bundle in progress) and what the other seats
see of a move (an ADD of a gem to a bundle: that a gem was added, not its colour). The
playouts are the shared ones: `random`, or any baseline asked on the observations.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from agents.search.verbs import SearchVerbs
from asara_env.basari.actions import Group
from asara_env.basari.bridge import from_reference
from asara_env.basari.config import BasariConfig
from asara_env.basari.constants import N_COLOURS
from asara_env.basari.core import BasariState
from asara_env.basari.hidden import determinise
from asara_env.basari.reference.state import State


def public_key(config: BasariConfig, actions: NDArray[np.int64]) -> NDArray[np.int64]:
    """Every ADD(colour) id as ADD(red): the other seats see a gem added, not which."""
    first = config.actions.offset(Group.ADD)
    adding = (actions >= first) & (actions < first + N_COLOURS)
    return np.where(adding, first, actions)


def one_game(state: State) -> BasariState:
    """A reference game as a one-game core batch."""
    return from_reference([state])


VERBS = SearchVerbs(determinise=determinise, public_key=public_key, from_reference=one_game)
