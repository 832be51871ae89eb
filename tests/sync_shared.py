"""Copy the shared material the tests read (``VENDORED``) from ``../shared`` into ``tests/corpus/shared``.

Run ``uv run python -m tests.sync_shared`` when ``../shared`` changes (``tests/corpus/test_vendored.py``
fails, naming the files, while the two differ); then regenerate the catalog if RULES.md changed
(``uv run python -m tests.gen_catalog``). Files the upstream no longer has are removed here too.
Exit codes: 0 copied (or already equal), 1 no ``../shared`` beside the project.
"""
from __future__ import annotations

import shutil
import sys

from tests.conftest import SHARED, UPSTREAM_SHARED, VENDORED


def main() -> int:
    if not UPSTREAM_SHARED.is_dir():
        print(f"no {UPSTREAM_SHARED} beside the project: nothing to copy", file=sys.stderr)
        return 1
    for part in VENDORED:
        src, dst = UPSTREAM_SHARED / part, SHARED / part
        if src.is_dir():
            if dst.exists():
                shutil.rmtree(dst)
            shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dst)
        print(f"{dst.relative_to(SHARED.parents[2])} <- {src}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
