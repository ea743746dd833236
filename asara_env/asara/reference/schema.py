"""The saved-game format, defined once as a pydantic schema.

`SavedState` (version 2) and `SavedStateV1` (before the gifts) check every field's type,
range and length and refuse unknown keys; `docs/asara/state.md` and
`docs/asara/state.schema.json` are generated from them (`python -m asara_env.docs`, with
the shared helpers of `asara_env.common.schema` and `asara_env.common.markdown`). Every
integer is bounded, so no value can wrap in the core's int8/int16/int32 arrays. What
depends on the number of players P (lengths, seats below P) and the rules' invariants are
checked afterwards, in `serialize.state_from_dict`. `error_text` turns a pydantic error
into one sentence naming the field path (`towers[1][3][0].parts[2][1]: 9 is above the
maximum 5`).
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    Strict,
    TypeAdapter,
    ValidationError,
    create_model,
)

from asara_env.asara.actions import TARGETS
from asara_env.asara.constants import (
    CARDS_PER_COLOUR,
    COLOUR_NAMES,
    GIFT_SLOTS,
    KNOWN_EXPANSIONS,
    LIGHTED_PER_COLOUR,
    LIGHTS_OPTIONS,
    MAX_LIGHTS_DRAWN,
    MAX_PLAYERS,
    MAX_TOWERS_PER_COLOUR,
    MIN_PLAYERS,
    N_AREAS,
    N_BUILD_MAX,
    N_CARD_COLOURS,
    N_CARDS,
    N_CHESTS,
    N_GIFT_KINDS,
    N_GOLD,
    N_LIGHTED,
    N_PARTS,
    N_TILE_COLOURS,
    N_YEARS,
    SPACE_VALUES,
    TILES_PER_COLOUR,
    gift_pile,
)
from asara_env.asara.phases import Phase
from asara_env.asara.reference.format import GIFT_FIELDS, SCHEMA, VERSION
from asara_env.common.errors import CorruptStateError
from asara_env.common.markdown import page, schema_table
from asara_env.common.schema import StrictModel, error_text, int_field, length, per_seat, short

# Bounds of the unbounded quantities: far above anything a game reaches (a game hands out
# a few hundred Asari and prestige, and takes fewer than 1,500 decisions), far below the
# core's int32, so no sum of a game can wrap.
MAX_MONEY = 1_000_000
MAX_PRESTIGE = 1_000_000
MAX_DECISIONS = 1_000_000
MAX_TILES = max(TILES_PER_COLOUR)  # of one part, colour and gold
MAX_SPACES = max(len(v) for v in SPACE_VALUES.values())
MAX_KEPT = max(kept for _, _, kept in LIGHTS_OPTIONS)
MAX_GIFTS = max(max(gift_pile(True)), max(gift_pile(False)))
FINAL_KEYS = (*COLOUR_NAMES, "tallest", "most_towers", "asari", "total")


def _per_seat(description: str | None = None) -> Any:
    """A list of one entry per player (P, checked after the schema)."""
    return per_seat(MIN_PLAYERS, MAX_PLAYERS, description)


Seat = Annotated[int, Strict(), Field(ge=0, le=MAX_PLAYERS - 1)]
Owner = Annotated[int, Strict(), Field(ge=-1, le=MAX_PLAYERS - 1)]
Colour = Annotated[int, Strict(), Field(ge=0, le=N_TILE_COLOURS - 1)]
CardColour = Annotated[int, Strict(), Field(ge=0, le=N_CARD_COLOURS - 1)]
AreaColour = Annotated[int, Strict(), Field(ge=-1, le=N_CARD_COLOURS - 1)]
GiftKind = Annotated[int, Strict(), Field(ge=0, le=N_GIFT_KINDS - 1)]
TileCount = Annotated[int, Strict(), Field(ge=0, le=MAX_TILES)]
CardCount = Annotated[int, Strict(), Field(ge=0, le=CARDS_PER_COLOUR)]
LightedCount = Annotated[int, Strict(), Field(ge=0, le=LIGHTED_PER_COLOUR)]
GiftCount = Annotated[int, Strict(), Field(ge=0, le=MAX_GIFTS)]
Money = Annotated[int, Strict(), Field(ge=0, le=MAX_MONEY)]
Prestige = Annotated[int, Strict(), Field(ge=0, le=MAX_PRESTIGE)]
ByGold = Annotated[list[TileCount], length(N_GOLD)]
ByPart = Annotated[list[ByGold], length(N_PARTS)]  # a tower's tiles: [part][gold]
Tiles = Annotated[list[Annotated[list[ByGold], length(N_TILE_COLOURS)]], length(N_PARTS)]
Cards = Annotated[list[CardCount], length(N_CARD_COLOURS)]
Lighted = Annotated[list[LightedCount], length(N_TILE_COLOURS)]
Expansion = Literal["genie", "gifts"]
PhaseName = Literal[
    "PLACE", "BUY", "BRIBE_STACK", "BRIBE_TAKE", "LIGHTS_OPTION", "LIGHTS_KEEP", "BUILD",
    "GAME_OVER", "GENIE", "GIFT_CARD", "GIFT_BUY", "GIFT_LIGHTS",
]  # fmt: skip
PHASES = tuple(p.name for p in Phase)
assert get_args(PhaseName) == PHASES and get_args(Expansion) == KNOWN_EXPANSIONS


class ConfigModel(StrictModel):
    """The game's configuration (`GameConfig`)."""

    model_config = ConfigDict(title="config")
    num_players: int = int_field(MIN_PLAYERS, MAX_PLAYERS, "P, the number of players")
    variant: Literal["basic", "pro"] = Field(description="`basic` or `pro` (R7)")
    expansions: list[Expansion] = length(
        0, len(KNOWN_EXPANSIONS), f"distinct names from {', '.join(KNOWN_EXPANSIONS)}, sorted (R9)"
    )
    start_seat: int = int_field(0, MAX_PLAYERS - 1, "the seat that starts year 1 (below P)")


