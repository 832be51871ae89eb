"""Entry points of the TUI commands: ``replay CAPTURE`` and ``demo``.

Why this module exists: ``inspector.cli`` imports a command's module only when that command
runs (so ``check`` never loads Textual); these functions turn parsed arguments into an app
from :func:`inspector.tui.app.make_app` and return the exit code. Bad input is a one-line
error and exit 2, never a traceback.

``demo`` needs no key and no network beyond loopback: it plays the captures bundled in
``inspector/data/captures`` (found with ``importlib.resources``). When the net helpers exist
(``inspector.net.serve.ServerThread`` and ``inspector.net.live.live_source``) it serves them on
127.0.0.1 and inspects them live, as a real client would see them; until then it replays them.
"""
from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

EXIT_OK, EXIT_USAGE = 0, 2


def _err(message: str) -> int:
    print(f"stream-inspector: {message}", file=sys.stderr)
    return EXIT_USAGE


def bundled_captures() -> list[Path]:
    """The demo captures shipped in the package, sorted by file name."""
    root = resources.files("inspector") / "data" / "captures"
    return sorted(Path(str(p)) for p in root.iterdir() if p.name.endswith(".jsonl"))


def _check_theme(name: str | None) -> str | None:
    """None when fine, else the one-line error."""
    if name is None:
        return None
    from inspector.tui.themes import ThemeError, load_themes, resolve_theme_name

    try:
        themes = load_themes()
    except ThemeError as e:
        return str(e)
    from textual.theme import BUILTIN_THEMES

    if resolve_theme_name(name, list(themes) + list(BUILTIN_THEMES)) is None:
        return f"unknown theme {name!r}; known: {', '.join(sorted(themes))} (or a Textual theme name)"
    return None


def cmd_replay(args) -> int:
    """``replay CAPTURE [--speed X] [--instant] [--dialect D] [--stall S] [--theme T] [--entry N]``."""
    from inspector.capture.load import CaptureError, load_path
    from inspector.feeds.replay import Playback

    problem = _check_theme(getattr(args, "theme", None))
    if problem:
        return _err(problem)
    try:
        cap = load_path(args.capture, entry=getattr(args, "entry", None))
        pb = Playback(cap, speed=args.speed, instant=args.instant, dialect=args.dialect, stall_s=args.stall,
                      label=Path(args.capture).name)
    except CaptureError as e:
        return _err(str(e))
    except ValueError as e:  # e.g. an unknown dialect
        return _err(str(e).splitlines()[0])
    from inspector.tui.app import make_app

    make_app(pb, theme=args.theme).run()
    return EXIT_OK


def _net_available() -> bool:
    try:
        from inspector.net import live, serve  # noqa: F401
    except ImportError:
        return False
    return hasattr(serve, "ServerThread") and hasattr(live, "live_source")


def cmd_demo(args) -> int:
    """``demo [--speed X] [--theme T]``: the bundled captures, live over loopback when possible."""
    from inspector.capture.load import CaptureError, load_path
    from inspector.feeds.replay import Playback

    problem = _check_theme(getattr(args, "theme", None))
    if problem:
        return _err(problem)
    paths = bundled_captures()
    if not paths:
        return _err("no bundled captures found (inspector/data/captures is empty)")
    speed = getattr(args, "speed", 1.0) or 1.0
    from inspector.tui.app import make_app

    if _net_available():
        return _demo_live(paths, speed, args.theme)
    try:
        feeds = [Playback(load_path(p), speed=speed, label=p.name) for p in paths]
    except CaptureError as e:
        return _err(str(e))
    make_app(*feeds, theme=args.theme, title="stream-inspector demo").run()
    return EXIT_OK


def _demo_live(paths: list[Path], speed: float, theme: str | None) -> int:
    """Serve the captures on 127.0.0.1 (a free port) and inspect each one live, as a client sees it."""
    from inspector.capture.load import CaptureError, load_path
    from inspector.net.live import live_source
    from inspector.net.serve import ServerThread
    from inspector.tui.app import make_app
    from inspector.feeds.live import LiveFeed

    try:
        named = [(p.stem, load_path(p)) for p in paths]
    except CaptureError as e:
        return _err(str(e))
    try:
        server = ServerThread(named, host="127.0.0.1", port=0, speed=speed).start()
    except (OSError, RuntimeError) as e:
        return _err(f"cannot start the loopback demo server: {e}")
    try:
        feeds = []
        for name, cap in named:
            provider = _provider_for(cap)
            body = _demo_body(cap, provider)

            def factory(provider=provider, body=body, url=server.url_for(name)):
                # A fixed placeholder key: a real key from the environment never goes anywhere.
                return live_source(provider, body, base_url=url, api_key="demo-no-key")

            feeds.append(LiveFeed(factory, label=f"{name} (live, loopback)"))
        make_app(*feeds, theme=theme, title=f"stream-inspector demo · {server.url}").run()
    finally:
        server.stop()
    return EXIT_OK


def _provider_for(cap) -> str:
    url = str((cap.request or {}).get("url") or "")
    return "anthropic" if "anthropic" in url or "/v1/messages" in url else "openai"


def _demo_body(cap, provider: str) -> dict:
    body = (cap.request or {}).get("body")
    if isinstance(body, dict):
        return body
    if provider == "anthropic":
        return {"model": "demo", "max_tokens": 1024, "stream": True, "messages": [{"role": "user", "content": "demo"}]}
    return {"model": "demo", "stream": True, "messages": [{"role": "user", "content": "demo"}]}
