"""The client survival matrix: every framework's agent (one script each in this folder, each run in its own
pinned environment) under every mutation of its provider, graded by ``conform --client``.

    uv run python bench/clients/matrix.py                      # all frameworks, the table on stdout
    uv run python bench/clients/matrix.py --write-readme       # ... and into README.md (<!-- client-matrix -->)
    uv run python bench/clients/matrix.py --only openai-sync,anthropic-sync --project-env --check-readme
    uv run python bench/clients/matrix.py --only litellm --save a.json   # ... then --load a.json b.json --write-readme

Each Python framework runs as ``uv run --no-project --with PIN... python SCRIPT`` (the pins below;
uv caches the environment, so only the first run installs), the Vercel AI SDK with ``node`` from
``tests/clients/node`` (its ``package-lock.json`` pins it; ``npm ci --prefix tests/clients/node``).
``--project-env`` runs the scripts with this project's interpreter instead (the official SDKs are its
test dependencies, at the same pins): that is what the test suite does, for the two official SDKs only
(``tests/e2e/test_client_matrix.py``). ``--check-readme`` exits 1 when a measured cell differs from
README's matrix.

Outcomes are ``conform --client``'s (README, "For client authors"). A cell is the outcome; ``—`` where the
provider has no such mutation.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
README = ROOT / "README.md"
MARK = "<!-- client-matrix -->"
TIMED = {"stall": 1.0, "keepalive-only": 1.0}
"""Timing mutations at one second: the client's reaction is the same, the run stays short."""
OUTCOMES = ("survived", "repaired", "refused", "ran-wrong-arguments", "dropped", "mis-assembled", "crashed", "hung")


@dataclass(frozen=True, slots=True)
class Framework:
    """One column: ``name`` (``--only``), the ``conform --provider`` it speaks, the script, the packages
    pinned for its environment (``module`` reports the version), an optional capture other than the
    provider's bundled one."""

    name: str
    label: str
    provider: str
    script: str
    pins: tuple[str, ...] = ()
    module: str = ""
    capture: str | None = None
    node: bool = False
    env: dict[str, str] = field(default_factory=dict)


FRAMEWORKS: tuple[Framework, ...] = (
    Framework("openai-sync", "openai (sync)", "openai", "openai_sync.py", ("openai==3.57.0",), "openai"),
    Framework("openai-async", "openai (async)", "openai", "openai_async.py", ("openai==3.57.0",), "openai"),
    Framework("anthropic-sync", "anthropic (sync)", "anthropic", "anthropic_sync.py", ("anthropic==2.14.0",),
              "anthropic"),
    Framework("anthropic-async", "anthropic (async)", "anthropic", "anthropic_async.py", ("anthropic==2.14.0",),
              "anthropic"),
    Framework("pydantic-ai", "pydantic-ai", "openai", "pydantic_ai_openai.py", ("pydantic-ai-slim[openai]==2.68.0",),
              "pydantic_ai"),
    Framework("langchain-openai", "langchain-openai", "openai", "langchain_openai_chat.py",
              ("langchain-openai==1.7.4",), "langchain_openai"),
    Framework("langchain-anthropic", "langchain-anthropic", "anthropic", "langchain_anthropic_chat.py",
              ("langchain-anthropic==1.7.10",), "langchain_anthropic"),
    Framework("litellm", "litellm", "openai", "litellm_openai.py", ("litellm==1.110.2",), "litellm",
              env={"LITELLM_LOCAL_MODEL_COST_MAP": "True"}),
    Framework("openai-agents", "openai-agents (Responses)", "openai-responses", "openai_agents_responses.py",
              ("openai-agents==0.24.0",), "agents",
              capture="tests/real_streams/openai-responses/vercel-gpt-5.1-function-call.sse"),
    Framework("google-genai", "google-genai", "gemini", "google_genai_gemini.py", ("google-genai==3.6.1",),
              "google.genai", capture="tests/real_streams/gemini/vercel-gemini3-whole-function-call-signature.sse"),
    Framework("ollama", "ollama", "ollama", "ollama_client.py", ("ollama==0.6.3",), "ollama",
              capture="tests/corpus/shared/corpus/ollama-newapi-7252-toolcall-in-final-done-line.ndjson"),
    Framework("vercel-ai", "Vercel AI SDK (anthropic)", "anthropic", "tests/clients/node/vercel_agent.mjs", node=True),
)


