"""Finding things on a 360x740 phone, in Swahili and Tagalog: a rules page's lesson and a lesson's exercises
within the first screen, the home page naming every way to play and the rating list, a Tagalog browser
landing on an invitation in Tagalog, the invitation's colour at the bottom of its board, and the option cards'
headings in Tagalog."""

from __future__ import annotations

import pytest

from tests.browser.boards import page_config
from tests.browser.harness import build_site_module, http

PHONE = {"width": 360, "height": 740}


def first_screen(locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


@pytest.mark.parametrize("lang", ["sw", "tl"])
def test_the_lesson_and_its_exercises_are_a_tap_from_the_top(contexts, lang):
    t = build_site_module().translations(lang)
    page = contexts.new_page(viewport=PHONE)
    page.goto(f"/{lang}/sheria/chess/")
    lesson = page.locator(f'main a[href="/{lang}/jifunze/chess/"]').first
    assert first_screen(lesson) and lesson.inner_text() == t.gettext("Learn step by step")
    lesson.click()
    page.wait_for_url(f"**/{lang}/jifunze/chess/")
    jump = page.locator('main a[href="#exercises"]')
    assert first_screen(jump) and jump.inner_text() == t.gettext("Go to the exercises")
    jump.click()
    page.wait_for_function("() => location.hash === '#exercises'")
    page.locator(".exercise").first.wait_for()
    page.wait_for_function("() => document.querySelector('.exercise').getBoundingClientRect().top < innerHeight")
    assert contexts.problems == []


@pytest.mark.parametrize("lang", ["sw", "tl"])
def test_the_home_page_names_every_way_to_play(contexts, lang):
    t = build_site_module().translations(lang)
    page = contexts.new_page(viewport=PHONE)
    page.goto(f"/{lang}/")
    for text, href in (
        ("Play the computer, at five levels", f"/{lang}/mchezo/"),
        ("Play anyone: the lobby's open challenges", f"/{lang}/mchezo/"),
        ("Live tables: 30 or 60 seconds a move", f"/{lang}/mchezo/"),
        ("The rating list", f"/{lang}/vinara/"),
    ):
        link = page.locator("main").get_by_role("link", name=t.gettext(text), exact=True).first  # not the menu's
        assert link.get_attribute("href") == href, text
    assert contexts.problems == []


def test_a_tagalog_browser_lands_on_an_invitation_in_tagalog_seen_from_its_seat(contexts, server, needs_dynamodb):
    host = http(server.origin, "POST", "/v1/players", {"name": "Asha"})
    created = http(server.origin, "POST", "/v1/games", {"game": "chess", "color": "white"}, token=host["token"])
    page = contexts.new_page(viewport=PHONE, locale="fil-PH")
    page.goto(created["invite"]["url"].replace("http://localhost", server.origin).split(server.origin)[-1])
    page.wait_for_url("**/tl/mchezo/**")  # no chooser: the browser said Tagalog
    messages = page_config(page)["messages"]
    page.locator("#join .invite-text").wait_for()
    page.wait_for_function("() => document.querySelector('#join .invite-terms').textContent.length > 0")
    assert messages["black"] in page.locator("#join .invite-terms").inner_text()  # "you play Black"
    # Black's side of the board at the bottom: the last row, from the left, starts on h1... a8 is top right.
    page.locator("#game .board-host button[data-square]").first.wait_for()
    squares = page.locator("#game .board-host button[data-square]")
    assert squares.first.get_attribute("data-square") == "h1" and squares.last.get_attribute("data-square") == "a8"
    assert contexts.problems == []


def test_the_option_cards_read_in_tagalog(contexts):
    t = build_site_module().translations("tl")
    page = contexts.new_page(viewport=PHONE)
    page.goto("/tl/sheria/english/")
    for english in ("Default", "Setting"):
        assert t.gettext(english) != english
    labels = page.locator("table.options td[data-label]").evaluate_all("(cells) => cells.map((c) => c.dataset.label)")
    assert labels and "Default" not in labels
    assert page.locator("#settings thead th").first.text_content() == t.gettext("Setting")
