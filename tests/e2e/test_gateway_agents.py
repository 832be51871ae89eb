"""``gateway`` with two agents calling at once through the toy gateway (``tests/gateway/toy.py``), the
provider slow to close its streams: an agent sends its next turn on ``[DONE]``, before the gateway
has closed the previous stream, so time windows overlap; every front exchange is still paired with
the upstream request that carries its content, none is "retried", none "front only"."""
from __future__ import annotations

import copy
import threading

from openai import OpenAI

from inspector.model.capture import Chunk, End
from inspector.net.serve import Served, asgi_app, load_served
from inspector.net.servers import BackgroundServer
from tests.e2e.test_gateway import CAPTURE, Upstream, ask, free_port, gateway_process
from tests.gateway import toy

HOLD_S = 0.6
"""How long the provider keeps each stream open after its last event (message_stop)."""


class SlowToClose(Upstream):
    """Every event at once, then the connection held ``HOLD_S`` before EOF."""

    def choose(self, scope, body: bytes) -> Served:
        s = super().choose(scope, body)
        cap = copy.copy(s.capture)
        cap.chunks = [Chunk(0.0, c.data, c.line) for c in s.capture.chunks]
        cap.end = End(HOLD_S, "eof")
        return Served(s.name, s.source, cap, s.status, s.headers, s.pauses)


def test_two_agents_overlapping_turns_pair_by_content(tmp_path):
    back_port = free_port()
    upstream = BackgroundServer(asgi_app(SlowToClose(load_served([str(CAPTURE)])))).start()
    gw = BackgroundServer(toy.make_app(f"http://127.0.0.1:{back_port}")).start()
    try:
        with gateway_process(gw.url, upstream.url, back_port, tmp_path / "pairs") as (front, stop):
            q = "Compare the weather in Lisbon and Porto."
            history = [{"role": "assistant", "content": "I'll check both.", "tool_calls": [{
                "id": "toolu_01WeatherDemo", "type": "function",
                "function": {"name": "get_weather", "arguments": '{"locations": [{"city": "Lisbon"}]}'}}]},
                {"role": "tool", "tool_call_id": "toolu_01WeatherDemo", "content": "Lisbon 18 C, Porto 15 C"}]

            def agent(key: str, turns: list) -> None:
                client = OpenAI(base_url=front, api_key=key, max_retries=0)
                for text, hist in turns:
                    ask(client, text, hist)

            a = threading.Thread(target=agent, args=("sk-agent-a", [("What about Faro, then?", None)] * 2))
            a.start()
            agent("sk-agent-b", [(q, None), (q, history)])
            a.join(30)
            pairs = stop()
    finally:
        gw.stop()
        upstream.stop()
    got = sorted((p["status"], len(p["retries"])) for p in pairs)
    assert got == [("paired", 0)] * 4, [(p["status"], p["front"] and p["front"]["exchange"],
                                         p["back"] and p["back"]["exchange"], p["score"]) for p in pairs]
