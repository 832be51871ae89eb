"""Every rule code is explained to users apart from its catalog definition (issue 12, item 6)."""
from __future__ import annotations

from inspector.model.catalog import RULES
from inspector.session.advice import advice_for, explained_codes, rule_text


def test_every_catalog_code_has_user_text_and_nothing_else_does():
    assert explained_codes() == set(RULES)


def test_user_text_has_all_three_parts_and_is_not_the_catalog_definition():
    for code, rule in RULES.items():
        text = rule_text(code)
        assert text is not None, code
        for part in (text.happened, text.breaks, text.todo):
            assert len(part) > 20 and part.strip() == part, (code, part)
        assert rule.explain not in (text.happened, text.breaks, text.todo)
        assert "the inspector must" not in text.happened.lower()


def test_advice_gives_the_code_then_its_family():
    advice = advice_for("J002")
    assert advice.startswith(rule_text("J002").todo) and "Do not execute this tool call" in advice
