"""``inspector.model.catalog`` says exactly what ``shared/RULES.md`` says, plus our documented additions."""
from __future__ import annotations


from inspector.model.catalog import RULES
from tests.conftest import ROOT
from tests.rules_md import rules_md

ADDITIONS = {"S014", "S015", "S016", "S017", "S018", "S019", *(f"B{n:03d}" for n in range(1, 14)), "K001", "K002"}
"""Project codes at the end of a family (S014–S019), the B family (Bedrock ConverseStream) and the K
family (Cohere v2 chat), documented in README.md's rule tables."""


def test_catalog_matches_rules_md():
    md = rules_md()
    ours = {code: (r.name, r.severity, r.family, r.explain) for code, r in RULES.items() if code not in ADDITIONS}
    assert sorted(ours) == sorted(md)
    for code, row in md.items():
        assert ours[code] == row, code


def test_additions_are_documented_in_the_readme():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for code in ADDITIONS:
        r = RULES[code]
        assert f"| {code} | {r.name} | {r.severity} |" in readme, code


def test_readme_rule_table_lists_every_code_and_rules_prints_them(capsys):
    from inspector.cli import main

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = [code for code in RULES if f"`{code}`" not in readme and f"| {code} |" not in readme]
    assert missing == []
    assert main(["rules", "A017", "C017", "C018", "R009", "R010", "G003", "G004", "G005"]) == 0
    out = capsys.readouterr().out
    for code in ("A017", "C017", "C018", "R009", "R010", "G003", "G004", "G005"):
        assert f"  {code} {RULES[code].name}" in out
