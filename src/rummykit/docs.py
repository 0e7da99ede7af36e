"""The generated parts of docs/rules.md: written from the rules data, never by hand.

docs/rules.md explains the game in prose; its tables of presets, options, refusal codes
and deal endings come from the engine's own data (the presets, each option's help text,
:data:`rummykit.errors.REFUSALS`, :data:`rummykit.engine.ENDINGS`), between marker lines::

    <!-- generated: options -->
    ...
    <!-- end generated -->

``python -m rummykit.docs docs/rules.md`` rewrites those blocks; a test checks that the
file holds what this module writes, so the page cannot drift from the engine.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from collections.abc import Callable
from pathlib import Path

from rummykit.engine import ENDINGS
from rummykit.errors import REFUSALS
from rummykit.rules import OPTION_HELP, PRESET_SOURCES, PRESET_SUMMARIES, PRESETS, Rules
from rummykit.rules.options import OPTION_CHOICES, option_text

__all__ = ["BLOCKS", "render", "update"]

_BLOCK = re.compile(
    r"(<!-- generated: (?P<name>[a-z-]+) -->\n)(?P<body>.*?)(<!-- end generated -->)", re.DOTALL)


def _presets() -> str:
    lines = ["| preset | the game | in one line |", "|---|---|---|"]
    for name in PRESETS:
        lines.append(f"| `{name}` | {PRESET_SOURCES[name]} | {PRESET_SUMMARIES[name]} |")
    return "\n".join(lines) + "\n"


def _value(rules: Rules, name: str) -> str:
    return f"`{option_text(rules, name)}`"


def _options() -> str:
    names = list(PRESETS)
    head = "| option | what it decides | " + " | ".join(f"`{n}`" for n in names) + " |"
    lines = [head, "|---|---|" + "---|" * len(names)]
    for field in dataclasses.fields(Rules):
        if field.name == "preset_name" or not field.init:
            continue
        values = " | ".join(_value(PRESETS[n], field.name) for n in names)
        words = OPTION_CHOICES.get(field.name, ())
        choices = f" (one of: {', '.join(f'`{c}`' for c in words)})" if words else ""
        lines.append(f"| `{field.name}` | {OPTION_HELP[field.name]}{choices} | {values} |")
    return "\n".join(lines) + "\n"


def _refusals() -> str:
    lines = ["| code | the action is refused because |", "|---|---|"]
    lines += [f"| `{code}` | {what} |" for code, what in REFUSALS.items()]
    return "\n".join(lines) + "\n"


def _endings() -> str:

    lines = ["| `end` | how the table tells it |", "|---|---|"]
    for end, text in ENDINGS.items():
        told = text.format(winner="Anna", repetition="3")
        lines.append(f"| `{end}` | {told} |")
    return "\n".join(lines) + "\n"


BLOCKS: dict[str, Callable[[], str]] = {
    "presets": _presets,
    "options": _options,
    "refusals": _refusals,
    "endings": _endings,
}
"""Every generated block by its marker name."""


def render(text: str) -> str:
    """``text`` with every generated block written anew; an unknown block name is an error."""
    def fill(found: re.Match[str]) -> str:
        name = found.group("name")
        if name not in BLOCKS:
            raise ValueError(f"unknown generated block {name!r}; the blocks are: "
                             f"{', '.join(BLOCKS)}")
        return found.group(1) + BLOCKS[name]() + found.group(4)

    return _BLOCK.sub(fill, text)


def update(path: str | Path) -> bool:
    """Rewrite the generated blocks of the file at ``path``; whether anything changed."""
    file = Path(path)
    old = file.read_text(encoding="utf-8")
    new = render(old)
    if new != old:
        file.write_text(new, encoding="utf-8")
    return new != old


if __name__ == "__main__":
    for arg in sys.argv[1:] or ["docs/rules.md"]:
        print(f"{arg}: {'updated' if update(arg) else 'up to date'}")
