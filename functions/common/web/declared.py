"""What a route's function declares, read once when the route is registered (``common.web.api.Api.route``):

* its success answer for the OpenAPI description: the pydantic model it returns (``-> GameState`` or
  ``-> Response[GameState]``) under each 2xx status its ``responses`` name without a body, or under its
  ``status_code`` when they name none. Powertools documents the return type only for a route without
  ``responses``, so a route that documents its errors would otherwise document no success body at all;
* its integer query parameters, which ``Api`` then accepts in digits only: pydantic's lax mode reads
  ``?count=20.0`` or ``?count=+20`` as 20, and a client that sends them has a bug we should tell it about.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.depends import Depends
from aws_lambda_powertools.event_handler.openapi.params import Body, Header, Path
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse
from pydantic import BaseModel

JSON = "application/json"
#: What a success answer is called when the route gives no description of its own.
SUCCESS_DESCRIPTION = "Successful Response"


def success_model(func: Callable[..., Any]) -> type[BaseModel] | None:
    """The pydantic model ``func`` answers with (``X`` of ``-> X`` or ``-> Response[X]``), or None."""
    returned = _hints(func, extras=False).get("return")
    if typing.get_origin(returned) is Response:
        returned = typing.get_args(returned)[0] if typing.get_args(returned) else None
    if isinstance(returned, type) and issubclass(returned, BaseModel):
        return returned
    return None


def documented_responses(
    func: Callable[..., Any],
    responses: Mapping[int, OpenAPIResponse] | None,
    status_code: int,
    description: str | None,
) -> dict[int, OpenAPIResponse] | None:
    """``responses`` with the success model under every 2xx that names no body (``status_code`` when none is
    named). A route without ``responses`` is left to Powertools, which documents its return type itself."""
    model = success_model(func)
    if responses is None or model is None:
        return dict(responses) if responses is not None else None
    documented: dict[int, OpenAPIResponse] = {
        code: typing.cast(OpenAPIResponse, dict(spec)) for code, spec in responses.items()
    }
    successes = [code for code in documented if 200 <= int(code) < 300] or [status_code]
    for code in successes:
        spec = documented.setdefault(code, {"description": description or SUCCESS_DESCRIPTION})
        if "content" not in spec:
            spec["content"] = {JSON: {"model": model}}
    return documented


def integer_query_names(func: Callable[..., Any], path: str) -> frozenset[str]:
    """The query parameters of ``func`` whose type is an integer (``int`` or ``int | None``, not ``bool``)."""
    hints = _hints(func, extras=True)
    names = set()
    for name in inspect.signature(func).parameters:
        hint = hints.get(name)
        if hint is None or "{" + name + "}" in path:
            continue
        base: Any = hint
        metadata: tuple[Any, ...] = ()
        if typing.get_origin(hint) is typing.Annotated:
            base, *rest = typing.get_args(hint)
            metadata = tuple(rest)
        if any(isinstance(item, (Depends, Header, Body, Path)) for item in metadata):
            continue
        if _is_integer(base):
            names.add(name)
    return frozenset(names)


def _is_integer(hint: Any) -> bool:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        members = [member for member in typing.get_args(hint) if member is not type(None)]
        return len(members) == 1 and _is_integer(members[0])
    return hint is int


def _hints(func: Callable[..., Any], *, extras: bool) -> dict[str, Any]:
    try:
        return typing.get_type_hints(func, include_extras=extras)
    except (NameError, TypeError):  # an annotation only a type checker resolves: nothing to read here
        return {}


def digits_only(value: str) -> bool:
    """An integer as a query string spells it: ASCII digits, nothing else (no sign, point, space or ``_``)."""
    return value.isascii() and value.isdigit()
