"""Saved-game schema helpers, written once for every game (pydantic v2): the strict model
base, bounded fields, one-entry-per-player lists, and pydantic errors as one sentence
naming the field path. Loaded only when a game is saved, loaded or documented (it imports
pydantic); the markdown of a schema is `asara_env.common.markdown.schema_table`.

    class ConfigModel(StrictModel):                      # unknown keys refused, frozen
        num_players: int = int_field(2, 4, "P, the number of players")

    class StateModel(StrictModel, strict=True):          # every field strict as well
        score: list[int] = per_seat(2, 4, "points per seat")
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from pydantic_core import ErrorDetails

PER_SEAT = {"x-length": "P"}  # JSON Schema mark of a list of one entry per player


class StrictModel(BaseModel):
    """A saved-game model: unknown keys refused, instances frozen. Subclass with
    `strict=True` (a class keyword) to refuse type coercion in every field."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def int_field(low: int, high: int, description: str | None = None) -> Any:
    """A model field: an int from low to high (no bools, floats or strings)."""
    return Field(strict=True, ge=low, le=high, description=description)


def length(low: int, high: int | None = None, description: str | None = None) -> Any:
    """A list field of `low` entries (or `low` to `high`)."""
    return Field(min_length=low, max_length=low if high is None else high, description=description)


def per_seat(min_players: int, max_players: int, description: str | None = None) -> Any:
    """A list field of one entry per player (P; the exact length is checked after the
    schema, where P is known), marked `x-length: P` in the JSON Schema."""
    return Field(
        min_length=min_players,
        max_length=max_players,
        json_schema_extra=dict(PER_SEAT),
        description=description,
    )


# ------------------------------------------------------------------------------ errors
def path_text(loc: tuple[int | str, ...], top: str = "the saved state") -> str:
    """('towers', 1, 3, 'parts') as 'towers[1][3].parts'; `top` for the empty path."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or top


def short(value: Any) -> str:
    """repr(value), cut to 60 characters."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def error_text(error: ErrorDetails, aliases: dict[str, str] | None = None) -> tuple[str, str]:
    """(field path, sentence) of one pydantic error; `aliases` renames path parts (a field
    `schema_` saved as `schema`)."""
    kind, ctx, value = error["type"], error.get("ctx", {}), error.get("input")
    names = aliases or {}
    loc = tuple(names.get(p, p) if isinstance(p, str) else p for p in error["loc"])
    messages = {
        "missing": "is missing",
        "extra_forbidden": "is not a field of the saved state (unknown key)",
        "less_than_equal": f"{short(value)} is above the maximum {ctx.get('le')}",
        "greater_than_equal": f"{short(value)} is below the minimum {ctx.get('ge')}",
        "int_type": f"must be an int, got {short(value)}",
        "bool_type": f"must be true or false, got {short(value)}",
        "string_type": f"must be a string, got {short(value)}",
        "list_type": f"must be a list, got {short(value)}",
        "tuple_type": f"must be a list, got {short(value)}",
        "model_type": f"must be a dict (an object), got {short(value)}",
        "model_attributes_type": f"must be a dict (an object), got {short(value)}",
        "dict_type": f"must be a dict (an object), got {short(value)}",
        "literal_error": f"must be {ctx.get('expected')}, got {short(value)}",
        "string_pattern_mismatch": f"must be a decimal string, got {short(value)}",
    }
    if kind in ("too_short", "too_long"):
        want = ctx.get("min_length") if kind == "too_short" else ctx.get("max_length")
        more = "at least" if kind == "too_short" else "at most"
        messages[kind] = f"must have {more} {want} entries, got {ctx.get('actual_length')}"
    return path_text(loc), messages.get(kind, error["msg"])
