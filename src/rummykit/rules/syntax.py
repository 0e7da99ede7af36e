"""The ``name(key=value, ...)`` syntax of rules texts and bot specs, parsed in one place.

>>> parse_call("classic(aces=low, jokers=2)")
('classic', [('aces', 'low'), ('jokers', '2')])
>>> parse_call("master")
('master', [])

Only the shape is checked here; what the names and values mean is the caller's business
(:meth:`rummykit.rules.Rules.parse`, :func:`rummykit.bots.parse_bot`), and so are the
words of its errors: a :class:`CallSyntaxError` says what is wrong as a ``reason``."""

from __future__ import annotations

from typing import Literal

from rummykit.errors import RummyError

__all__ = ["CallSyntaxError", "Reason", "parse_call"]

Reason = Literal["unclosed", "after", "nested", "empty", "no-equals", "twice"]
"""Why a text is not ``name(key=value, ...)``:

- ``unclosed``: a ``(`` without its ``)`` at the end;
- ``after``: text after the closing ``)``;
- ``nested``: a parenthesis inside the options;
- ``empty``: an empty option (``a=1,`` or ``a=1,,b=2``);
- ``no-equals``: an option without ``=``;
- ``twice``: the same key given twice."""

_WORDS: dict[Reason, str] = {
    "unclosed": "a '(' is not closed with ')' at the end",
    "after": "text after the closing ')'",
    "nested": "a parenthesis inside the options",
    "empty": "an empty option",
    "no-equals": "an option without '='",
    "twice": "a key given twice",
}


class CallSyntaxError(RummyError):
    """A text that is not ``name(key=value, ...)``: ``reason`` says why, ``name`` is the
    name before the parentheses (so a caller can check it first), ``part`` the option
    concerned (stripped; empty where none) and ``position`` where in the stripped text
    the problem is."""

    def __init__(self, text: str, name: str, reason: Reason, position: int,
                 part: str = "") -> None:
        super().__init__(f"{text!r}: {_WORDS[reason]} (at {position})")
        self.text = text
        self.name = name
        self.reason: Reason = reason
        self.position = position
        self.part = part


def parse_call(text: str) -> tuple[str, list[tuple[str, str]]]:
    """``name`` or ``name(key=value, ...)`` -> the name and the (key, value) pairs in order,
    all stripped of spaces. ``name()`` has no options. Raise :class:`CallSyntaxError`
    for a text of another shape."""
    text = text.strip()
    name, sep, rest = text.partition("(")
    name = name.strip()
    if not sep:
        return name, []
    start = len(text) - len(rest)
    close = rest.find(")")
    if close < 0:
        raise CallSyntaxError(text, name, "unclosed", len(text))
    inner = rest[:close]
    opened = inner.find("(")
    if opened >= 0:
        raise CallSyntaxError(text, name, "nested", start + opened)
    if rest[close + 1:].strip():
        raise CallSyntaxError(text, name, "after", start + close + 1)
    pairs: list[tuple[str, str]] = []
    if not inner.strip():
        return name, pairs
    seen: set[str] = set()
    offset = start
    for raw in inner.split(","):
        part = raw.strip()
        if not part:
            raise CallSyntaxError(text, name, "empty", offset)
        key, eq, value = part.partition("=")
        key = key.strip()
        if not eq:
            raise CallSyntaxError(text, name, "no-equals", offset, part)
        if key in seen:
            raise CallSyntaxError(text, name, "twice", offset, part)
        seen.add(key)
        pairs.append((key, value.strip()))
        offset += len(raw) + 1
    return name, pairs
