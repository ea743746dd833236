"""The edges of ASARA's information-set trees: what another seat can tell of a move.

A seat sees its own moves as they are, another seat's as `public_description` (R10.2)
says: two face-down cards on a space, a face-down card on the coloured building, the
lighted window kept, the buyer card taken as a gift are one edge each whatever the hidden
cards or colour. `PUBLIC_KEY` names each such edge by the smallest action id with the
same public description (`agents.asara.ismcts`, its compiled tree
`agents.asara.ismcts_compiled`, the search verbs)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from asara_env.asara.actions import NUM_ACTIONS, public_description


def _public_keys() -> NDArray[np.int64]:
    """int64[NUM_ACTIONS]: per action id, the smallest id whose move another seat cannot
    tell from it (the same `public_description`)."""
    first: dict[str, int] = {}
    names = (public_description(a, 0, 1) for a in range(NUM_ACTIONS))
    return np.array([first.setdefault(name, a) for a, name in enumerate(names)], np.int64)


PUBLIC_KEY = _public_keys()
