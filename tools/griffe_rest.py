"""Docstrings written for ``help()`` and doctest, shown as Markdown in the docs site.

rummykit's docstrings use the reStructuredText habits of the standard library: roles such
as ``:class:`Card``` and doctest blocks (``>>>`` lines and their output). The docs site
renders docstrings as Markdown, so this griffe extension (named in mkdocs.yml) rewrites
them when the docs are built: a role becomes a code span, a doctest block a fenced block
of a Python session, and a paragraph that ends with ``::`` before an indented literal
block ends with ``:``. The sources stay as they are; nothing else is changed.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:py:)?(?:class|func|meth|data|attr|mod|exc|obj|const|ref):`~?([^`]+)`")


def markdown(text: str) -> str:
    """The docstring ``text`` with its reStructuredText habits written as Markdown."""
    text = _ROLE.sub(r"`\1`", text)
    out: list[str] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        if stripped.startswith(">>>") and not (out and out[-1].strip().startswith("```")):
            indent = line[: len(line) - len(stripped)]
            out.append(f"{indent}```pycon")
            while i < len(lines) and lines[i].strip():
                out.append(lines[i])
                i += 1
            out.append(f"{indent}```")
            continue
        if line.rstrip().endswith("::") and not line.rstrip().endswith(":::"):
            line = line.rstrip()[:-1]
            if not line.strip(":").strip():
                line = ""
        out.append(line)
        i += 1
    return "\n".join(out)


class RestDocstrings(griffe.Extension):
    """Rewrite every docstring griffe loads with :func:`markdown`."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)