DECIMAL = r"^(0|[1-9][0-9]{0,38})$"  # up to 39 digits: 2**128 - 1 has 39


class RngModel(StrictModel):
    """The PCG64 state of the game's generator (numpy's `bit_generator.state`)."""

    model_config = ConfigDict(title="rng")
    bit_generator: Literal["PCG64"] = Field(description="always `PCG64`")
    state: str = Field(strict=True, pattern=DECIMAL, description="128-bit state, a decimal string")
    inc: str = Field(
        strict=True, pattern=DECIMAL, description="128-bit increment, an odd decimal string"
    )
    has_uint32: int = int_field(
        0, 0, "always 0: the game draws only doubles, so no half draw waits"
    )
    uinteger: int = int_field(0, 0, "always 0 (the buffered half draw, unused)")


class TowerModel(StrictModel):
    """One tower: its tiles and the lighted windows on its windows."""

    model_config = ConfigDict(title="tower")
    parts: ByPart = Field(
        description="tiles by part (base, trunk, window, turret) and gold (plain, gold)"
    )
    lit_plain: int = int_field(0, LIGHTED_PER_COLOUR, "lighted windows lying on plain windows")
    lit_gold: int = int_field(0, 1, "1 if a lighted window covers the gold window")


class BuyerModel(StrictModel):
    """Cards one player laid on one space."""

    model_config = ConfigDict(title="buyer")
    seat: int = int_field(0, MAX_PLAYERS - 1, "the player's seat (below P)")
    cards: list[CardColour] = length(1, 2, "card colours, sorted")
    face_up: bool = Field(strict=True, description="one card face up, or two face down (R3)")


class FinalModel(StrictModel):
    """Final-scoring points of one seat (R8)."""

    model_config = ConfigDict(title="final")
    brown: int = int_field(0, MAX_PRESTIGE, "points for the brown towers (R8.1)")
    green: int = int_field(0, MAX_PRESTIGE, "points for the green towers (R8.1)")
    red: int = int_field(0, MAX_PRESTIGE, "points for the red towers (R8.1)")
    black: int = int_field(0, MAX_PRESTIGE, "points for the black towers (R8.1)")
    white: int = int_field(0, MAX_PRESTIGE, "points for the white towers (R8.1)")
    tallest: int = int_field(0, MAX_PRESTIGE, "points for the tallest tower (R8.2)")
    most_towers: int = int_field(0, MAX_PRESTIGE, "points for the most towers (R8.2)")
    asari: int = int_field(0, MAX_PRESTIGE, "money // 10 (R8.3)")
    total: int = int_field(0, MAX_PRESTIGE, "the sum of the categories")


assert tuple(FinalModel.model_fields) == FINAL_KEYS


