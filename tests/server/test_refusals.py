"""The catalogue of the web server's refusal codes (rummykit.server.refusals).

Every code the server sends is in the catalogue, every code in it is sent somewhere, and
every language says each one, so that no refusal reaches a page untranslated.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import get_args

from rummykit.errors import REFUSALS, RefusalCode
from rummykit.server.refusals import WEB_REFUSALS, Refusal, WebRefusal

SRC = Path(__file__).parents[2] / "src" / "rummykit"
SERVER = SRC / "server"
I18N = SRC / "web" / "static" / "i18n"
LANGUAGES = ["en", "ru", "it"]
PLURAL = {"zero", "one", "two", "few", "many", "other"}

NOT_SENT_YET: frozenset[str] = frozenset()
"""Codes in the catalogue that no route or hub sends yet: none."""


def sent_codes() -> dict[str, list[str]]:
    """Every code written in the server's source, and where: a ``code=`` keyword (of a
    HubError or a close), a ``"code": ...`` entry of a dict, or a module's constant
    passed as either (``code=SECRET_IN_URL``)."""
    found: dict[str, list[str]] = {}
    for path in sorted(SERVER.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        constants = {
            target.id: node.value.value
            for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
            and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
            if isinstance(target, ast.Name)}
        values: list[ast.expr] = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                values += [k.value for k in node.keywords if k.arg == "code"]
            elif isinstance(node, ast.Dict):
                values += [v for k, v in zip(node.keys, node.values, strict=True)
                           if isinstance(k, ast.Constant) and k.value == "code"]
        for value in values:
            code = (value.value if isinstance(value, ast.Constant)
                    else constants.get(value.id) if isinstance(value, ast.Name) else None)
            if isinstance(code, str):
                found.setdefault(code, []).append(f"{path.name}:{value.lineno}")
    return found


def refusal_keys(lang: str) -> set[str]:
    """The codes a catalog has a text for (its plural forms counted once)."""
    data = json.loads((I18N / f"{lang}.json").read_text("utf-8"))
    keys = {k.rsplit(".", 1)[0] if k.rsplit(".", 1)[-1] in PLURAL else k for k in data}
    return {k.removeprefix("refusal.") for k in keys if k.startswith("refusal.")}


def test_every_code_the_server_sends_is_in_the_catalogue() -> None:
    sent = sent_codes()
    assert len(sent) > 40  # (the scan finds the codes at all)
    known = set(get_args(RefusalCode)) | set(get_args(WebRefusal))
    assert {code: where for code, where in sent.items() if code not in known} == {}


def test_every_code_in_the_catalogue_is_sent_somewhere() -> None:
    sent = set(sent_codes())
    unsent = set(get_args(WebRefusal)) - sent - NOT_SENT_YET
    assert unsent == set()
    assert NOT_SENT_YET - set(get_args(WebRefusal)) == set()


def test_the_catalogue_describes_each_code_once() -> None:
    assert list(WEB_REFUSALS) == list(get_args(WebRefusal))
    assert all(text.strip() and "\n" not in text for text in WEB_REFUSALS.values())
    # The server's codes and the engine's are distinct, and make up the type of a code.
    assert set(WEB_REFUSALS).isdisjoint(REFUSALS)
    codes = {code for part in get_args(Refusal) for code in get_args(part)}
    assert codes == set(WEB_REFUSALS) | set(REFUSALS)


def test_every_language_says_every_refusal_and_no_other() -> None:
    codes = set(WEB_REFUSALS) | set(REFUSALS)
    for lang in LANGUAGES:
        keys = refusal_keys(lang)
        assert codes - keys == set(), lang
        assert keys - codes == set(), lang
