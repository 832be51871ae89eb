"""``stream-inspector serve CAPTURE…``: a mock provider on 127.0.0.1 answering with captures."""
from __future__ import annotations

import sys

from inspector.capture.load import CaptureError
from inspector.cli.parser import EXIT_OK, EXIT_USAGE
from inspector.net.serve import load_served, make_asgi_app
from inspector.net.servers import QUIET_ABORTS, is_loopback, listen, url_for, uvicorn_server


def run(args) -> int:
    """``stream-inspector serve CAPTURE...``: exit 0 after Ctrl+C, 2 for unreadable captures or a busy port.

    Several captures rotate (or are picked by path). Without ``--loop`` the server stops by itself
    once every capture has been answered in full, so a script can run ``serve`` beside one client
    run and need no cleanup; with ``--loop`` it keeps answering until Ctrl+C.
    """
    try:
        served = load_served(args.captures)
    except CaptureError as e:
        print(f"stream-inspector: {e}", file=sys.stderr)
        return EXIT_USAGE
    host = args.host
    if not is_loopback(host):
        print(f"stream-inspector: WARNING: serving on {host}, not loopback: anyone who can reach this "
              "machine can read these captures. Use --host 127.0.0.1 unless you mean it.", file=sys.stderr)
    sock = listen(host, args.port, "serve")
    if sock is None:
        return EXIT_USAGE
    url = url_for(sock)

    def log(line: str) -> None:
        print(line, flush=True)

    holder: dict = {}

    def all_served() -> None:
        log("every capture served once: stopping (--loop keeps serving)")
        if "server" in holder:
            holder["server"].should_exit = True

    app = make_asgi_app(served, speed=args.speed, instant=args.instant, log=log,
                        on_all_served=None if args.loop else all_served)
    n = len(served)
    print(f"serving {n} capture{'s' if n != 1 else ''} on {url}", flush=True)
    for s in served:
        print(f"  {url}/{s.name}/  {s.source}  ({s.describe()})", flush=True)
    if n > 1:
        print("  any other path: the captures in turn", flush=True)
    print("Ctrl+C stops" + ("" if args.loop else "; without --loop, so does answering every capture once"),
          flush=True)
    server = holder["server"] = uvicorn_server(app, graceful=1.0, log_filter=QUIET_ABORTS)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    print("stopped", flush=True)
    return EXIT_OK
