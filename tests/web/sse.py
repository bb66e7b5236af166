"""A small Server-Sent Events reader over http.client, for tests against the real server."""

from __future__ import annotations

import http.client
import json
from typing import Any


class EventReader:
    """Reads ``state`` events from /api/events of a server on 127.0.0.1."""

    def __init__(self, port: int, timeout: float = 10.0) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        self.connection.request("GET", "/api/events", headers={"Accept": "text/event-stream"})
        self.response = self.connection.getresponse()
        self.comments = 0

    @property
    def status(self) -> int:
        return self.response.status

    def next_state(self) -> dict[str, Any]:
        """The next ``state`` event's snapshot (comments and other fields skipped)."""
        fields: dict[str, str] = {}
        while True:
            line = self.response.readline()
            if not line:
                raise EOFError("the event stream ended")
            text = line.decode().rstrip("\r\n")
            if text.startswith(":"):
                self.comments += 1
                continue
            if text:
                name, _, value = text.partition(":")
                fields[name] = value.removeprefix(" ")
                continue
            if fields.get("event") == "state":
                state = json.loads(fields["data"])
                if "id" in fields:
                    assert fields["id"] == str(state["version"])
                return state
            fields = {}

    def close(self) -> None:
        self.connection.close()
