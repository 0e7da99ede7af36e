"""The project's documentation stands on its own and agrees with the engine.

- docs/rules.md holds exactly the tables the engine's data gives (``rummykit.docs``);
- the README and the docs link only to files of this repository, and those exist; a page
  of the docs site links only to files of the site (docs/), so that it works there too;
- they never send a reader to the rule books or specifications outside the repository;
- every page of docs/ is in the site's navigation (mkdocs.yml), and every page the
  navigation names exists.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from rummykit.docs import BLOCKS, render

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


def test_rules_page_tables_are_generated_from_the_rules_data() -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert render(text) == text, "run: python -m rummykit.docs docs/rules.md"
    for name in BLOCKS:
        assert f"<!-- generated: {name} -->" in text


def test_rules_page_shows_every_option_and_refusal() -> None:
    from rummykit.errors import REFUSALS
    from rummykit.rules import OPTION_HELP

    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for option in OPTION_HELP:
        assert f"| `{option}` |" in text
    for code in REFUSALS:
        assert f"| `{code}` |" in text


def test_an_unknown_generated_block_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown generated block"):
        render("<!-- generated: nonsense -->\n<!-- end generated -->")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_pages_link_only_to_files_of_the_repository(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        assert (page.parent / target).resolve().is_file(), f"{page.name} links to {target}"
        if page.is_relative_to(DOCS):
            assert (page.parent / target).resolve().is_relative_to(DOCS), (
                f"{page.name} links to {target}, outside the site")
    for outside in ("RULES.md", "RECORD.md", "../shared", "seeds/"):
        assert outside not in text, f"{page.name} points outside the repository: {outside}"


def nav_pages(nav: object) -> list[str]:
    """Every page a navigation of mkdocs.yml names, in order."""
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, list):
        return [page for item in nav for page in nav_pages(item)]
    if isinstance(nav, dict):
        return [page for value in nav.values() for page in nav_pages(value)]
    raise AssertionError(f"unexpected navigation entry: {nav!r}")


def test_every_page_is_in_the_site_navigation() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    named = nav_pages(config["nav"])
    assert len(named) == len(set(named)), "a page is named twice in the navigation"
    on_disk = {page.relative_to(DOCS).as_posix() for page in DOCS.rglob("*.md")}
    assert set(named) == on_disk


def test_docstrings_are_shown_as_markdown_in_the_api_reference() -> None:
    """The site's griffe extension turns reStructuredText roles and doctests into Markdown."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("griffe_rest", ROOT / "tools" / "griffe_rest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = ("Uses :class:`Card` and :func:`~rummykit.record.loads`:\n\n"
            ">>> schema[\"properties\"][\"format\"]\n'rummy-record/1'\n\nThe blocks::\n\n    x\n")
    assert module.markdown(text) == (
        "Uses `Card` and `rummykit.record.loads`:\n\n"
        "```pycon\n>>> schema[\"properties\"][\"format\"]\n'rummy-record/1'\n```\n\n"
        "The blocks:\n\n    x\n")
