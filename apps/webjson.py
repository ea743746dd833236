"""The web server's request bodies (apps/serve.py): strict JSON, bounded in cost.

A JSON body is bounded in bytes (`apps.webasgi.BodyLimit`), then here in values and depth:
a cheap count of its separators, run before anything is parsed, refuses a body that could
hold more than `MAX_JSON_VALUES` values (413), and a parsed body nested deeper than
`MAX_JSON_DEPTH` is refused (413). The parse, its strict checks and the validation of a
route's body model run on a worker thread (`StrictJSONRoute`), never on the event loop,
so no body holds up another client's request. A 422 lists at most `MAX_ERRORS` errors
(the last one says how many more there were) and echoes at most `MAX_ECHO` characters of
any input, so its answer stays small whatever the body.

Strict: `NaN`, `Infinity`, numbers beyond a float's range and integers of too many digits
are refused, each error naming its field (`loc`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from fastapi.routing import APIRoute
from starlette.concurrency import run_in_threadpool

MAX_JSON_VALUES = 20_000  # values (containers, keys and scalars) in one body
MAX_JSON_DEPTH = 32  # nesting of arrays and objects in one body
MAX_ERRORS = 5  # errors listed in one 422
MAX_ECHO = 80  # characters of an input echoed in a 422
CONTENT_TOO_LARGE = 413


class _Refused:
    """A JSON value the strict parser refuses, kept in place so the error can name its field."""

    def __init__(self, text: str, why: str) -> None:
        self.text, self.why = text, why


def _strict_float(text: str) -> float | _Refused:
    value = float(text)
    return value if math.isfinite(value) else _Refused(text, "a number beyond a float's range")


def _strict_int(text: str) -> int | _Refused:
    try:
        return int(text)
    except ValueError:  # beyond Python's int-from-string digit limit
        return _Refused(text[:20] + "...", "an integer of too many digits")


def _constant(text: str) -> _Refused:
    return _Refused(text, "not a JSON number (NaN and Infinity are not JSON)")


def too_large(message: str) -> HTTPException:
    return HTTPException(CONTENT_TOO_LARGE, message)


def check_size(body: bytes) -> None:
    """413 if `body` may hold more than `MAX_JSON_VALUES` values: every value but a
    container's first follows a comma, and the first follows its container's bracket, so
    the count of these bytes bounds the values (a comma inside a string counts too)."""
    bound = body.count(b",") + body.count(b"[") + body.count(b"{") + 1
    if bound > MAX_JSON_VALUES:
        raise too_large(
            f"the request body may hold {bound} JSON values, over the limit of {MAX_JSON_VALUES}"
        )


def _parsed(body: bytes) -> Any:
    try:
        return json.loads(
            body, parse_constant=_constant, parse_float=_strict_float, parse_int=_strict_int
        )
    except json.JSONDecodeError as exc:
        error = {"type": "json_invalid", "loc": ("body", exc.pos), "msg": "JSON decode error"}
        raise RequestValidationError([error | {"input": {}, "ctx": {"error": exc.msg}}]) from exc
    except RecursionError as exc:
        raise too_large(f"the request body is nested deeper than {MAX_JSON_DEPTH}") from exc
    except (UnicodeDecodeError, ValueError) as exc:
        error = {"type": "json_invalid", "loc": ("body",), "msg": f"not JSON: {exc}"}
        raise RequestValidationError([error | {"input": {}}]) from exc


def strict_json(body: bytes) -> Any:
    """`body` as JSON, refusing `NaN`, `Infinity`, numbers beyond a float's range and
    integers of too many digits (RequestValidationError whose `loc` names the field), and
    bodies of too many values or nested too deep (413)."""
    check_size(body)
    data = _parsed(body)
    errors = []
    todo: list[tuple[tuple[str | int, ...], Any]] = [(("body",), data)]
    while todo:  # no recursion: a deep body is refused here, not by the stack
        loc, value = todo.pop()
        if len(loc) > MAX_JSON_DEPTH:
            raise too_large(f"the request body is nested deeper than {MAX_JSON_DEPTH}")
        if isinstance(value, _Refused):
            message = f"Input should be a finite number: {value.text} is {value.why}"
            errors.append(
                {"type": "finite_number", "loc": loc, "msg": message, "input": value.text}
            )
        elif isinstance(value, dict):
            todo.extend(((*loc, key), item) for key, item in value.items())
        elif isinstance(value, list):
            todo.extend(((*loc, k), item) for k, item in enumerate(value))
    if errors:
        raise RequestValidationError(sorted(errors, key=lambda e: str(e["loc"])))
    return data


def _echo(value: Any) -> Any:
    """An error's input as a 422 echoes it: a short scalar as it is, anything else cut."""
    if value is None or isinstance(value, (bool, int, float)):
        return value
    text = value if isinstance(value, str) else type(value).__name__
    return text if len(text) <= MAX_ECHO else text[:MAX_ECHO] + "..."


def capped_errors(errors: list[Any]) -> list[dict[str, Any]]:
    """The first `MAX_ERRORS` of `errors` (FastAPI's or pydantic's dicts), each with its
    type, field, message and a short echo of its input; one more entry says how many were
    left out."""
    shown = []
    for error in errors[:MAX_ERRORS]:
        entry = {"type": error["type"], "loc": list(error["loc"]), "msg": str(error["msg"])}
        if "input" in error:
            entry["input"] = _echo(error["input"])
        shown.append(entry)
    if len(errors) > MAX_ERRORS:
        more = len(errors) - MAX_ERRORS
        shown.append({"type": "too_many_errors", "loc": ["body"], "msg": f"and {more} more"})
    return shown


class StrictJSONRequest(Request):
    """A request whose JSON body is parsed by `strict_json`, once (`parse`)."""

    async def parse(self) -> None:
        """Parse the body on a worker thread (it may cost up to its limits)."""
        if not hasattr(self, "_strict_json"):
            self._strict_json = await run_in_threadpool(strict_json, await self.body())

    async def json(self) -> Any:
        await self.parse()
        return self._strict_json


def _is_json(request: Request) -> bool:
    kind = request.headers.get("content-type", "application/json").split(";")[0].strip().lower()
    return kind == "application/json" or (
        kind.startswith("application/") and kind.endswith("+json")
    )


class StrictJSONRoute(APIRoute):
    """Routes whose JSON bodies are parsed strictly, and validated against the route's
    body model, on a worker thread before FastAPI sees them (its own body parsing turns
    any error but an HTTPException into a 400 naming nothing, and validates on the event
    loop)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict_handler(request: Request) -> Response:
            request = StrictJSONRequest(request.scope, request.receive)
            if _is_json(request) and await request.body():
                data = await request.json()  # a RequestValidationError here becomes a 422
                await run_in_threadpool(self.validate_body, data)
            return await handler(request)

        return strict_handler

    def validate_body(self, data: Any) -> None:
        """RequestValidationError (at most a few errors) unless `data` fits the body model."""
        if self.body_field is None:
            return
        _, errors = self.body_field.validate(data, {}, loc=("body",))
        if errors:
            raise RequestValidationError(capped_errors(list(errors)))
