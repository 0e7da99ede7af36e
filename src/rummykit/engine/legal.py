"""A view of a deal's legal actions (``Deal.legal``): ``len``, iteration and ``in``, the
last checked without listing them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from rummykit.engine.actions import Action

if TYPE_CHECKING:
    from rummykit.engine.deal import Deal

__all__ = ["LegalActions"]


class LegalActions:
    """A view of the legal actions: ``len``, iteration and ``in`` (checked without listing)."""

    __slots__ = ("_actions", "_deal")

    def __init__(self, deal: Deal) -> None:
        self._deal = deal
        self._actions: list[Action] | None = None

    def _list(self) -> list[Action]:
        if self._actions is None:
            self._actions = self._deal.legal_actions()
        return self._actions

    def __contains__(self, action: object) -> bool:
        return isinstance(action, Action) and self._deal.can(action)

    def __iter__(self) -> Iterator[Action]:
        return iter(self._list())

    def __len__(self) -> int:
        return len(self._list())
