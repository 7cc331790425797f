"""Every page exists in every language, names its language, links to its other versions, and parses."""

from __future__ import annotations

import gzip

import build_site
import html5lib
import pytest

LANGS = build_site.LANGS
KEYS = [page.key for page in build_site.PAGES]


GAME_LINK = build_site.GAME_LINK_PATH  # where invite links land; forwards to /{lang}/mchezo/


def expected_paths() -> list[str]:
    paths = ["/", GAME_LINK]
    for lang in LANGS:
        paths.append(f"/{lang}/")
        for key in KEYS:
            if key != "home":
                paths.append(f"/{lang}/{key}/")
        paths.append(f"/{lang}/offline/")  # what the service worker shows for a page never saved
    return paths


def test_every_page_exists_in_every_language(built):
    assert sorted(built.pages) == sorted(expected_paths())
    for game in ("chess", "english", "tanzanian"):
        for section in ("sheria", "jifunze"):
            for lang in LANGS:
                assert f"/{lang}/{section}/{game}/" in built.pages
    # the chooser, the game link and every page in every language (the offline pages are written with /sw.js)
    assert built.report["pages"] == len(expected_paths()) - len(LANGS) == 2 + len(KEYS) * len(LANGS)


@pytest.mark.parametrize("path", expected_paths())
def test_page_is_valid_html5(built, path):
    # html5lib in strict mode raises on every parse error the HTML standard defines.
    html5lib.HTMLParser(strict=True).parse(built.pages[path].html)


def language_pages(built):
    """Every page that has versions in the three languages, and the chooser."""
    return {path: page for path, page in built.pages.items() if path != GAME_LINK}


def test_lang_attribute_matches_the_path(built):
    for path, page in built.pages.items():
        expected = path.split("/")[1] if path not in ("/", GAME_LINK) else build_site.DEFAULT_LANG
        assert page.lang == expected, path


def test_canonical_is_the_absolute_url_of_the_page(built):
    for path, page in built.pages.items():
        assert page.canonical == built.base_url + path, path


def test_hreflang_lists_every_version_and_x_default(built):
    for path, page in language_pages(built).items():
        assert set(page.alternates) == {*LANGS, "x-default"}, path
        for lang in LANGS:
            other = page.alternates[lang]
            assert other.startswith(built.base_url + f"/{lang}/"), (path, other)
            assert built.resolve(other.removeprefix(built.base_url)), (path, other)
        if path != "/":
            # The version in the page's own language is the page itself.
            assert page.alternates[page.lang] == built.base_url + path


def test_hreflang_links_are_reciprocal(built):
    for path, page in language_pages(built).items():
        if path == "/":
            continue
        for lang in LANGS:
            other_path = page.alternates[lang].removeprefix(built.base_url)
            other = built.pages[other_path]
            assert other.alternates[page.lang] == built.base_url + path, (path, lang)
            assert other.alternates["x-default"] == page.alternates["x-default"], (path, lang)


def test_x_default_of_the_home_pages_is_the_language_chooser(built):
    for lang in LANGS:
        assert built.pages[f"/{lang}/"].alternates["x-default"] == built.base_url + "/"
    assert built.pages["/"].alternates["x-default"] == built.base_url + "/"


def switcher(page):
    return [(attrs.get("lang"), url) for tag, url, attrs in page.links if tag == "a" and attrs.get("hreflang")]


def test_language_switcher_keeps_the_page_and_names_each_language_in_itself(built):
    for path, page in language_pages(built).items():
        if path == "/":
            continue
        rest = path.split("/", 2)[2]
        assert switcher(page) == [(lang, f"/{lang}/{rest}") for lang in LANGS], path
        for name in ("Kiswahili", "Tagalog", "English"):
            assert name.lower() in page.text, path


def test_language_chooser_offers_each_language(built):
    chooser = built.pages["/"]
    assert switcher(chooser) == [(lang, f"/{lang}/") for lang in LANGS]
    for tagline in ("jifunze, tegua mafumbo", "matuto, lumutas ng palaisipan", "learn, solve puzzles"):
        assert tagline in chooser.text


def test_every_internal_link_resolves(built):
    for path, page in built.pages.items():
        for tag, url, _ in page.links:
            if url.startswith(("http://", "https://")):
                if url.startswith(built.base_url):
                    url = url.removeprefix(built.base_url)
                else:
                    pytest.fail(f"{path}: link to another site {url}")
            if url.startswith("data:"):
                continue
            if url.startswith("#"):
                assert url[1:] in page.ids or tag == "use", (path, url)
                continue
            assert url.startswith("/"), (path, url)
            target = built.resolve(url)
            assert target is not None, (path, url)
            if "#" in url and target.name == "index.html":
                fragment = url.split("#", 1)[1]
                target_path = url.split("#", 1)[0]
                assert fragment in built.pages[target_path].ids, (path, url)


def test_svg_references_point_to_ids_on_the_page(built):
    for path, page in built.pages.items():
        for tag, url, _ in page.links:
            if tag == "use":
                assert url.startswith("#") and url[1:] in page.ids, (path, url)


def test_ids_are_unique_on_each_page(built):
    for path, page in built.pages.items():
        seen = set()
        for element_id in page.ids:
            assert element_id not in seen, (path, element_id)
            seen.add(element_id)


def test_pages_are_light(built):
    # The page budget: each page under 60 KB transferred (gzip), apart from the shared CSS and scripts.
    for path, page in built.pages.items():
        assert len(gzip.compress(page.html.encode())) < 60 * 1024, path
    # Two style sheets: the shared one, and the play, game and community pages' own (Fumbo, Sheria and Jifunze
    # load only the first, which keeps their first visit inside the phone budget).
    assert sorted(path.name.split(".")[0] for path in (built.root / "static").glob("*.css")) == ["pages", "style"]


def test_no_web_fonts_or_outside_resources(built):
    for css_file in (built.root / "static").glob("*.css"):  # hashed names
        css = css_file.read_text()
        assert "@font-face" not in css and "url(" not in css, css_file.name
    for path, page in built.pages.items():
        for tag, url, attrs in page.links:
            if tag in ("link", "script", "img"):
                assert url.startswith(("/", "data:")) or (
                    tag == "link" and attrs.get("rel") in ("canonical", "alternate")
                ), (path, url)


def test_readable_without_javascript(built):
    # What a reader needs is in the HTML: the rules, the lessons with their answers, the diagrams.
    for lang in LANGS:
        for game in ("chess", "english", "tanzanian"):
            rules = built.pages[f"/{lang}/sheria/{game}/"]
            assert "<svg" in rules.html and "<figcaption>" in rules.html
            # The rules page needs no script; the one it has registers the service worker.
            scripts = [line for line in rules.html.splitlines() if "<script" in line]
            assert len(scripts) == 1 and '<script type="module" src="/static/offline.' in scripts[0], scripts
            lessons = built.pages[f"/{lang}/jifunze/{game}/"]
            embedded = built.exercises(f"/{lang}/jifunze/{game}/")
            assert lessons.html.count('<details class="hint">') == len(embedded)
            for exercise in embedded:
                assert exercise["answers"][0].lower() in lessons.text


def test_invite_links_land_on_a_page_that_opens_the_game_in_each_language(built):
    page = built.pages[GAME_LINK]
    assert '<meta name="robots" content="noindex">' in page.html
    assert page.alternates == {}  # not a language version of anything
    assert switcher(page) == [(lang, f"/{lang}/mchezo/") for lang in LANGS]
    for words in ("fungua mchezo kwa lugha hii", "buksan ang laro sa wikang ito", "open the game in this language"):
        assert words in page.text
