"""The saved-game mutations every game's fuzzing battery draws from: one random change to
a JSON-compatible save (tests/asara/fuzzing.py, tests/basari/fuzzing.py give the saves and
the values to try)."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

KINDS = ("int", "nudge", "type", "delete", "add_key", "shorten", "extend", "swap", "splice")


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every node under `node` (itself included)."""
    out = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out += paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += paths(value, (*prefix, i))
    return out


def get_at(d: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        d = d[key]
    return d


def mutate(
    draw: st.DrawFn,
    saves: Sequence[dict[str, Any]],
    ints: st.SearchStrategy[Any],
    wrong_types: st.SearchStrategy[Any],
) -> dict[str, Any]:
    """One of `saves` with one random change: a changed (from `ints`) or nudged int, a wrong
    type (from `wrong_types`), a key deleted or added, a list shortened, extended, reordered
    or made ragged, or a field taken from another of `saves`."""
    saved = copy.deepcopy(saves[draw(st.integers(0, len(saves) - 1))])
    key = draw(st.sampled_from(sorted(saved)))
    path = draw(st.sampled_from(paths(saved[key], (key,))))
    parent, last = get_at(saved, path[:-1]), path[-1]
    value = parent[last]
    kind = draw(st.sampled_from(KINDS))
    if kind == "int":
        parent[last] = draw(ints)
    elif kind == "nudge" and isinstance(value, int) and not isinstance(value, bool):
        parent[last] = value + draw(st.sampled_from([-1, 1]))
    elif kind == "type":
        parent[last] = draw(wrong_types)
    elif kind == "delete":
        del parent[last]
    elif kind == "add_key" and isinstance(value, dict):
        value[draw(st.sampled_from(["extra", "Seat", "comment"]))] = draw(ints)
    elif kind == "shorten" and isinstance(value, list) and value:
        del value[draw(st.integers(0, len(value) - 1))]
    elif kind == "extend" and isinstance(value, list) and value:
        value.append(copy.deepcopy(value[draw(st.integers(0, len(value) - 1))]))
    elif kind == "swap" and isinstance(value, list) and len(value) > 1:
        i, j = draw(st.lists(st.integers(0, len(value) - 1), min_size=2, max_size=2, unique=True))
        value[i], value[j] = value[j], value[i]
    elif kind == "splice":
        other = saves[draw(st.integers(0, len(saves) - 1))]
        try:
            parent[last] = copy.deepcopy(get_at(other, path))
        except (KeyError, IndexError, TypeError):
            parent[last] = draw(ints)
    else:
        parent[last] = draw(st.one_of(ints, wrong_types))
    return saved
