"""The rules pages state every rule of the seeds and every table option with its default, in every language."""

from __future__ import annotations

import re

import build_site
import pytest

from shared_rules import option_specs

LANGS = build_site.LANGS
GAMES = build_site.GAMES


def section_ids(page) -> list[str]:
    return re.findall(r'<section id="([\w-]+)">', page.html)


@pytest.mark.parametrize("game", GAMES)
def test_rules_pages_have_the_same_rule_sections_in_every_language(built, game):
    for lang in LANGS:
        ids = section_ids(built.pages[f"/{lang}/sheria/{game}/"])
        assert ids == [*build_site.RULE_SECTIONS[game], "options", "settings", "faq"], lang


@pytest.mark.parametrize("game", GAMES)
def test_lessons_have_the_same_sections_in_every_language(built, game):
    sections = {lang: section_ids(built.pages[f"/{lang}/jifunze/{game}/"]) for lang in LANGS}
    assert sections["sw"] == sections["tl"] == sections["en"]
    assert sections["en"][-1] == "exercises" and len(sections["en"]) >= 4


def option_table(page) -> dict[str, str]:
    table = page.html.split('<section id="options">', 1)[1].split("</table>", 1)[0]
    cell = r"<td[^>]*>"  # a cell may carry its column's name for the phone layout (data-label)
    rows = re.findall(
        rf'<tr><th scope="row">([^<]+)</th>{cell}[^<]+</td>{cell}([^<]+)</td>{cell}[^<]+</td></tr>', table
    )
    return dict(rows)


@pytest.mark.parametrize("game", GAMES)
def test_option_tables_show_every_table_option_with_its_default(built, game):
    # The defaults come from the rules layer (shared_rules.option_specs) and the site's own settings.
    for lang in LANGS:
        t = build_site.translations(lang)
        shown = {name: value for name, value in option_table(built.pages[f"/{lang}/sheria/{game}/"]).items()}
        expected = {}
        for spec in option_specs(game):
            name = t.gettext(build_site.RULE_OPTION_TEXT[spec.name][0])
            expected[name] = t.gettext({True: "On", False: "Off", None: "None"}.get(spec.default, str(spec.default)))
        for option in build_site.SITE_OPTIONS:
            expected[t.gettext(option.name)] = t.gettext("On")
        assert shown == expected, (lang, game)


def test_the_seed_table_options_and_their_defaults():
    # Seeds 001-003: show legal squares and swap who starts are on; mandatory capture on; no move limit.
    site = {option.key: option.default for option in build_site.SITE_OPTIONS}
    assert site == {"show_legal_squares": True, "swap_who_starts": True}
    english = {spec.name: spec.default for spec in option_specs("english")}
    assert english == {"mandatory_capture": True, "move_limit": None}
    assert option_specs("chess") == ()


def test_site_settings_describe_only_what_the_site_does(built):
    # The settings table tells the truth: the correspondence deadline (1 to 14 days) and what a missed deadline
    # does; the turn time limit of a live table (none by default, 30 or 60 seconds) and the computer playing
    # for a player who leaves one; ranked games, which do not exist yet, under "Not yet on this site".
    for lang in LANGS:
        t = build_site.translations(lang)
        for game in GAMES:
            page = built.pages[f"/{lang}/sheria/{game}/"]
            settings = page.html.split('<section id="settings">', 1)[1].split("</section>", 1)[0]
            rows = dict(re.findall(r'<tr><th scope="row">([^<]+)</th><td>([^<]+)</td></tr>', settings))
            assert len(rows) == settings.count('<th scope="row">') == 7, (lang, game)
            not_yet = rows.pop(t.gettext("Not yet on this site"))
            assert not_yet == t.gettext("Ranked games."), lang
            limit = rows.pop(t.gettext("Turn time limit"))
            assert "30" in limit and "60" in limit, (lang, limit)
            assert t.gettext("If a player leaves a live table") in rows
            rest = " ".join(rows.values())
            assert "14" in rest and t.gettext("If a player misses the deadline") in rows
            for promise in ("ranked", "rating"):
                assert promise not in rest.lower(), (lang, game, promise)
        assert "tzd-8x8-v1" in built.pages[f"/{lang}/sheria/tanzanian/"].text
        assert "tzdraft" in section_text(built.pages[f"/{lang}/sheria/tanzanian/"], "settings").lower()


# Facts of the seeds that carry a number, which must appear in the right section in every language.
NUMBERS = {
    ("chess", "setup"): ["16", "8"],
    ("chess", "draws"): [],
    ("english", "setup"): ["12", "32"],
    ("english", "draws"): ["40"],
    ("english", "other-rules"): ["40", "10×10", "20", "8×8"],
    ("tanzanian", "setup"): ["12", "8×8"],
    ("tanzanian", "countdown"): ["12", "13"],
}


def section_text(page, section_id: str) -> str:
    return page.html.split(f'<section id="{section_id}">', 1)[1].split("</section>", 1)[0]


@pytest.mark.parametrize("game,section", sorted(NUMBERS))
def test_rule_numbers_are_stated_in_every_language(built, game, section):
    for lang in LANGS:
        text = section_text(built.pages[f"/{lang}/sheria/{game}/"], section)
        for number in NUMBERS[(game, section)]:
            assert number in text, (lang, game, section, number)


def test_glossary_terms_are_used_in_swahili_and_tagalog(built):
    # One term per idea (docs/glossary-choices.md): draughts kings are "kingi" in Swahili and "hari" in
    # Tagalog, captures in draughts are "kula" / "kain", chess captures "kuteka" / "kunin".
    def text(lang, game):
        return built.pages[f"/{lang}/sheria/{game}/"].text

    for game in ("english", "tanzanian"):
        assert "kingi" in text("sw", game) and "mfalme" not in text("sw", game)
        assert "kula" in text("sw", game) and "kukamata" not in text("sw", game)
        assert "hari" in text("tl", game) and "kain" in text("tl", game)
    assert "kuteka" in text("sw", "chess") or "kiteka" in text("sw", "chess")
    rules = built.pages["/sw/sheria/chess/"].html.split('<section id="options">', 1)[0]
    assert "kete" not in rules.lower()  # chess pieces are "vipande"; "kete" belongs to draughts
    assert "dama" in text("tl", "english") and "dama" in text("tl", "tanzanian")
