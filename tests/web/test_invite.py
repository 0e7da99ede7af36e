"""Inviting a friend: "Play now" and "Play with friends" on the start page, the invite sheet
the maker lands on at the table (each friend's link with Copy, Share where the browser can,
and a QR code), the QR codes the server makes (``POST /api/qr``), and the page a browser
sees when it opens the link of a seat other than its own at a table where it has one.
"""

from __future__ import annotations

from typing import Any

import pytest
import segno

from ._support import person

pytestmark = [
    pytest.mark.timeout(180),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]


# -- the QR codes of the app's own links (no browser) ---------------------------------


@pytest.fixture
def table_link(client: Any) -> str:
    """A friend's seat link, as a browser on the test server writes it out."""
    answer = client.post("/api/tables", json={"rules": "classic",
                                              "seats": [person("Ann"), person("Ben")]})
    assert answer.status_code == 200, answer.text
    link: str = answer.json()["seats"][1]["link"]
    return f"http://testserver{link}"


def test_a_seat_link_has_its_qr_code_as_a_matrix(client: Any, table_link: str) -> None:
    answer = client.post("/api/qr", json={"text": table_link})
    assert answer.status_code == 200, answer.text
    assert answer.headers["cache-control"] == "no-store"
    data = answer.json()
    expected = segno.make_qr(table_link, error="m")
    size = expected.symbol_size(border=0)[0]
    assert data["size"] == size
    assert len(data["rows"]) == size and all(len(row) == size for row in data["rows"])
    assert set("".join(data["rows"])) == {"0", "1"}
    # The very modules segno draws for that text (a finder pattern in the corner).
    assert data["rows"] == ["".join("1" if m else "0" for m in row) for row in expected.matrix]
    assert data["rows"][0].startswith("1111111")


def test_the_watch_link_has_a_qr_code_too(client: Any, table_link: str) -> None:
    watch = table_link.split("?")[0] + "?watch=1"
    assert client.post("/api/qr", json={"text": watch}).status_code == 200


@pytest.mark.parametrize("text", [
    "",
    "hello",
    "https://evil.example/phish",
    "http://testserver/t/abc123?token=short",
    "http://testserver/t/abc123?token=" + "A" * 32 + "&next=https://evil.example",
    "javascript:alert(1)//http://testserver/t/abc123?watch=1",
    "http://testserver/t/abc123?token=" + "A" * 32 + "\n",
    "http://" + "a" * 300 + "/t/abc123?watch=1",
])
def test_a_text_that_is_not_a_link_of_the_app_is_refused(client: Any, text: str) -> None:
    answer = client.post("/api/qr", json={"text": text})
    assert answer.status_code == 400, answer.text
    body = answer.json()
    assert body["code"] == "qr-text"
    assert "link to a table" in body["error"] and "\n" not in body["error"]


def test_a_qr_code_is_not_made_from_an_address(client: Any, table_link: str) -> None:
    """A seat's token never goes into an address (a log line, the history): GET is no
    route of the QR codes."""
    answer = client.get("/api/qr", params={"text": table_link})
    assert answer.status_code == 405
    assert "rows" not in answer.text
    assert client.post("/api/qr", json={"link": table_link}).status_code == 422
