"""The client survival matrix's harness (``bench/clients/matrix.py``) on the two official SDKs: their
scripts run under ``conform --client`` with this project's interpreter (the same pins), and what they do
must be what README's matrix says. The other frameworks' columns are a benchmark-like job
(``uv run python bench/clients/matrix.py --write-readme``), each in its own pinned environment."""
from __future__ import annotations

import importlib.util
import sys

from tests.conftest import ROOT

spec = importlib.util.spec_from_file_location("client_matrix", ROOT / "bench" / "clients" / "matrix.py")
matrix = importlib.util.module_from_spec(spec)
sys.modules["client_matrix"] = matrix  # dataclasses look the module up while the class is made
spec.loader.exec_module(matrix)

MUTATIONS = "close-early,finish-stop,drop-index"
"""Three outcomes that tell the two SDKs apart (repaired vs ran-wrong-arguments, dropped, crashed)."""


def test_the_official_sdks_do_what_the_readme_matrix_says(capsys):
    code = matrix.main(["--only", "openai-sync,anthropic-sync", "--project-env", "--mutate", MUTATIONS,
                        "--check-readme", "--timeout", "60"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "| `close-early` | ran-wrong-arguments | repaired |" in out  # openai, then anthropic


def test_the_readme_matrix_is_read_per_framework_and_a_changed_cell_is_reported():
    documented = matrix.readme_cells()
    assert set(documented) == {fw.name for fw in matrix.FRAMEWORKS}
    assert documented["anthropic-sync"]["close-early"] == "repaired"
    measured = {"anthropic-sync": {"close-early": "crashed"}}
    assert matrix.differences(measured, documented) == [
        "anthropic-sync close-early: measured crashed, README says repaired"]
    assert matrix.differences({"anthropic-sync": {"close-early": "repaired"}}, documented) == []
