"""JSON Schemas of rummykit's file formats, shipped inside the package.

:func:`record_schema` gives the JSON Schema (draft 2020-12) of a game record, for tools
that check records without rummykit, in any language. rummykit itself does not use it:
:func:`rummykit.record.loads` checks records on its own, and more strictly (the schema
cannot see what depends on the rules, such as whether a layout is the rules' deck). The
package therefore needs no JSON Schema library; to validate, install one, for instance
``jsonschema``:

>>> schema = record_schema()
>>> schema["properties"]["format"]["const"]
'rummy-record/1'

The file itself is ``rummykit/schemas/record.schema.json`` inside the installed package:
``importlib.resources.files("rummykit.schemas") / "record.schema.json"``.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any

__all__ = ["RECORD_SCHEMA_FILE", "record_schema"]

RECORD_SCHEMA_FILE = "record.schema.json"
"""The record schema's file name in this package."""


@cache
def record_schema() -> dict[str, Any]:
    """The JSON Schema of a game record (format ``rummy-record/1``), read once.

    Every call returns the same dict: copy it (``copy.deepcopy``) before changing it."""
    text = files(__name__).joinpath(RECORD_SCHEMA_FILE).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
