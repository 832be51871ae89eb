"""What the proxy does with each relayed WebSocket: records it and inspects each response on it.

Imports: ``endpoint`` (its type), ``wsrelay``.
"""
from __future__ import annotations

from inspector.net.proxy.endpoint import ProxyEndpoint
from inspector.net.proxy.wsrelay import SocketObserver, SocketOpen, WebSocketRelay


def websocket_relay(endpoint: ProxyEndpoint) -> WebSocketRelay:
    """The WebSocket side of ``endpoint``: same routes, timeout and limits."""

    def observe(sock: SocketOpen) -> SocketObserver | None:
        return None

    return WebSocketRelay(endpoint.routes, observe, timeout=endpoint.timeout,
                          max_message=endpoint.limits.max_bytes, log=lambda line: endpoint.log and endpoint.log(line))