class SavedState(StrictModel):
    """A saved ASARA game, version 2."""

    model_config = ConfigDict(title="asara-env saved state")
    schema_: Literal["asara-env/state"] = Field(alias="schema", description="always this")
    version: Literal[2] = Field(description="the format's version")
    config: ConfigModel = Field(description="the game's configuration (`config` below)")
    rng: RngModel = Field(description="the game's only source of chance (`rng` below)")
    year: int = int_field(1, N_YEARS, "the year being played")
    phase: PhaseName = Field(
        description="the pending decision: " + ", ".join(f"`{p}`" for p in PHASES)
    )
    seat: int = int_field(0, MAX_PLAYERS - 1, "the seat to decide (below P)")
    caliph: int = int_field(0, MAX_PLAYERS - 1, "the seat holding the Caliph tile (below P)")
    money: list[Money] = _per_seat("Asari behind each screen")
    prestige: list[Prestige] = _per_seat(
        "prestige track (the final scoring included once the game is over)"
    )
    hands: list[Cards] = _per_seat("cards in hand per card colour")
    draw_pile: Cards = Field(description="cards in the draw pile per card colour")
    stacks: Tiles = Field(
        description="face-down tile stacks per part, colour, gold (a multiset: shuffled "
        "whenever searched)"
    )
    displays: Tiles = Field(description="face-up market tiles per part, colour, gold")
    supply: list[Tiles] = _per_seat("unbuilt ordinary tiles behind each screen")
    lighted_supply: list[Lighted] = _per_seat("unbuilt lighted windows per colour")
    lighted_stack: list[tuple[Colour, Owner]] = length(
        0,
        N_LIGHTED,
        "lighted-window stack, top first: [colour, seat that put it back (it knows the "
        "colour) or -1]",
    )
    towers: list[
        Annotated[
            list[Annotated[list[TowerModel], length(0, MAX_TOWERS_PER_COLOUR)]],
            length(N_TILE_COLOURS),
        ]
    ] = _per_seat("towers per seat and colour, in the order started")
    area_colour: list[AreaColour] = length(
        N_AREAS,
        None,
        "required card colour per area (`asara_env.asara.constants.Area`), -1 none yet",
    )
    spaces: list[Annotated[list[BuyerModel | None], length(1, MAX_SPACES)]] = length(
        N_AREAS, None, "per area and space (as many as the area has): null or a buyer"
    )
    coloured: list[BuyerModel] = length(
        0, N_CARDS, "single face-down cards on the coloured building, by seat then card"
    )
    market: int = int_field(-1, N_PARTS - 1, "BUY / GIFT_BUY: the part of the market; else -1")
    bribe_stack: int = int_field(
        -1, N_PARTS - 1, "BRIBE_TAKE: the part of the searched stack; else -1"
    )
    lights_drawn: list[Colour] = length(
        0,
        MAX_LIGHTS_DRAWN,
        "LIGHTS_KEEP: colours drawn and not yet kept, in drawn order; else empty",
    )
    lights_keep: int = int_field(0, MAX_KEPT, "LIGHTS_KEEP: windows still to keep; else 0")
    build_left: int = int_field(0, N_BUILD_MAX, "BUILD: tiles still to place; else 0")
    gift_pile: list[GiftCount] = length(
        N_GIFT_KINDS,
        None,
        "gift cards left in the pile per kind (`GIFT_KINDS` order); all 0 without the gifts (R9.2)",
    )
    gifts: list[Annotated[list[GiftKind], length(0, GIFT_SLOTS)]] = length(
        N_CHESTS, None, "gift kinds on each chest space (`CHEST_SPACES` order), in the order laid"
    )
    gift_queue: list[GiftKind] = length(
        0, GIFT_SLOTS, "gifts of the chest being emptied still to carry out, in order"
    )
    gift_chest: int = int_field(-1, N_CHESTS - 1, "gift phases: the chest being emptied; else -1")
    pending_target: int = int_field(
        -1, len(TARGETS) - 1, "gift phases: the placement target whose move follows; else -1"
    )
    pending_space: int = int_field(
        -1, MAX_SPACES - 1, "gift phases: the space (within its area) it took; else -1"
    )
    decisions: int = int_field(0, MAX_DECISIONS, "decisions taken so far")
    final: Annotated[list[FinalModel], _per_seat()] | None = Field(
        description="GAME_OVER: final scoring per seat; else null"
    )


def _v1_fields() -> dict[str, Any]:
    fields = {
        name: (info.annotation, info)
        for name, info in SavedState.model_fields.items()
        if name not in GIFT_FIELDS
    }
    fields["version"] = (Literal[1], Field(description="the format's version"))
    return fields


SavedStateV1 = create_model(
    "SavedStateV1",
    __config__=ConfigDict(extra="forbid", frozen=True, title="asara-env saved state, v1"),
    **_v1_fields(),
)
MODELS = {1: SavedStateV1, VERSION: SavedState}


