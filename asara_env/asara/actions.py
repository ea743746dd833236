"""The action space: one flat `Discrete(NUM_ACTIONS)` numbering shared by every engine.

The space is the same for every configuration; ids a configuration does not use are never
legal. Ids are laid out group by group (`GROUPS`), each group a dense block whose fields
are mixed-radix digits (last field fastest). `encode`/`decode` convert between ids and
(group, fields); `describe_action` names every id. `docs/asara/actions.md` is generated
from the same table (`make docs`).
"""

from __future__ import annotations

import bisect
import itertools
from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from asara_env.asara.constants import (
    CARD_NAMES,
    COLOUR_NAMES,
    LIGHTS_OPTIONS,
    MAX_TOWERS_PER_COLOUR,
    N_BUILD_MAX,
    N_CARD_COLOURS,
    N_GOLD,
    N_PARTS,
    N_TILE_COLOURS,
    PART_NAMES,
    SPACE_VALUES,
    Area,
)
from asara_env.common.errors import IllegalActionError
from asara_env.common.markdown import ActionGroupDoc, action_table, page, table


@dataclass(frozen=True)
class Target:
    """Where a placement puts the buyer. `arg` is the space index, or n for a build, or
    None where the area's spaces are interchangeable (the first vacant one is taken)."""

    area: Area
    arg: int | None
    name: str


def _targets() -> tuple[Target, ...]:
    markets = [Target(Area(p), None, f"the {PART_NAMES[p]}s market") for p in range(N_PARTS)]
    builds = [Target(Area.BUILDING, n, f"build {n}") for n in range(1, N_BUILD_MAX + 1)]

    def spaces(area: Area, label: str) -> list[Target]:
        return [Target(area, i, f"{label} {v}") for i, v in enumerate(SPACE_VALUES[area])]

    return tuple(
        markets
        + builds
        + spaces(Area.BANK, "bank")
        + spaces(Area.SPIES, "spies")
        + [Target(Area.CALIPH, 0, "the Caliph")]
        + spaces(Area.TENT, "tent")
        + [Target(Area.LIGHTS, None, "the lighted windows")]
        + spaces(Area.GENIE, "genie")
    )


TARGETS = _targets()

# A placement's cards: one face-up card of a colour, or a face-down pair (sorted colours).
CARD_OPTIONS: tuple[tuple[int, ...], ...] = tuple((b,) for b in range(N_CARD_COLOURS)) + tuple(
    itertools.combinations_with_replacement(range(N_CARD_COLOURS), 2)
)
MAX_PLACEMENT_CARDS = max(len(c) for c in CARD_OPTIONS)  # 2: the face-down pair


@dataclass(frozen=True)
class GenieMove:
    """The move the Bottle Genie carries out (R9.1): a space's move, never the Caliph's."""

    area: Area | None  # None = the coloured building
    arg: int | None  # space index, or n for a build
    name: str


def _genie_moves() -> tuple[GenieMove, ...]:
    moves = [GenieMove(t.area, t.arg, t.name) for t in TARGETS[: N_PARTS + N_BUILD_MAX]]
    for area, label in ((Area.BANK, "bank"),):
        moves += [GenieMove(area, i, f"{label} {v}") for i, v in enumerate(SPACE_VALUES[area])]
    moves.append(GenieMove(None, None, "the coloured building"))
    for area, label in ((Area.SPIES, "spies"), (Area.TENT, "tent")):
        moves += [GenieMove(area, i, f"{label} {v}") for i, v in enumerate(SPACE_VALUES[area])]
    moves.append(GenieMove(Area.LIGHTS, None, "the lighted windows"))
    return tuple(moves)


GENIE_MOVES = _genie_moves()


class Group(IntEnum):
    PLACE = 0
    PLACE_COLOURED = 1
    BUY = 2
    BRIBE_STACK = 3
    BRIBE_TAKE = 4
    BRIBE_NOTHING = 5
    LIGHTS_OPTION = 6
    LIGHTS_KEEP = 7
    BUILD_TILE = 8
    BUILD_LIGHTED = 9
    GENIE_MOVE = 10
    GIFT_CARD = 11


@dataclass(frozen=True)
class GroupSpec:
    group: Group
    fields: tuple[tuple[str, int], ...]  # (field name, radix), last field fastest
    meaning: str

    @property
    def size(self) -> int:
        size = 1
        for _, radix in self.fields:
            size *= radix
        return size


