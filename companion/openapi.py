"""The OpenAPI 3.1 document of the JSON API, with each game's events and options from its engine."""

from __future__ import annotations

from typing import Any


def _hoist(schema: dict[str, Any], prefix: str, components: dict[str, Any]) -> dict[str, Any]:
    """Move a pydantic schema's ``$defs`` into ``components`` under ``<prefix>.<name>``."""
    for name, definition in schema.pop("$defs", {}).items():
        components[f"{prefix}.{name}"] = definition
    return schema


def _error(description: str) -> dict[str, Any]:
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def openapi_document(engines: dict[str, Any]) -> dict[str, Any]:
    """The API description: paths, the table and error shapes, every game's events and options."""
    components: dict[str, Any] = {
        "Error": {"type": "object", "required": ["error"], "properties": {
            "error": {"type": "string", "description": "What went wrong, for people."},
            "rule": {"type": "string", "description": "422 only: the rule broken, naming the rulebook section."},
            "errors": {"type": "array", "items": {"type": "object", "properties": {
                "field": {"type": "string"}, "message": {"type": "string"}}}}}},
        "CreateTable": {"type": "object", "additionalProperties": False, "required": ["game", "players"],
                        "properties": {
                            "game": {"type": "string", "enum": sorted(engines)},
                            "players": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 8},
                            "options": {"type": "object", "description": "The game's options (see <game>.Options)."}}},
        "Table": {"type": "object", "required": ["code", "token", "game", "players", "version", "state", "outcome"],
                  "properties": {
                      "code": {"type": "string", "description": "Short join code (6 characters)."},
                      "token": {"type": "string", "description": "Unguessable link token."},
                      "url": {"type": "string", "description": "The table's page."},
                      "game": {"type": "string"}, "players": {"type": "array", "items": {"type": "string"}},
                      "options": {"type": "object"}, "version": {"type": "integer"},
                      "state": {"type": "object", "description": "The game's state (see <game>.State)."},
                      "outcome": {"type": "object", "properties": {
                          "finished": {"type": "boolean"}, "winners": {"type": "array", "items": {"type": "integer"}},
                          "scores": {"type": "array", "items": {"type": "number"}}, "score_label": {"type": "string"},
                          "summary": {"type": "string"}}},
                      "event": {"$ref": "#/components/schemas/HistoryLine"}}},
        "HistoryLine": {"type": "object", "properties": {
            "seq": {"type": "integer"}, "payload": {"type": "object"}, "text": {"type": "string"},
            "status": {"type": "string", "enum": ["active", "undone", "corrected"]},
            "corrects": {"type": ["integer", "null"]}, "created_at": {"type": "string", "format": "date-time"}}},
    }
    event_refs = []
    for game_id, engine in engines.items():
        ref = "#/components/schemas/" + game_id + ".{model}"
        components[f"{game_id}.Event"] = _hoist(engine.event_schema(ref_template=ref), game_id, components)
        components[f"{game_id}.Options"] = _hoist(engine.options_model.model_json_schema(ref_template=ref),
                                                  game_id, components)
        components[f"{game_id}.State"] = _hoist(engine.state_model.model_json_schema(ref_template=ref),
                                                game_id, components)
        event_refs.append({"$ref": f"#/components/schemas/{game_id}.Event"})

    code = {"name": "code", "in": "path", "required": True, "schema": {"type": "string"},
            "description": "The table's short code or link token."}
    if_match = {"name": "If-Match", "in": "header", "required": False, "schema": {"type": "string"},
                "description": "The table version the client saw; a newer table gives 409 instead of applying."}
    table_ok = {"description": "The table.",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Table"}}}}
    common = {"400": _error("Malformed JSON, an unknown field or a wrong type."),
              "404": _error("No table with that code."), "429": _error("Too many wrong codes; wait.")}
    change = {"200": table_ok, **common, "409": _error("The table changed, reload."),
              "422": _error("The rules refuse this; nothing changed.")}
    event_body = {"required": True, "content": {"application/json": {"schema": {"oneOf": event_refs}}}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Companion scorekeeper API", "version": "1.0",
                 "description": "Tables for physical play: every change is an event checked against the game's rules."},
        "paths": {
            "/api/tables": {"post": {
                "summary": "Start a table", "operationId": "createTable",
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/CreateTable"}}}},
                "responses": {"201": {**table_ok, "description": "The new table."},
                              "400": common["400"], "422": _error("Impossible set-up, e.g. too many players.")}}},
            "/api/tables/{code}": {"get": {"summary": "A table's state", "operationId": "getTable",
                                           "parameters": [code], "responses": {"200": table_ok, **common}}},
            "/api/tables/{code}/events": {
                "get": {"summary": "The table's history", "operationId": "listEvents", "parameters": [code],
                        "responses": {**common, "200": {"description": "History, oldest first.", "content": {
                            "application/json": {"schema": {"type": "object", "properties": {
                                "version": {"type": "integer"},
                                "events": {"type": "array", "items": {"$ref": "#/components/schemas/HistoryLine"}}}}}}}}},
                "post": {"summary": "Enter an event", "operationId": "postEvent", "parameters": [code, if_match],
                         "requestBody": event_body, "responses": change}},
            "/api/tables/{code}/events/{seq}": {"put": {
                "summary": "Correct an earlier entry (later entries are re-checked)", "operationId": "correctEvent",
                "parameters": [code, {"name": "seq", "in": "path", "required": True, "schema": {"type": "integer"}},
                               if_match],
                "requestBody": event_body, "responses": change}},
            "/api/tables/{code}/undo": {"post": {"summary": "Undo the last entry", "operationId": "undo",
                                                 "parameters": [code, if_match], "responses": change}},
            "/api/tables/{code}/export.csv": {"get": {
                "summary": "Result as CSV (finished games)", "operationId": "exportCsv", "parameters": [code],
                "responses": {**common, "200": {"description": "CSV, one row per player.",
                                                "content": {"text/csv": {"schema": {"type": "string"}}}},
                              "409": _error("The game is not finished.")}}},
            "/api/tables/{code}/export.bgsplay": {"get": {
                "summary": "Result as a BG Stats play file (finished games)", "operationId": "exportBgStats",
                "parameters": [code],
                "responses": {**common, "200": {"description": "BG Stats play file.",
                                                "content": {"application/json": {"schema": {"type": "object"}}}},
                              "409": _error("The game is not finished.")}}},
            "/api/openapi.json": {"get": {"summary": "This document", "operationId": "openapi",
                                          "responses": {"200": {"description": "OpenAPI 3.1"}}}},
        },
        "components": {"schemas": components},
    }
