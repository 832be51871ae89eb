"""``stream-inspector demo``: the embedded default, no key and no network beyond loopback.

It serves the captures bundled in ``inspector/data/captures`` on 127.0.0.1 (``inspector.net.serve``)
and inspects each one live (``inspector.net.live``), exactly as a client would see it; ``]``/``[``
switch between them.
"""
from __future__ import annotations

from inspector.capture.bundled import bundled_captures
from inspector.capture.load import CaptureError, load_path
from inspector.cli.codes import EXIT_OK
from inspector.cli.replay import err
from inspector.feeds.live import LiveFeed, quick_thread_switches
from inspector.net.live import live_source
from inspector.net.serve import ServerThread
from inspector.providers import provider_for_dialect
from inspector.session import detect
from inspector.tui.app import make_app
from inspector.tui.terminal import require_terminal
from inspector.tui.themes import check_theme


def run(args) -> int:
    """``demo [--speed X] [--theme T]``: the bundled captures, live over loopback."""
    problem = check_theme(args.theme)
    if problem:
        return err(problem)
    require_terminal()  # before the loopback server starts
    paths = bundled_captures()
    if not paths:
        return err("no bundled captures found (inspector/data/captures is empty)")
    try:
        named = [(p.stem, load_path(p)) for p in paths]
    except CaptureError as e:
        return err(str(e))
    try:
        server = ServerThread(named, host="127.0.0.1", port=0, speed=args.speed or 1.0).start()
    except (OSError, RuntimeError) as e:
        return err(f"cannot start the loopback demo server: {e}")
    try:
        feeds = []
        for name, cap in named:
            provider = _provider_for(cap)
            body = _demo_body(cap, provider)

            def factory(provider=provider, body=body, url=server.url_for(name)):
                # A fixed placeholder key: a real key from the environment never goes anywhere.
                return live_source(provider, body, base_url=url, api_key="demo-no-key")

            feeds.append(LiveFeed(factory, label=f"{name} (live, loopback)", threaded=True))
        with quick_thread_switches():
            make_app(*feeds, theme=args.theme, title=f"stream-inspector demo · {server.url}").run()
    finally:
        server.stop()
    return EXIT_OK


def _provider_for(cap) -> str:
    """The provider whose endpoint the capture's request went to (Anthropic or OpenAI Chat)."""
    provider = provider_for_dialect(detect.fallback(cap.request))
    return provider.name if provider is not None else "openai"


def _demo_body(cap, provider: str) -> dict:
    body = (cap.request or {}).get("body")
    if isinstance(body, dict):
        return body
    if provider == "anthropic":
        return {"model": "demo", "max_tokens": 1024, "stream": True, "messages": [{"role": "user", "content": "demo"}]}
    return {"model": "demo", "stream": True, "messages": [{"role": "user", "content": "demo"}]}
