"""The community page on two phones (360x740), one in Swahili and one in Tagalog: Asha opens Jamii and sends her
friend link; Baraka opens it, follows her, and she follows him back from his link: each then sees the other as a
friend, in the page's own language. And the help page's feedback form thanks the player in the page's language."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest
from common.players.handles import KEY_VARIABLE, handle_of

from tests.browser.harness import build_site_module
from tests.browser.test_klabu import decoded

PHONE = {"width": 360, "height": 740}


def texts(lang: str):
    build_site_module()  # puts site/ on the path
    import catalogs

    return catalogs.translations(lang).gettext


def open_jamii(contexts, lang: str, hash_: str = ""):
    page = contexts.new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    page.goto(f"/{lang}/jamii/{hash_}")
    page.wait_for_function("document.getElementById('my-link').value.includes('#follow=')")
    return page


def test_two_phones_follow_each_other_by_link_and_are_friends(contexts, needs_dynamodb):
    sw, tl = texts("sw"), texts("tl")
    asha = open_jamii(contexts, "sw")
    assert asha.locator("#follows .status").inner_text() == sw("You follow no one yet.")
    whatsapp = asha.locator("#friend-link .whatsapp").get_attribute("href") or ""
    assert whatsapp.startswith("https://wa.me/?text=") and "Tucheze" in whatsapp
    link = asha.locator("#my-link").input_value()
    asha.locator("#friend-link .show-qr").tap()  # a friend at the same table scans it
    assert decoded(asha, asha.locator("#friend-link .invite-qr .qr")) == link
    baraka = open_jamii(contexts, "tl", "#" + link.split("#", 1)[1])
    assert baraka.locator("#follow-offer").is_visible()
    baraka.locator("#follow-button").tap()
    baraka.wait_for_selector(".follow-list li")
    assert baraka.locator(".follow-list li .badge").count() == 0  # not a friend yet: Asha has not followed back
    assert baraka.locator("#follows .status").inner_text().startswith(tl("You now follow %(name)s.").split("%")[0])
    back = baraka.locator("#my-link").input_value()
    asha.goto("/sw/jamii/#" + back.split("#", 1)[1])
    asha.locator("#follow-button").tap()
    asha.wait_for_selector(".follow-list li .badge")
    assert asha.locator(".follow-list li .badge").inner_text() == sw("Friend")
    baraka.reload()
    baraka.wait_for_selector(".follow-list li .badge")
    assert baraka.locator(".follow-list li .badge").inner_text() == tl("Friend")
    assert baraka.locator(".follow-list li button").inner_text() == tl("Unfollow")
    assert not contexts.problems, contexts.problems


@pytest.mark.parametrize("lang", ["sw", "tl"])
def test_feedback_is_thanked_in_the_page_language(contexts, needs_dynamodb, lang):
    page = contexts.new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    page.goto(f"/{lang}/msaada/")
    page.select_option("#feedback-category", "words")
    page.fill("#feedback-text", "Neno zuri" if lang == "sw" else "Magandang salita")
    page.locator("#feedback-form button").tap()
    page.wait_for_function("document.querySelector('#feedback .status').textContent.length > 0")
    assert page.locator("#feedback .status").inner_text() == texts(lang)("Thank you! We read every message.")
    assert page.locator("#feedback-text").input_value() == ""
    assert not contexts.problems, contexts.problems


@pytest.mark.parametrize("lang", ["tl"])
def test_download_my_data_from_the_privacy_page(contexts, needs_dynamodb, lang):
    page = open_jamii(contexts, lang)  # the browser's player, followable by its link
    my_id = page.locator("#my-link").input_value().rsplit("=", 1)[1]
    page.goto(f"/{lang}/faragha/")
    with page.expect_download() as waiting:
        page.locator("#download-data").tap()
    data = json.loads(Path(waiting.value.path()).read_text(encoding="utf-8"))
    assert data["follows"] == [] and "token_hash" not in data["player"]
    with _runners_handle_key():  # the player's own item holds their id; the page shows its handle
        assert handle_of(data["player"]["player_id"]) == my_id
    assert not contexts.problems, contexts.problems


@contextlib.contextmanager
def _runners_handle_key():
    """The handles' key the local runner gives its functions (template.yaml's, resolved as the runner does)."""
    from local.template import Template

    key = Template().functions["CommunityFunction"].environment[KEY_VARIABLE]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(KEY_VARIABLE, key)
        yield
