"""Markdown for the generated docs, written once for every game: tables from observation
slices (`ObsSlice`), from action groups and from a JSON Schema, and the pages' files. Each
game's `docs.py` writes its pages with these (`python -m asara_env.docs`), and its tests
compare the pages with the code, so docs and code cannot drift. Imports nothing but the
standard library and `layout`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from asara_env.common.layout import ObsSlice

JsonSchema = Mapping[str, Any]


def table(header: Sequence[str], rows: Iterable[Sequence[object]]) -> list[str]:
    """A markdown table's lines: the header, the rule, one line per row."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return lines


def page(*blocks: str | Sequence[str]) -> str:
    """A page from blocks (a line, or a list of lines), one blank line between blocks."""
    out: list[str] = []
    for block in blocks:
        if out:
            out.append("")
        out += [block] if isinstance(block, str) else list(block)
    return "\n".join(out) + "\n"


def id_range(start: int, size: int) -> str:
    """'5' for one id, '5–9' for a block of ids."""
    return str(start) if size == 1 else f"{start}–{start + size - 1}"


# ------------------------------------------------------------------------ observations
def slice_table(slices: Iterable[ObsSlice]) -> list[str]:
    """One row per slice: name, start, end (exclusive), shape, largest value and meaning;
    offsets count from the first slice given."""
    rows, start = [], 0
    for s in slices:
        shape = "×".join(map(str, s.shape))
        rows.append((f"`{s.name}`", start, start + s.size, shape, f"{s.high:g}", s.meaning))
        start += s.size
    return table(("slice", "start", "end", "shape", "max", "meaning"), rows)


# ------------------------------------------------------------------------ actions
@dataclass(frozen=True)
class ActionGroupDoc:
    """One block of action ids, as the action table shows it."""

    name: str
    start: int
    size: int
    fields: str  # e.g. "target[24], cards[20]" (last fastest), or "-"
    meaning: str
    first: str  # the name of the block's first id


def action_table(groups: Iterable[ActionGroupDoc]) -> list[str]:
    """One row per group of ids."""
    rows = [
        (g.name, id_range(g.start, g.size), g.size, g.fields, g.meaning, g.first) for g in groups
    ]
    return table(("group", "ids", "size", "fields (last fastest)", "meaning", "first id"), rows)


# ------------------------------------------------------------------------ JSON Schema
def schema_table(
    model: JsonSchema, defs: JsonSchema, meanings: Mapping[str, str] | None = None
) -> list[str]:
    """One row per property of a JSON-Schema object: key, type (with its list lengths,
    `[P]` for one entry per player), range and meaning (its description, or
    `meanings[key]`)."""
    rows = []
    for key, s in model["properties"].items():
        kind, dims, rng = schema_type(s, defs)
        meaning = s.get("description") or (meanings or {}).get(key, "")
        rows.append((f"`{key}`", _code(kind + dims), rng, meaning))
    return table(("key", "type", "range", "meaning"), rows)


def _code(text: str) -> str:
    """`text` as inline code (so that `int[P][5]` is not read as a link), unless it holds
    a table's cell separator."""
    return text if "|" in text or not text else f"`{text}`"


def schema_type(s: JsonSchema, defs: JsonSchema) -> tuple[str, str, str]:
    """(type, dimensions, range) of a JSON Schema node, e.g. ('int', '[P][5]', '0..9')."""
    if "$ref" in s:
        return defs[s["$ref"].split("/")[-1]]["title"], "", ""
    if "anyOf" in s:
        kinds = [schema_type(x, defs) for x in s["anyOf"]]
        base = " or ".join(k + d for k, d, _ in kinds)
        return (f"({base})" if "[" not in base else base), "", ""
    kind = _KINDS.get(s.get("type", ""), "")
    if "const" in s:
        return kind or _kind_of(s["const"]), "", f"`{s['const']}`"
    if "enum" in s:
        names = "/".join(f"`{v}`" for v in s["enum"])
        return kind, "", names if len(s["enum"]) <= 4 else "a name"
    if kind == "int":
        return "int", "", _int_range(s)
    if "pattern" in s:
        return "str", "", "decimal digits"
    if s.get("type") == "array" and "prefixItems" in s:
        items = [schema_type(x, defs) for x in s["prefixItems"]]
        return "[" + ", ".join(f"{k} {r}" for k, _, r in items) + "]", "", ""
    if s.get("type") == "array":
        item, dims, rng = schema_type(s.get("items", {}), defs)
        return item, _length(s) + dims, rng
    return kind, "", ""


_KINDS = {"integer": "int", "string": "str", "boolean": "bool", "null": "null"}


def _kind_of(value: object) -> str:
    return {int: "int", str: "str", bool: "bool"}.get(type(value), "")


def _number(value: int) -> str:
    return f"{value:,}".replace(",", "_")


def _int_range(s: JsonSchema) -> str:
    """'0..9', '>= 0' or '' from an integer node's bounds (exclusive ones made inclusive)."""
    low = s.get("minimum", s["exclusiveMinimum"] + 1 if "exclusiveMinimum" in s else None)
    high = s.get("maximum", s["exclusiveMaximum"] - 1 if "exclusiveMaximum" in s else None)
    if low is not None and high is not None:
        return f"{_number(low)}..{_number(high)}"
    if low is not None:
        return f">= {_number(low)}"
    return "" if high is None else f"<= {_number(high)}"


def _length(s: JsonSchema) -> str:
    """'[P]' (marked `x-length`), '[5]', '[0..4]', '[1..]' or '[]' (unbounded)."""
    if "x-length" in s:
        return f"[{s['x-length']}]"
    low, high = s.get("minItems"), s.get("maxItems")
    if low is not None and low == high:
        return f"[{low}]"
    if low is None and high is None:
        return "[]"
    return f"[{low or 0}..{'' if high is None else high}]"


# ------------------------------------------------------------------------ files
def write_pages(out_dir: Path, pages: Mapping[str, str]) -> list[Path]:
    """Write `pages` (file name -> text) into `out_dir`, created if missing; the paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in pages.items():
        (out_dir / name).write_text(text)
        written.append(out_dir / name)
    return written
