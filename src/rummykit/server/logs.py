"""What the server writes to its log: never an address's query string.

A seat's link holds its token in the query string (``/t/{id}?token=...``), and a client of
an older page may still put the browser's key there; uvicorn's access lines, and its lines
about WebSocket connections, print the whole address. :func:`hide_queries` cuts the query
string off every address those lines hold, whatever the log level an operator chooses, and
:func:`log_config` is uvicorn's logging set-up for ``rummykit serve``: warnings only, and
with ``--access-log`` one line a request (time, method, path, status).
"""

from __future__ import annotations

import logging
from typing import Any

__all__ = ["AccessLine", "NoQuery", "hide_queries", "log_config"]

UVICORN_LOGGERS = ("uvicorn.access", "uvicorn.error")
"""uvicorn's loggers whose lines name a request's address."""


def without_query(value: object) -> object:
    """An address (a text that starts with ``/``) without its query string; anything
    else as it is."""
    if isinstance(value, str) and value.startswith("/"):
        return value.split("?", 1)[0]
    return value


class NoQuery(logging.Filter):
    """A log filter that cuts the query string off every address among a line's
    arguments (uvicorn passes the address as an argument of its lines)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(without_query(arg) for arg in record.args)
        return True


NO_QUERY = NoQuery()


def hide_queries() -> None:
    """Put :class:`NoQuery` on uvicorn's loggers (once: adding it again changes
    nothing)."""
    for name in UVICORN_LOGGERS:
        logging.getLogger(name).addFilter(NO_QUERY)


class AccessLine(logging.Formatter):
    """An access line: ``2024-05-01 12:00:00,123 GET /t/abc123 200`` (the time, the
    method, the path without its query string, the status)."""

    def format(self, record: logging.LogRecord) -> str:
        args = record.args
        if isinstance(args, tuple) and len(args) == 5:
            _client, method, path, _version, status = args
            return f"{self.formatTime(record)} {method} {without_query(path)} {status}"
        return super().format(record)


def log_config(access_log: bool = False) -> dict[str, Any]:
    """uvicorn's logging (its ``log_config``): its warnings and errors on stderr, and
    with ``access_log`` one :class:`AccessLine` a request on stderr too."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "default": {"()": "uvicorn.logging.DefaultFormatter",
                        "fmt": "%(levelprefix)s %(message)s", "use_colors": None},
            "access": {"()": "rummykit.server.logs.AccessLine"},
        },
        "handlers": {
            "default": {"formatter": "default", "class": "logging.StreamHandler",
                        "stream": "ext://sys.stderr"},
            "access": {"formatter": "access", "class": "logging.StreamHandler",
                       "stream": "ext://sys.stderr"},
        },
        "loggers": {
            "uvicorn": {"handlers": ["default"], "level": "WARNING", "propagate": False},
            "uvicorn.error": {"level": "WARNING"},
            "uvicorn.access": {"handlers": ["access"],
                               "level": "INFO" if access_log else "WARNING",
                               "propagate": False},
        },
    }
