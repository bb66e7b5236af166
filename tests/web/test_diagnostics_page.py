"""The owner's board-health page."""

from .conftest import PIN


def test_the_health_page_asks_for_the_owner(client):
    page = client.get("/diagnostics")
    assert page.status_code == 200
    assert b"Log in as the owner" in page.data
    assert b'id="diag-sensors"' not in page.data


def test_the_owner_sees_link_counters_sensors_and_the_last_tag(client):
    assert client.post("/api/login", json={"pin": PIN}).status_code == 200
    page = client.get("/diagnostics").get_data(as_text=True)
    assert 'id="diag-link"' in page and "reconnects" in page
    assert page.count("<td>") >= 112  # every sensor channel
    assert 'href="/diagnostics"' in page  # the owner's pages link to it
