"""What the hub refuses, and what it cannot rebuild."""

from __future__ import annotations

from collections.abc import Mapping

from rummykit.server.refusals import Refusal

__all__ = ["HubError", "RebuildError"]


class HubError(ValueError):
    """A request the hub refuses; the message is for the person who made it.

    It carries a ``code`` (:data:`rummykit.server.refusals.Refusal`: one of the engine's
    :data:`rummykit.errors.REFUSALS` for a refused action, else one of the server's own
    :data:`rummykit.server.refusals.WEB_REFUSALS`) and its ``params``, so that a page can
    say it in its own language, and the HTTP ``status`` it is answered with."""

    def __init__(self, message: str, status: int = 400, *, code: Refusal | None = None,
                 params: Mapping[str, object] | None = None,
                 retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after
        """For a refusal of too many requests (429): the seconds to wait."""
        self.code: Refusal | None = code
        self.params: dict[str, object] = dict(params) if params else {}

    def details(self) -> dict[str, object]:
        """What a client receives beside the message: the code and params, if any."""
        if self.code is None:
            return {}
        return {"code": self.code, "params": dict(self.params)}


class RebuildError(Exception):
    """A stored table that cannot be rebuilt; the message says why (for the log)."""
