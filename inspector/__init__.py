"""stream-inspector: see, lint, replay and serve LLM streaming responses.

Started as the command (``stream-inspector`` or ``python -m inspector``), Ctrl+C before the command
runs exits at once with one line and 130 (``inspector.cli`` says the rest). The handler is installed
here because this is the first code of ours Python runs on either path: installed later, by
``inspector.cli``, the import of that package itself was a window where Python's own handler printed a
traceback (seen in CI: the interrupt landed while ``inspector/__main__.py`` imported ``inspector.cli``).
Also as the command, the cyclic garbage collector is off until the command's modules are loaded
(``inspector.cli._resume_collector``). Imported by a test or another program, nothing changes here.
"""
import gc as _gc
import os as _os
import sys as _sys

import _signal  # the C module: ``signal`` imports enum first, a window where Ctrl+C shows a traceback

__version__ = "0.1.0"


def _interrupted_at_start(signum, frame) -> None:  # noqa: ARG001 - signal handler signature
    _os.write(2, b"stream-inspector: interrupted\n")
    _os._exit(130)


def _started_as_command() -> bool:
    """The process is the command: the console script, ``inspector/__main__.py`` run as a file, or
    ``python -m inspector`` (while Python looks the module up, ``sys.argv[0]`` is ``-m``: Python docs,
    "Command line and environment", ``-m``; ``sys.orig_argv`` names the module)."""
    argv0 = (getattr(_sys, "argv", None) or [""])[0]
    if _os.path.basename(argv0).startswith("stream-inspector") or argv0.endswith(_os.path.join("inspector", "__main__.py")):
        return True
    orig = getattr(_sys, "orig_argv", [])
    return argv0 == "-m" and "-m" in orig and orig[orig.index("-m") + 1:orig.index("-m") + 2] == ["inspector"]


_BEFORE = _signal.getsignal(_signal.SIGINT)
"""The SIGINT handler found at start (Python's, a test's or a host program's)."""
_AS_COMMAND = _started_as_command()
if _AS_COMMAND:
    _signal.signal(_signal.SIGINT, _interrupted_at_start)
    _gc.disable()  # while the command's modules load: ``inspector.cli._resume_collector`` says why