# ------------------------------------------------------------------------------ errors
ALIASES = {"schema_": "schema"}  # model field -> saved key


def validate(d: dict[str, Any]) -> BaseModel:
    """The model of saved state `d` (`SavedState`, or `SavedStateV1` for version 1);
    CorruptStateError naming the field of the first problem otherwise."""
    if not isinstance(d, dict):
        raise CorruptStateError(f"a saved state is a dict, got {type(d).__name__}", "(top)")
    if d.get("schema") != SCHEMA:
        raise CorruptStateError(f"must be {SCHEMA!r}, got {short(d.get('schema'))}", "schema")
    version = d.get("version")
    if type(version) is not int or version not in MODELS:
        raise CorruptStateError(f"must be 1 or {VERSION}, got {short(version)}", "version")
    try:
        return MODELS[version].model_validate(d)
    except ValidationError as exc:
        field, problem = error_text(exc.errors()[0], ALIASES)
        raise CorruptStateError(problem, field) from None


# ------------------------------------------------------------------------------ docs
def json_schema() -> dict[str, Any]:
    """The JSON Schema of every version (docs/asara/state.schema.json)."""
    either: Any = Annotated[SavedState | SavedStateV1, Field(discriminator="version")]
    schema = TypeAdapter(either).json_schema(by_alias=True)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "asara-env/state",
        "title": "asara-env saved game state",
        "description": "Generated from asara_env/asara/reference/schema.py; see "
        "docs/asara/state.md. Lengths marked x-length P are the number of players, checked "
        "on loading with the rules' invariants.",
        **schema,
    }


def json_schema_text() -> str:
    return json.dumps(json_schema(), indent=2) + "\n"


_INTRO = f"""\
# Saved game state (schema `{SCHEMA}`, version {VERSION})

<!-- generated by `python -m asara_env.docs` from asara_env/asara/reference/schema.py:
     edit that -->

`asara_env.asara.reference.serialize.state_to_dict(state)` returns a JSON-compatible dict;
`state_from_dict(d)` rebuilds the state, or raises `CorruptStateError` whose message starts
with the path of the field at fault (`towers[1][3][0].parts[2][1]: 9 is above the maximum
5`; the error's `field` holds the path). Loading checks, in order:

1. the schema below (pydantic, `asara_env/asara/reference/schema.py`; as JSON Schema in
   `docs/asara/state.schema.json`): every field's type, range and length; unknown keys refused;
   ints are ints (no bools, floats or digit strings); every integer bounded, so nothing
   can wrap in the core's int8/int32 arrays;
2. what depends on the number of players P: lists of one entry per player (`[P]`), seats
   below P, each area's number of spaces, buyers' cards sorted (one face up or two face
   down), the PCG64 state below 2**128 with an odd increment, expansions sorted;
3. the rules' invariants (`asara_env/asara/reference/invariants.py`: every tile, card, lighted
   window and gift card accounted for, towers well formed, a legal action pending) and the
   load checks (`asara_env/asara/reference/soundness.py`): fields of a pending decision set
   exactly in its phase, a pending decision that leads on (no dead end after loading), the
   final scoring the one the towers and money give.

`state_to_dict(state_from_dict(d)) == d` for every valid `d`, and a loaded state plays on
identically in the reference engine and the core. Loading a hand-edited dict is also how
tests and users set up positions. Version 1 saves (from before the gifts) have no gift
fields ({", ".join(f"`{f}`" for f in GIFT_FIELDS)}) and load as games without gifts.

Indices: seats `0..P-1` clockwise; tile colours brown, green, red, black, white (0–4);
parts base, trunk, window, turret (0–3); gold 0 = plain, 1 = gold-decorated; card colours
blue, yellow, violet, green, orange (0–4); areas as `asara_env.asara.constants.Area` (0–10).
"""

_OUTRO = """
A game record is `{"config": …, "seed": int 0..2**64-1, "actions": [int 0..802]}`;
`asara_env.asara.reference.record.replay(GameRecord.from_dict(d))` plays it back to the identical
final state.
"""


def state_markdown() -> str:
    """docs/asara/state.md: the format's tables, generated from the schema."""
    schema = SavedState.model_json_schema(by_alias=True)
    defs = schema["$defs"]
    sections = []
    for name in ("ConfigModel", "RngModel", "TowerModel", "BuyerModel", "FinalModel"):
        d = defs[name]
        sections += [f"## `{d['title']}`", d["description"], schema_table(d, defs)]
    tables = page("## The saved state", schema_table(schema, defs), *sections)
    return _INTRO + "\n" + tables + _OUTRO