_TILE = (("part", N_PARTS), ("colour", N_TILE_COLOURS), ("gold", N_GOLD))
_SLOT = ("tower", MAX_TOWERS_PER_COLOUR)

GROUPS: tuple[GroupSpec, ...] = (
    GroupSpec(
        Group.PLACE,
        (("target", len(TARGETS)), ("cards", len(CARD_OPTIONS))),
        "placement on a space under the colour rule (R3): one face-up card or a face-down pair",
    ),
    GroupSpec(
        Group.PLACE_COLOURED,
        (("card", N_CARD_COLOURS),),
        "one card on the coloured building (R3.4)",
    ),
    GroupSpec(Group.BUY, _TILE, "buy this tile from the pending market's display (R4.1)"),
    GroupSpec(Group.BRIBE_STACK, (("part", N_PARTS),), "bribery: search this stack (R4.5)"),
    GroupSpec(Group.BRIBE_TAKE, _TILE, "bribery: take this tile from the searched stack"),
    GroupSpec(Group.BRIBE_NOTHING, (), "bribery: take nothing"),
    GroupSpec(
        Group.LIGHTS_OPTION,
        (("option", len(LIGHTS_OPTIONS)),),
        "lighted windows: pay 4 draw 3 keep 1, or pay 10 draw 5 keep 2 (R7.2)",
    ),
    GroupSpec(Group.LIGHTS_KEEP, (("colour", N_TILE_COLOURS),), "keep a drawn lighted window"),
    GroupSpec(
        Group.BUILD_TILE,
        _TILE + (_SLOT,),
        "build one supply tile onto tower #k of its colour (k = towers of that colour: new)",
    ),
    GroupSpec(
        Group.BUILD_LIGHTED,
        (("colour", N_TILE_COLOURS), _SLOT, ("over_gold", N_GOLD)),
        "build a lighted window onto a free (plain or gold) window of tower #k (R7.2)",
    ),
    GroupSpec(Group.GENIE_MOVE, (("move", len(GENIE_MOVES)),), "the Bottle Genie's move (R9.1)"),
    GroupSpec(Group.GIFT_CARD, (("card", N_CARD_COLOURS),), "gift: take a buyer card (R9.2)"),
)

OFFSETS: tuple[int, ...] = tuple(itertools.accumulate([0] + [g.size for g in GROUPS]))[:-1]
NUM_ACTIONS: int = sum(g.size for g in GROUPS)


def encode(group: Group, *fields: int) -> int:
    """The action id of `group` with the given field values."""
    spec = GROUPS[group]
    if len(fields) != len(spec.fields):
        raise ValueError(f"{group.name} takes fields {[n for n, _ in spec.fields]}, got {fields}")
    index = 0
    for value, (name, radix) in zip(fields, spec.fields):
        if not 0 <= value < radix:
            raise ValueError(f"{group.name}.{name} must be in [0, {radix}), got {value}")
        index = index * radix + int(value)
    return OFFSETS[group] + index


