"""The OpenAPI 3.1 document of the JSON API, generated from the models it speaks.

Each route of :mod:`companion.scorekeeping.api` declares its operation with :meth:`ApiDescription.operation`
(method, path, the pydantic models of its body and response, its error statuses). The
document is built from those declarations and from each game's engine: its events (one
schema per event class, discriminated on ``type``), options and state. Nothing here is
written twice: a field added to a model or an event appears in the document.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

EVENT_BODY = "event"
"""Body marker: one event of the table's game (the union of every game's events)."""

_REF = "#/components/schemas/{model}"


@dataclass(frozen=True)
class Operation:
    """One route of the API as the document describes it.

    ``body``: the request body's model, :data:`EVENT_BODY`, or ``None``; ``response``: the
    200/201 body's model (``None``: described by ``response_media`` alone); ``errors``:
    status -> when it happens; ``params``: path parameters and the :data:`HEADERS`.
    """

    method: str
    path: str
    operation_id: str
    summary: str
    body: type[BaseModel] | str | None = None
    response: type[BaseModel] | None = None
    status: int = 200
    response_media: str = "application/json"
    errors: dict[int, str] = field(default_factory=dict)
    params: dict[str, str] = field(default_factory=dict)


class ApiDescription:
    """The API's operations, declared next to their routes, and the document built from them."""

    def __init__(self, title: str, description: str, models: list[type[BaseModel]]):
        self.title = title
        self.description = description
        self.models = models
        self.operations: list[Operation] = []

    def operation(self, method: str, path: str, **details: Any) -> Callable:
        """Decorator for a route function: declares its operation (see :class:`Operation`;
        ``path`` in Flask's form, ``/tables/<code>``). The operation id is the function's name
        unless given; the summary is the first line of its docstring unless given."""

        def declare(view: Callable) -> Callable:
            summary = details.pop("summary", None) or (view.__doc__ or view.__name__).strip().splitlines()[0]
            operation_id = details.pop("operation_id", None) or _camel(view.__name__)
            self.operations.append(Operation(method, path, operation_id, summary.rstrip("."), **details))
            return view

        return declare

    def document(self, engines: dict[str, Any], prefix: str = "") -> dict[str, Any]:
        """The OpenAPI 3.1 document: the declared operations under ``prefix``, the models'
        schemas, and each game's ``<game>.Event``, ``<game>.Options`` and ``<game>.State``."""
        _, schemas = models_json_schema([(m, "serialization") for m in self.models], ref_template=_REF)
        components: dict[str, Any] = dict(schemas.get("$defs", {}))
        for game_id, engine in engines.items():
            ref = "#/components/schemas/" + game_id + ".{model}"
            components[f"{game_id}.Event"] = _hoist(engine.event_schema(ref_template=ref), game_id, components)
            components[f"{game_id}.Options"] = _hoist(engine.options_model.model_json_schema(ref_template=ref),
                                                      game_id, components)
            components[f"{game_id}.State"] = _hoist(engine.state_model.model_json_schema(ref_template=ref),
                                                    game_id, components)
        events = {"oneOf": [{"$ref": f"#/components/schemas/{g}.Event"} for g in engines]}
        paths: dict[str, Any] = {}
        for op in self.operations:
            paths.setdefault(prefix + _openapi_path(op.path), {})[op.method] = self._operation(op, events)
        return {"openapi": "3.1.0",
                "info": {"title": self.title, "version": "1.0", "description": self.description},
                "paths": paths, "components": {"schemas": components}}

    def _operation(self, op: Operation, events: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"summary": op.summary, "operationId": op.operation_id}
        parameters = [{"name": name, "in": "path", "required": True, "description": text,
                       "schema": {"type": "integer" if name == "seq" else "string"}}
                      for name, text in op.params.items() if name not in HEADERS and name not in QUERY]
        parameters += [{"name": name, "in": "query", "required": False, "description": op.params[name],
                        "schema": {"type": "string"}} for name in QUERY if name in op.params]
        parameters += [{"name": name, "in": "header", "required": False, "description": op.params[name],
                        "schema": {"type": "string"}} for name in HEADERS if name in op.params]
        if parameters:
            out["parameters"] = parameters
        if op.body is not None:
            schema = events if op.body == EVENT_BODY else {"$ref": _REF.format(model=op.body.__name__)}
            out["requestBody"] = {"required": True, "content": {"application/json": {"schema": schema}}}
        if op.response is not None:
            body_schema: dict[str, Any] = {"$ref": _REF.format(model=op.response.__name__)}
        else:
            body_schema = {"type": "object"} if op.response_media == "application/json" else {"type": "string"}
        content = {op.response_media: {"schema": body_schema}}
        responses: dict[str, Any] = {str(op.status): {"description": op.summary, "content": content}}
        for status, when in op.errors.items():
            if status == 304:  # no body
                responses["304"] = {"description": when}
                continue
            responses[str(status)] = {"description": when, "content": {"application/json": {
                "schema": {"$ref": _REF.format(model="ErrorOut")}}}}
        out["responses"] = responses
        return out


HEADERS = ("If-Match", "If-None-Match", "Drawn-At-Version")
"""The request headers an operation's ``params`` may describe (all others are path parameters)."""
QUERY = ("tz",)
"""The optional query parameters an operation's ``params`` may describe."""


def _hoist(schema: dict[str, Any], prefix: str, components: dict[str, Any]) -> dict[str, Any]:
    """Move a schema's ``$defs`` into ``components`` under ``<prefix>.<name>``."""
    for name, definition in schema.pop("$defs", {}).items():
        components[f"{prefix}.{name}"] = definition
    return schema


def _openapi_path(path: str) -> str:
    return re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", path)


def _camel(name: str) -> str:
    first, *rest = name.split("_")
    return first + "".join(part.capitalize() for part in rest)
