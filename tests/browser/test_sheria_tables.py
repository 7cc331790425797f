"""The rules pages' tables (the table options and the site settings) fit a 360 px phone: nothing scrolls
sideways, in any language, and on a phone each option reads as a card with its column names."""

from __future__ import annotations

import pytest

PHONE = {"width": 360, "height": 740}


@pytest.mark.parametrize("lang", ["sw", "tl", "en"])
def test_the_rules_tables_fit_a_phone_without_sideways_scrolling(contexts, lang):
    page = contexts.new_page(viewport=PHONE)
    for game in ("chess", "english", "tanzanian"):
        page.goto(f"/{lang}/sheria/{game}/")
        widths = page.evaluate(
            """() => ({
                page: document.documentElement.scrollWidth,
                tables: [...document.querySelectorAll('table')].map(t => t.getBoundingClientRect().right),
                overflowing: [...document.querySelectorAll('table, tbody, tbody *')].filter(e => e.scrollWidth > e.clientWidth + 1).length,
            })"""
        )
        assert widths["page"] <= PHONE["width"], (lang, game)
        assert widths["tables"] and max(widths["tables"]) <= PHONE["width"], (lang, game)
        assert widths["overflowing"] == 0, (lang, game)
        # Each option is a card: the default's column name is written before its value.
        label = page.locator("table.options td[data-label]").first
        assert label.evaluate("td => getComputedStyle(td, '::before').content").strip('"').endswith(": ")
    assert contexts.problems == []
