"""Players' names: what may be stored, and how one is printed safely.

A name is a label people choose. It may hold letters, digits, spaces and punctuation in any
script, but no control characters (a terminal escape can recolour or rewrite a screen, a
NUL breaks PostgreSQL's text), no invisible or direction-changing characters (zero-width
spaces and bidirectional overrides make two names look alike or a line read backwards),
no lone surrogates and no private-use characters.

>>> printable_name("Anna"), printable_name("Вера"), printable_name("A\\u202eB")
(True, True, False)
>>> shown_name("A\\x1b[31mB")
'A\\\\x1b[31mB'
"""

from __future__ import annotations

import unicodedata

__all__ = ["NAME_REFUSED", "printable_name", "shown_name"]

NAME_REFUSED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""The Unicode categories a name may not hold: control, format (zero-width, bidirectional),
surrogate, private use, unassigned, line and paragraph separators."""


def printable_name(name: str) -> bool:
    """Whether ``name`` is fit to store and show (see the module's description)."""
    return all(unicodedata.category(ch) not in NAME_REFUSED for ch in name)


def shown_name(name: str) -> str:
    """``name`` as a terminal may print it: every refused character written as an escape
    (``\\x1b``, ``\\u202e``), so a name stored before these rules, or read from a record,
    can neither style nor rewrite the screen."""
    return "".join(ch if unicodedata.category(ch) not in NAME_REFUSED
                   else ch.encode("unicode_escape").decode("ascii") for ch in name)
