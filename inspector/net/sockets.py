"""Listening sockets for the local servers (``serve``, ``proxy``)."""
from __future__ import annotations

import socket


def bind_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host:port`` (0 = a free port) and already listening, so a client that
    connects as soon as the address is printed waits in the backlog instead of being refused.
    Raises ``OSError``.

    Created with ``IPPROTO_TCP`` explicitly: asyncio disables Nagle's algorithm (``TCP_NODELAY``)
    only on sockets whose ``proto`` says TCP (``asyncio.base_events._set_nodelay``), and accepted
    connections inherit the listening socket's ``proto``. With ``proto=0`` every small write after
    the response head (each stream chunk) could wait for the client's delayed ACK, up to 40 ms.
    """
    infos = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP,
                               flags=socket.AI_PASSIVE)
    if not infos:
        raise OSError(f"cannot resolve {host}")
    family, _, proto, _, addr = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM, proto or socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(addr)
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    return sock
