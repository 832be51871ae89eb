"""Build hook (hatchling): compiles the optional C part of the recording scrub,
``inspector/capture/_runscan.c`` (README "Throughput through the proxy"), next to its source.

The scrub works without it (``redact.py`` has the same in Python), so a failed compile (no C compiler,
no Python headers) never fails the install: the hook says why and the wheel stays pure Python. An
editable install (``uv sync``) imports the module from the source tree; a built wheel carries it and
gets the interpreter's platform tag. ``CC`` in the environment picks the compiler (``CC=false``: none).
"""
from __future__ import annotations

import os
import shlex
import subprocess
import sys
import sysconfig
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

SOURCE = Path("inspector/capture/_runscan.c")


def compile_extension(root: Path) -> Path | None:
    """``root / SOURCE`` compiled into ``inspector/capture/_runscan<EXT_SUFFIX>`` beside it (replaced
    whole: a process that loaded the old one keeps it), or None, with the reason on stderr."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    src = root / SOURCE
    out = src.with_name("_runscan" + suffix)
    tmp = out.with_name(out.name + ".tmp")
    cmd = [*shlex.split(cc), "-O2", "-shared", "-fPIC", "-Wall", "-Wextra", "-I", sysconfig.get_paths()["include"],
           str(src), "-o", str(tmp)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.SubprocessError) as e:
        print(f"stream-inspector: the C scanner was not built ({e}); the scrub runs in Python", file=sys.stderr)
        return None
    if done.returncode != 0:
        tmp.unlink(missing_ok=True)
        print(f"stream-inspector: the C scanner was not built ({shlex.join(cmd)}: {done.stderr.strip()[-2000:]}); "
              "the scrub runs in Python", file=sys.stderr)
        return None
    os.replace(tmp, out)
    return out


class NativeScanHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel":
            return  # an sdist ships the .c; its wheel compiles it
        root = Path(self.root)
        built = compile_extension(root)
        if built is None or version == "editable":
            return  # editable: imported from the source tree, where it was built
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        build_data["force_include"][str(built)] = str(built.relative_to(root))
