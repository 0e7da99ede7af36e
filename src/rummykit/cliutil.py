"""What every ``rummykit`` command shares: its help format, the checks of the paths it will
write (made before any work starts, so a typo never costs a finished game or ladder) and
atomic writes.

A check raises :class:`UsageError` with one line for the person, or an
:class:`~rummykit.errors.OptionError` naming the option that gave the path (what
:func:`flag_words` turns into the flag's words); nothing is written.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

from rummykit.errors import OptionError
from rummykit.words import plural

__all__ = ["HelpFormatter", "UsageError", "atomic_write", "check_database", "check_dir",
           "check_file", "check_sqlite_file", "flag_words", "make_dir"]


class UsageError(ValueError):
    """A command line that cannot run, in one line that says why."""


class HelpFormatter(argparse.HelpFormatter):
    """Every option's help ends with its default, written as on the command line
    (``classic``, ``1``), unless the help already tells it or there is none to tell (a
    flag that is off, an option left out)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if (default is None or default is False or default is argparse.SUPPRESS
                or not action.option_strings or "default" in text):
            return text
        return f"{text} (default {default})".replace("%", "%%").replace("%%(", "%(")


def check_file(path: str, what: str) -> Path:
    """``path`` as a file this command may write, or an :class:`OptionError` of ``what``
    (the option that named it): not a directory, in a directory that exists (none is made
    for it) and where a file can really be made (a probe file, made and removed:
    ``os.access`` says yes to root even on ``/proc``)."""
    target = Path(path)
    if not path.strip():
        raise OptionError(what, "needs a file name")
    if target.is_dir():
        raise OptionError(what, f"{path}: is a directory, not a file")
    if target.exists() and not target.is_file():
        raise OptionError(what, f"{path}: is not a regular file")
    parent = target.parent
    if not parent.is_dir():
        raise OptionError(what, f"{path}: there is no directory {parent}")
    if target.exists() and not os.access(target, os.W_OK):
        raise OptionError(what, f"{path}: not writable")
    _probe(parent, what, path)
    return target


def check_dir(path: str, what: str) -> tuple[Path, str]:
    """``path`` as a directory this command may fill, and what it will do there in words
    (made if missing, or written into with the files already there). Only the last level
    is made: the directory above it must exist. A problem is an :class:`OptionError`."""
    target = Path(path)
    if not path.strip():
        raise OptionError(what, "needs a directory name")
    if target.exists() and not target.is_dir():
        raise OptionError(what, f"{path}: is a file, not a directory")
    if target.is_dir():
        _probe(target, what, path)
        count = sum(1 for _ in target.iterdir())
        if count:
            return target, (f"records go into {path}, which holds {plural(count, 'file')} "
                            "already: a record of the same name is replaced, the others are "
                            "left")
        return target, f"records go into {path} (empty)"
    parent = target.parent
    if not parent.is_dir():
        raise OptionError(what, f"{path}: there is no directory {parent} (only "
                          f"{target.name} is made)")
    _probe(parent, what, path)
    return target, f"records go into {path} (made now)"


def make_dir(target: Path, what: str) -> None:
    """Make the directory :func:`check_dir` allowed (its last level only)."""
    try:
        target.mkdir(exist_ok=True)
    except OSError as err:
        raise OptionError(what, f"{target}: cannot make it: {err.strerror or err}") from None


def _probe(directory: Path, what: str, path: str) -> None:
    """Raise an OptionError of ``what`` unless a file can be made in ``directory``."""
    try:
        fd, temp = tempfile.mkstemp(prefix=".rummykit-probe-", dir=directory)
    except OSError as err:
        raise OptionError(what, f"{path}: cannot write in {directory}: "
                          f"{err.strerror or err}") from None
    os.close(fd)
    Path(temp).unlink(missing_ok=True)


def flag_words(err: BaseException, flags: Mapping[str, str]) -> str:
    """An error as the command line says it: an :class:`OptionError` of an option the
    command has a flag for, with the flag's name (``name ...`` -> ``--name ...``)."""
    if isinstance(err, OptionError) and err.option in flags:
        return f"{flags[err.option]} {err.problem}"
    return str(err)


SQLITE_HEADER = b"SQLite format 3\x00"


def check_database(url: str | None) -> str:
    """The database URL a command will use (see :func:`rummykit.db.database_url`), checked
    as far as can be without opening it: a URL SQLAlchemy reads, and for a SQLite file
    either a SQLite database or a place where :func:`check_file` allows one to be made (the
    default file's data directory is made with its parents: it is rummykit's own)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    from rummykit.db import database_url, default_url

    found = database_url(url)
    try:
        parsed = make_url(found)
    except ArgumentError:
        raise UsageError(f"--db {found!r} is not a database URL (sqlite:///FILE, "
                         "postgresql+psycopg://...)") from None
    name = parsed.database
    if parsed.get_backend_name() == "sqlite" and name and name != ":memory:":
        place = Path(name)
        if place.is_dir():
            raise UsageError(f"--db {found}: {name} is a directory")
        if place.is_file():
            check_sqlite_file(place, f"--db {found}")
        elif found == default_url():
            existing = place.parent
            while not existing.exists():
                existing = existing.parent
            if not existing.is_dir():
                raise UsageError(f"--db {found}: cannot make {name} in {existing}")
            _probe(existing, "--db", found)
        else:
            check_file(name, "--db")
    return found


def check_sqlite_file(place: Path, what: str) -> None:
    """Raise a UsageError unless the file at ``place`` is empty or a SQLite database."""
    try:
        with place.open("rb") as file:
            head = file.read(len(SQLITE_HEADER))
    except OSError as err:
        raise UsageError(f"{what}: cannot read {place}: {err.strerror or err}") from None
    if head and head != SQLITE_HEADER:
        raise UsageError(f"{what}: {place} is not a SQLite database")


def atomic_write(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` so that it holds the old text or the new, never part of
    one: a temporary file in the same directory, flushed, then renamed over it."""
    target = Path(path)
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