def command(fw: Framework, project_env: bool) -> str:
    """The shell command ``conform --client`` runs for ``fw``."""
    if fw.node:
        return f"node {shlex.quote(str(ROOT / fw.script))}"
    script = shlex.quote(str(HERE / fw.script))
    if project_env:
        return f"{shlex.quote(sys.executable)} {script}"
    withs = " ".join(f"--with {shlex.quote(p)}" for p in fw.pins)
    return f"uv run --quiet --no-project --python 3.11 {withs} python {script}"


def version(fw: Framework, project_env: bool) -> str:
    """The framework's version as its environment reports it (installing the environment the first time,
    so the install is not counted against the client's ``--timeout``)."""
    if fw.node:
        lock = json.loads((ROOT / "tests/clients/node/package-lock.json").read_text(encoding="utf-8"))
        return lock["packages"]["node_modules/ai"]["version"]
    probe = (f"import importlib.metadata as m; print(m.version({fw.pins[0].split('==')[0].split('[')[0]!r}))")
    cmd = command(fw, project_env).rsplit(" ", 1)[0] + " -c " + shlex.quote(probe)
    out = subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=900)
    if out.returncode != 0:
        raise RuntimeError(f"{fw.name}: the environment did not start: {out.stderr.strip().splitlines()[-1:]}")
    return out.stdout.strip()


def mutations(provider: str, capture: str | None = None) -> list[str]:
    """Every mutation ``provider`` has, timing ones at one second (``conform --client`` spec syntax); with
    ``capture``, only those that apply to it (``wrong-tool-choice`` needs two tools to choose from)."""
    from inspector.capture.load import load_path
    from inspector.net.conform.client import reference_capture
    from inspector.net.conform.mutate import NotApplicable, Spec, apply
    from inspector.providers.conformers import CONFORMANCE

    names = [m.name for m in CONFORMANCE[provider].mutations]
    if capture is not None:
        path = ROOT / capture if capture else reference_capture(provider)
        cap = load_path(path)
        applicable = []
        for name in names:
            try:
                apply(path.stem, str(path), cap, Spec(name))
            except NotApplicable:
                continue
            applicable.append(name)
        names = applicable
    return [f"{n}={TIMED[n]:g}" if n in TIMED else n for n in names]


def measure(fw: Framework, only: list[str] | None, project_env: bool, timeout: float) -> dict[str, str]:
    """``{mutation: outcome}`` for ``fw``: one ``conform --client`` run over its mutations."""
    specs = [s for s in mutations(fw.provider, fw.capture or "") if only is None or s.split("=")[0] in only]
    if not specs:
        return {}
    argv = [sys.executable, "-m", "inspector", "conform", "--provider", fw.provider, "--client",
            command(fw, project_env), "--mutate", ",".join(specs), "--format", "json", "--timeout", f"{timeout:g}",
            "--next-timeout", "5"]
    if fw.capture:
        argv += ["--capture", str(ROOT / fw.capture)]
    env = {**os.environ, **fw.env}
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, env=env)
    verdicts = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    if not verdicts:
        raise RuntimeError(f"{fw.name}: conform gave no verdict: {proc.stderr.strip()[-400:]}")
    return {v["mutation"].split("=")[0]: v["outcome"] for v in verdicts}


def table(columns: list[tuple[Framework, str]], cells: dict[str, dict[str, str]]) -> str:
    """The Markdown matrix: a row per mutation (in the providers' order), a column per framework."""
    rows: list[str] = []
    for fw, _ in columns:
        rows += [m for m in (s.split("=")[0] for s in mutations(fw.provider))
                 if m not in rows and m in cells.get(fw.name, {})]
    head = "| mutation | " + " | ".join(f"{fw.label} {ver}" for fw, ver in columns) + " |"
    lines = [head, "|---" * (len(columns) + 1) + "|"]
    for row in rows:
        lines.append(f"| `{row}` | " + " | ".join(cells.get(fw.name, {}).get(row, "—") for fw, _ in columns) + " |")
    return "\n".join(lines)