def decode(action: int) -> tuple[Group, tuple[int, ...]]:
    """(group, fields) of an action id; the inverse of `encode`."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action id {action} is outside [0, {NUM_ACTIONS})")
    group = Group(bisect.bisect_right(OFFSETS, action) - 1)
    index = action - OFFSETS[group]
    fields = []
    for _, radix in reversed(GROUPS[group].fields):
        index, digit = divmod(index, radix)
        fields.append(digit)
    return group, tuple(reversed(fields))


def tile_name(part: int, colour: int, gold: int) -> str:
    return f"{COLOUR_NAMES[colour]}{' gold' if gold else ''} {PART_NAMES[part]}"


def _cards_name(option: int) -> str:
    colours = CARD_OPTIONS[option]
    if len(colours) == 1:
        return CARD_NAMES[colours[0]]
    return "face-down " + "+".join(CARD_NAMES[b] for b in colours)


def _describe(group: Group, f: tuple[int, ...]) -> str:
    if group == Group.PLACE:
        return f"place {_cards_name(f[1])} on {TARGETS[f[0]].name}"
    if group == Group.PLACE_COLOURED:
        return f"place {CARD_NAMES[f[0]]} face down on the coloured building"
    if group == Group.BUY:
        return f"buy {tile_name(*f)}"
    if group == Group.BRIBE_STACK:
        return f"bribe: search the {PART_NAMES[f[0]]}s stack"
    if group == Group.BRIBE_TAKE:
        return f"bribe: take {tile_name(*f)}"
    if group == Group.BRIBE_NOTHING:
        return "bribe: take nothing"
    if group == Group.LIGHTS_OPTION:
        cost, drawn, kept = LIGHTS_OPTIONS[f[0]]
        return f"lighted windows: pay {cost}, draw {drawn}, keep {kept}"
    if group == Group.LIGHTS_KEEP:
        return f"keep a {COLOUR_NAMES[f[0]]} lighted window"
    if group == Group.BUILD_TILE:
        part, colour, gold, slot = f
        return f"build: {tile_name(part, colour, gold)} on {COLOUR_NAMES[colour]} tower #{slot + 1}"
    if group == Group.BUILD_LIGHTED:
        colour, slot, over_gold = f
        under = "gold" if over_gold else "plain"
        return (
            f"build: {COLOUR_NAMES[colour]} lighted window on {COLOUR_NAMES[colour]} tower "
            f"#{slot + 1} over a {under} window"
        )
    if group == Group.GENIE_MOVE:
        return f"genie: {GENIE_MOVES[f[0]].name}"
    return f"gift: take a {CARD_NAMES[f[0]]} buyer card"


def describe_action(action: int) -> str:
    """A human-readable name of an action id, e.g. 'place blue on bank 12'."""
    return _describe(*decode(action))


def layout_markdown() -> str:
    """docs/asara/actions.md, generated from `GROUPS`."""
    intro = [
        "# Action space",
        "",
        f"One flat `Discrete({NUM_ACTIONS})` space for every configuration. Generated by",
        "`python -m asara_env.docs` (`make docs`); do not edit by hand.",
    ]
    groups = [
        ActionGroupDoc(
            spec.group.name,
            OFFSETS[spec.group],
            spec.size,
            ", ".join(f"{n}[{r}]" for n, r in spec.fields) or "-",
            spec.meaning,
            describe_action(OFFSETS[spec.group]),
        )
        for spec in GROUPS
    ]
    targets = [(i, t.area.name, t.name) for i, t in enumerate(TARGETS)]
    cards = [(i, _cards_name(i)) for i in range(len(CARD_OPTIONS))]
    moves = [(i, m.name) for i, m in enumerate(GENIE_MOVES)]
    return page(
        intro,
        action_table(groups),
        "## Placement targets",
        table(("target", "area", "name"), targets),
        "## Placement cards",
        table(("cards", "meaning"), cards),
        "## Genie moves",
        table(("move", "name"), moves),
    )


def public_description(action: int, mover: int, viewer: int) -> str:
    """The move's name as `viewer` may know it (R10.2): another seat's face-down cards,
    the lighted windows it keeps and the buyer card it takes as a gift stay hidden."""
    if mover == viewer:
        return describe_action(action)
    group, f = decode(action)
    if group == Group.PLACE and len(CARD_OPTIONS[f[1]]) > 1:
        return f"place two face-down cards on {TARGETS[f[0]].name}"
    if group == Group.PLACE_COLOURED:
        return "place a face-down card on the coloured building"
    if group == Group.LIGHTS_KEEP:
        return "keep a lighted window"
    if group == Group.GIFT_CARD:
        return "gift: take a buyer card"
    return describe_action(action)


def as_int(action: object) -> int:
    """`action` (an int, numpy integer or 0-d integer array) as a plain int;
    IllegalActionError if it is anything else."""
    if isinstance(action, np.ndarray) and action.ndim == 0:
        action = action[()]
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise IllegalActionError(
            -1, action, "?", "-", f"an action id must be an int, got {type(action).__name__}"
        )
    return int(action)


def action_id(action: object) -> int:
    """`action` as a plain int id; IllegalActionError if it is not an int in range."""
    action = as_int(action)
    if not 0 <= action < NUM_ACTIONS:
        raise IllegalActionError(-1, int(action), "?", "-", f"action ids are 0..{NUM_ACTIONS - 1}")
    return int(action)


# ------------------------------------------------------------------------------ placement (R3)
