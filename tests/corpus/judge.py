"""A capture judged against its ``.expect.json`` exactly as ``shared/tools/corpus_check.py`` judges it
(the vendored copy of the checker, loaded once): the one judge of the shared, Bedrock and V-rule corpora."""
from __future__ import annotations

import functools
import importlib.util
import json
from pathlib import Path

from inspector.capture.load import load_path
from inspector.feeds.run import run_capture
from inspector.report.json import report_dict
from tests.conftest import SHARED_CORPUS

CHECKER = SHARED_CORPUS.parent / "tools" / "corpus_check.py"


@functools.cache
def _checker():
    spec = importlib.util.spec_from_file_location("corpus_check", CHECKER)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def why_not(capture: Path, expect: Path) -> list[str]:
    """What the report of ``capture`` lacks against ``expect`` (empty: the case passes)."""
    exp = json.loads(expect.read_text(encoding="utf-8"))
    return _checker().judge(exp, report_dict(str(capture), run_capture(load_path(capture))))
