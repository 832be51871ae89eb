"""serve answers every capture a stranger recorded, however odd its head: a recorded interim status
(1xx) is no final answer, nor is a status past 599 (RFC 9110), so either is served as 200 and the
listing says so (h11 and uvicorn refused them: the client got no answer, the server logged a traceback)."""
from __future__ import annotations

import httpx
import pytest

from inspector.capture.load import load_bytes
from inspector.net.serve import ServerThread, load_served
from tests.unit.test_hostile_inputs import BODY, native_with_request


@pytest.mark.parametrize("status", [100, 101, 103, 199, 600, 999])
def test_a_recorded_1xx_or_past_599_status_is_served_as_200_with_its_body(status):
    cap = load_bytes(native_with_request("https://api.anthropic.com/v1/messages", status=status).encode())
    (served,) = load_served([("odd", cap)])
    assert served.status == 200 and f"recorded status {status} is" in served.describe()
    with ServerThread([("odd", cap)], instant=True) as srv:
        r = httpx.post(srv.url + "/v1/messages", json={}, timeout=10)
    assert r.status_code == 200 and r.content == BODY.encode()
