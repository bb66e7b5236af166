"""Helpers for the web tests: the owner's PIN and a login through the page's route."""

from __future__ import annotations

from flask.testing import FlaskClient

PIN = "2468"
OWNER = {"X-Pawnlight-Pin": PIN}
SECRET = b"pawnlight-test-secret-key-000000"


def login(client: FlaskClient) -> str:
    """Log in through the page's route; returns the CSRF token for changing requests."""
    response = client.post("/api/login", json={"pin": PIN})
    assert response.status_code == 200, response.json
    return response.json["csrf"]
