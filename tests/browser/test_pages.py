"""Every page of the built site, in every language, loads in Chromium with no console error and no failed
request, and its scripts draw what they promise; the language switcher keeps the reader on the same page."""

from __future__ import annotations

import pytest

from tests.browser.harness import build_site_module

PATHS = build_site_module().all_page_paths()
LANGS = ("sw", "tl", "en")


def built_paths(site_dir) -> set[str]:
    """Every page in the build folder, as the path that serves it."""
    paths = set()
    for index in site_dir.rglob("index.html"):
        folder = index.parent.relative_to(site_dir).as_posix()
        paths.add("/" if folder == "." else f"/{folder}/")
    return paths


def test_the_pages_checked_are_every_page_built(server):
    assert built_paths(server.site_dir) == set(PATHS)
    # chooser, /game/, and in each language: home, Sheria and Jifunze with three games each, Fumbo, Mchezo, the
    # rating list, Historia, Tazama, the profile, Mashindano, Jamii and its clubs page, Msaada, Masharti, Faragha
    # and the offline page: each named, so a page added or lost shows here by name
    games = ("chess", "english", "tanzanian")
    sections = [
        "",
        "sheria/",
        *(f"sheria/{game}/" for game in games),
        "jifunze/",
        *(f"jifunze/{game}/" for game in games),
    ]
    sections += ["fumbo/", "mchezo/", "vinara/", "historia/", "tazama/", "mchezaji/", "mashindano/", "jamii/"]
    sections += ["jamii/klabu/", "msaada/", "masharti/", "faragha/", "offline/"]
    expected = {"/", "/game/"} | {f"/{lang}/{section}" for lang in LANGS for section in sections}
    assert set(PATHS) == expected
    assert len(PATHS) == 2 + 3 * 22


@pytest.mark.parametrize("path", PATHS)
def test_page_loads_with_no_error(contexts, server, path):
    page = contexts.new_page(bypass_csp=False)
    # "load" waits for every subresource and module script; the fetches the scripts make are awaited below.
    response = page.goto(path, wait_until="load")
    assert response is not None and response.status == 200
    lang = path.split("/")[1] if path.split("/")[1] in LANGS else "sw"
    assert page.locator("html").get_attribute("lang") == lang
    kind = path.split("/")[2] if path.count("/") > 2 else None
    if kind == "jifunze" and path.count("/") == 4:  # a lesson: one board per exercise, ready to play near the view
        exercises = page.locator(".exercise")
        assert exercises.count() >= 3
        for i in range(exercises.count()):
            exercise = exercises.nth(i)
            exercise.scroll_into_view_if_needed()
            exercise.locator(".grid button[data-square]").first.wait_for()
            assert exercise.locator(".grid button[data-square]").count() in (32, 64)
            assert exercise.locator(".move-form").is_visible()
            assert exercise.locator(".status").inner_text().strip()
    elif kind == "fumbo":  # one puzzle board per game, drawn from the API's daily puzzle
        page.wait_for_load_state("networkidle")
        assert contexts.problems == []
        for game in ("chess", "english", "tanzanian"):
            section = page.locator(f"#puzzle-{game}")
            section.locator(".move-form").wait_for(state="visible")  # shown once the puzzle is drawn
            assert section.locator(".grid button[data-square]").count() in (32, 64)
            assert section.locator(".meta").inner_text().strip()
    elif kind == "mchezo":
        assert page.locator("#create-form").is_visible()
        assert page.locator("#game").is_hidden()
    assert contexts.problems == []


@pytest.mark.parametrize("kind", ["sheria/tanzanian", "jifunze/english"])
def test_the_language_switcher_keeps_the_page(contexts, kind):
    page = contexts.new_page(bypass_csp=False)
    page.goto(f"/sw/{kind}/")
    switcher = page.locator("nav.langs")
    sections = page.eval_on_selector_all("main section[id]", "nodes => nodes.map(n => n.id)")
    assert sections
    for lang, name in (("tl", "Tagalog"), ("en", "English"), ("sw", "Kiswahili")):
        before = page.locator("h1").inner_text()
        switcher.get_by_role("link", name=name, exact=True).click()
        page.wait_for_url(f"**/{lang}/{kind}/")
        assert page.locator("html").get_attribute("lang") == lang
        assert switcher.locator("[aria-current]").inner_text() == name
        # The same page in another language: the same sections, under a translated title.
        assert page.eval_on_selector_all("main section[id]", "nodes => nodes.map(n => n.id)") == sections
        assert page.locator("h1").inner_text() != before
    assert contexts.problems == []
