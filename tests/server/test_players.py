"""Players' keys: a person's results belong to the key of the browser that claimed the
seat, never to a name alone (nobody can add results under another's name), and a
one-time code carries a key to another device.
"""

from __future__ import annotations

import hashlib
import time

import pytest
from fastapi.testclient import TestClient

from .test_api import play_to_the_end

ANN = "A" * 10 + "player-key-000000000"
BOB = "B" * 10 + "player-key-111111111"


def public_id(key: str) -> str:
    """The mark the statistics show for a key, computed here from its definition: the
    first eight hex digits of SHA-256 of "rummykit/player/" and the key's stored hash."""
    stored = hashlib.sha256(key.encode()).hexdigest()
    return hashlib.sha256(f"rummykit/player/{stored}".encode()).hexdigest()[:8]


@pytest.mark.postgresql
def test_results_belong_to_the_key_not_the_name(client: TestClient) -> None:
    play_to_the_end(client, 25, keys=[ANN, BOB])
    play_to_the_end(client, 26)  # the same names, seats opened by their links alone
    lines = client.get("/api/stats", params={"preset": "one-deal"}).json()["stats"]
    people = {(line["player"], line["player_id"]): line["matches"] for line in lines
              if line["kind"] == "person"}
    assert people == {("Ann", public_id(ANN)): 1, ("Bob", public_id(BOB)): 1,
                      ("Ann", None): 1, ("Bob", None): 1}


@pytest.mark.postgresql
def test_a_code_carries_a_key_to_another_device_once(client: TestClient) -> None:
    code = client.post("/api/transfer", json={"key": ANN}).json()
    assert code["expires_in"] == 600 and len(code["code"]) == 9
    # Typed loosely on the other device: lower case, no dash.
    loose = code["code"].replace("-", "").lower()
    assert client.post("/api/transfer/redeem", json={"code": loose}).json() == {"key": ANN}
    again = client.post("/api/transfer/redeem", json={"code": code["code"]})
    assert again.status_code == 404 and again.json()["code"] == "bad-code"
    # A new code replaces the last; an old one is good for ten minutes only.
    first = client.post("/api/transfer", json={"key": BOB}).json()["code"]
    second = client.post("/api/transfer", json={"key": BOB}).json()["code"]
    assert client.post("/api/transfer/redeem", json={"code": first}).status_code == 404
    hub = client.app.state.hub  # type: ignore[attr-defined]
    hub.transfers.clock = lambda: time.monotonic() + 601  # ten minutes and more later
    assert client.post("/api/transfer/redeem", json={"code": second}).status_code == 404
    assert client.post("/api/transfer", json={"key": "short"}).status_code == 422


def test_codes_cannot_be_guessed_quickly(client: TestClient) -> None:
    answers = [client.post("/api/transfer/redeem", json={"code": f"AAAA-AAA{n}"}).status_code
               for n in range(12)]
    assert answers[:10] == [404] * 10 and answers[10:] == [429, 429]
    again = client.post("/api/transfer/redeem", json={"code": "AAAA-AAAA"})
    assert again.status_code == 429 and int(again.headers["retry-after"]) in range(1, 7)