def readme_cells() -> dict[str, dict[str, str]]:
    """``{framework name: {mutation: outcome}}`` from README's matrix (columns matched by label)."""
    text = README.read_text(encoding="utf-8")
    if text.count(MARK) < 2:
        return {}
    section = text.split(MARK, 2)[1].strip().splitlines()
    labels = [c.strip() for c in section[0].strip().strip("|").split("|")][1:]
    by_label = {fw.label: fw.name for fw in FRAMEWORKS}
    names = [next((n for lab, n in by_label.items() if cell.startswith(lab + " ")), cell) for cell in labels]
    out: dict[str, dict[str, str]] = {n: {} for n in names}
    for line in section[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        for name, cell in zip(names, cells[1:]):
            if cell != "—":
                out[name][cells[0].strip("`")] = cell
    return out


def differences(cells: dict[str, dict[str, str]], documented: dict[str, dict[str, str]]) -> list[str]:
    """One line per measured cell the README's matrix does not say."""
    return [f"{name} {mut}: measured {got}, README says {documented.get(name, {}).get(mut, 'nothing')}"
            for name, row in cells.items() for mut, got in row.items() if documented.get(name, {}).get(mut) != got]


def write_readme(body: str) -> None:
    text = README.read_text(encoding="utf-8")
    before, _, rest = text.partition(MARK)
    _, _, after = rest.partition(MARK)
    tmp = README.with_suffix(".md.tmp")
    tmp.write_text(f"{before}{MARK}\n{body}\n{MARK}{after}", encoding="utf-8")
    tmp.replace(README)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--only", help="frameworks to run, comma-separated: " + ", ".join(f.name for f in FRAMEWORKS))
    ap.add_argument("--mutate", help="mutations to run, comma-separated (default: all of each provider's)")
    ap.add_argument("--project-env", action="store_true", help="run the scripts with this project's interpreter")
    ap.add_argument("--timeout", type=float, default=90.0, help="seconds one client run may take (default 90)")
    ap.add_argument("--write-readme", action="store_true", help="write the table into README.md")
    ap.add_argument("--check-readme", action="store_true", help="exit 1 when a measured cell differs from README")
    ap.add_argument("--save", metavar="FILE", help="also write what was measured as JSON (runs split over shells)")
    ap.add_argument("--load", metavar="FILE", nargs="+", help="build the table from saved runs, run nothing")
    args = ap.parse_args(argv)
    if args.load:
        return _from_saved(args.load, args.write_readme)
    chosen = [f for f in FRAMEWORKS if not args.only or f.name in args.only.split(",")]
    unknown = set(args.only.split(",")) - {f.name for f in FRAMEWORKS} if args.only else set()
    if unknown:
        ap.error(f"unknown framework(s): {', '.join(sorted(unknown))}")
    only = args.mutate.split(",") if args.mutate else None
    columns: list[tuple[Framework, str]] = []
    cells: dict[str, dict[str, str]] = {}
    for fw in chosen:
        start = time.monotonic()
        try:
            ver = version(fw, args.project_env)
            cells[fw.name] = measure(fw, only, args.project_env, args.timeout)
        except (RuntimeError, subprocess.SubprocessError, OSError) as exc:
            print(f"{fw.name}: skipped: {exc}", file=sys.stderr)
            continue
        columns.append((fw, ver))
        counts = {o: n for o in OUTCOMES if (n := list(cells[fw.name].values()).count(o))}
        print(f"{fw.name} {ver}: {counts} ({time.monotonic() - start:.0f} s)", file=sys.stderr)
    if args.save:
        Path(args.save).write_text(json.dumps({fw.name: {"version": ver, "cells": cells[fw.name]}
                                               for fw, ver in columns}, indent=1), encoding="utf-8")
    body = table(columns, cells)
    print(body)
    if args.write_readme:
        write_readme(body)
    if args.check_readme:
        diffs = differences(cells, readme_cells())
        for d in diffs:
            print(d, file=sys.stderr)
        return 1 if diffs or len(columns) < len(chosen) else 0
    return 0 if len(columns) == len(chosen) else 1


def _from_saved(files: list[str], write: bool) -> int:
    """The table from ``--save`` files, columns in ``FRAMEWORKS`` order."""
    saved: dict[str, dict] = {}
    for f in files:
        saved.update(json.loads(Path(f).read_text(encoding="utf-8")))
    columns = [(fw, saved[fw.name]["version"]) for fw in FRAMEWORKS if fw.name in saved]
    body = table(columns, {name: run["cells"] for name, run in saved.items()})
    print(body)
    if write:
        write_readme(body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
