"""The project's documentation stands on its own and agrees with the engine.

- docs/rules.md holds exactly the tables the engine's data gives (``rummykit.docs``);
- the README and the docs link only to files of this repository, and those exist;
- they never send a reader to the rule books or specifications outside the repository.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rummykit.docs import BLOCKS, render

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


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
    for outside in ("RULES.md", "RECORD.md", "../shared", "seeds/"):
        assert outside not in text, f"{page.name} points outside the repository: {outside}"
