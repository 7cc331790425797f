"""The whole menu on a phone (360x740) in Swahili and Tagalog: from the home page, a game page and the privacy
page, every section of the seed site's menu that exists is two taps away (the menu button, then the section),
named in the page's language; the header stays two rows, so the board keeps its place."""

from __future__ import annotations

import pytest

from tests.browser.harness import build_site_module

PHONE = {"width": 360, "height": 740}


@pytest.mark.parametrize("lang", ["sw", "tl"])
def test_every_section_is_two_taps_away(contexts, lang):
    build_site_module()  # puts site/ on the path
    import catalogs
    import menu

    translate = catalogs.translations(lang).gettext
    entries = menu.menu_entries()
    assert {entry.key for entry in entries} >= {
        "home",
        "mchezo",
        "fumbo",
        "jifunze",
        "sheria",
        "msaada",
        "masharti",
        "faragha",
    }
    page = contexts.new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    for start in ("", "mchezo/", "faragha/"):
        page.goto(f"/{lang}/{start}")
        header = page.locator("header.top").bounding_box()
        assert header is not None and header["height"] <= 2 * 44 + 24  # two rows, as before the menu
        links = page.locator("details.menu nav a")
        assert not links.first.is_visible()
        page.locator("details.menu summary").tap()  # tap 1
        names = [links.nth(i).inner_text().strip() for i in range(links.count())]
        assert names == [translate(entry.label) for entry in entries]
        for i in range(links.count()):
            box = links.nth(i).bounding_box()
            assert box is not None and box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= 360
        assert page.locator("details.menu nav").bounding_box()["y"] + 10 < PHONE["height"]
    page.locator("details.menu nav a", has_text=translate("Privacy policy")).tap()  # tap 2
    page.wait_for_url(f"**/{lang}/faragha/")
    assert page.locator("h1").inner_text() == translate("Privacy policy")
    assert not contexts.problems, contexts.problems
