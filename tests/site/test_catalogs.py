"""The UI strings: extracted from the sources, translated in sw and tl, and plural forms by CLDR."""

from __future__ import annotations

import re
import subprocess
import sys

import build_site
import pytest
from babel.messages.pofile import read_po

from tests.site.conftest import ROOT

LOCALE = ROOT / "site" / "locale"
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


def catalog(lang: str):
    with (LOCALE / lang / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        return read_po(handle, locale=build_site.CLDR_LOCALE[lang])


def source_messages(tmp_path) -> set:
    """The msgids in the templates, site/*.py and functions/notify now, extracted the way `make messages` does."""
    pot = tmp_path / "messages.pot"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "babel.messages.frontend",
            "extract",
            "-F",
            "site/babel.cfg",
            "-k",
            "N_",
            "-k",
            "NP_:1,2",
            "-k",
            "NC_:1c,2",
            "--no-location",
            "-o",
            str(pot),
            "site",
            "functions/notify",
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    with pot.open("rb") as handle:
        return {message.id for message in read_po(handle) if message.id}


def test_catalogs_hold_every_string_of_the_sources(tmp_path):
    wanted = source_messages(tmp_path)
    assert len(wanted) > 150
    for lang in build_site.LANGS:
        have = {message.id for message in catalog(lang) if message.id}
        missing = wanted - have
        assert not missing, f"{lang}: run `make messages`; missing {sorted(missing, key=str)[:5]}"


@pytest.mark.parametrize("lang", ["sw", "tl"])
def test_every_string_is_translated(lang):
    untranslated = []
    for message in catalog(lang):
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        if message.fuzzy or not all(forms):
            untranslated.append(message.id)
    assert not untranslated, f"{lang}: {len(untranslated)} untranslated, e.g. {untranslated[:3]}"


@pytest.mark.parametrize("lang", ["sw", "tl"])
def test_translations_keep_their_placeholders(lang):
    for message in catalog(lang):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, (list, tuple)) else [message.id]
        forms = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        wanted = set(PLACEHOLDER.findall(ids[0]))
        for form in forms:
            assert set(PLACEHOLDER.findall(form)) == wanted, (lang, message.id, form)


def test_a_missing_translation_is_detected(tmp_path):
    # The check above must be able to fail: blank one string and read the catalog back.
    po = (LOCALE / "sw" / "LC_MESSAGES" / "messages.po").read_text(encoding="utf-8")
    broken = po.replace('msgstr "Sheria"', 'msgstr ""', 1)
    assert broken != po
    path = tmp_path / "messages.po"
    path.write_text(broken, encoding="utf-8")
    with path.open("rb") as handle:
        blank = [m.id for m in read_po(handle) if m.id and not m.string]
    assert blank == ["Rules"]


# ------------------------------------------------------------------ plural rules

TAGALOG_OTHER = [4, 6, 9, 14, 16, 19, 24, 26, 29, 104, 1009]
TAGALOG_ONE = [0, 1, 2, 3, 5, 7, 8, 10, 11, 12, 13, 15, 17, 20, 21, 100]


def test_tagalog_other_forms_link_the_number_with_na():
    # "4 na araw", "6 na segundo": every Tagalog plural whose number comes before a noun takes "na" in the
    # "other" form (numbers ending in 4, 6 or 9) and not in the "one" form.
    linked = []
    for message in catalog("tl"):
        if isinstance(message.id, (list, tuple)) and "%(num)" in message.string[0]:
            one, other = message.string
            linked.append((one, other))
            assert re.search(r"%\(num\)[sd] na ", other) and not re.search(r"%\(num\)[sd] na ", one), (one, other)
    assert len(linked) >= 8


def test_tagalog_plural_forms_follow_cldr():
    # CLDR (Filipino): numbers ending in 4, 6 or 9 take the "other" form; all other whole numbers "one".
    t = build_site.translations("tl")
    for n in TAGALOG_OTHER:
        assert t.ngettext("%(num)s day", "%(num)s days", n) % {"num": n} == f"{n} na araw", n
    for n in TAGALOG_ONE:
        assert t.ngettext("%(num)s day", "%(num)s days", n) % {"num": n} == f"{n} araw", n


def test_swahili_and_english_plurals_differ_from_tagalog():
    sw, en = build_site.translations("sw"), build_site.translations("en")
    assert en.ngettext("%(num)d puzzle solved", "%(num)d puzzles solved", 1) % {"num": 1} == "1 puzzle solved"
    assert en.ngettext("%(num)d puzzle solved", "%(num)d puzzles solved", 4) % {"num": 4} == "4 puzzles solved"
    assert sw.ngettext("%(num)d puzzle solved", "%(num)d puzzles solved", 1) % {"num": 1} == "fumbo 1 limeteguliwa"
    assert sw.ngettext("%(num)d puzzle solved", "%(num)d puzzles solved", 2) % {"num": 2} == "mafumbo 2 yameteguliwa"
    assert sw.ngettext("%(num)d puzzle solved", "%(num)d puzzles solved", 3) % {"num": 3} == "mafumbo 3 yameteguliwa"


def test_days_menu_of_the_game_page_uses_the_plural_rules(built):
    import re as regex

    page = built.pages["/tl/mchezo/"]
    options = regex.findall(r'<option value="(\d+)"[^>]*>([^<]+)</option>', page.html)
    days = {int(value): text for value, text in options if value.isdigit()}
    assert days[1] == "1 araw" and days[3] == "3 araw" and days[5] == "5 araw"
    assert days[4] == "4 na araw" and days[6] == "6 na araw" and days[9] == "9 na araw" and days[14] == "14 na araw"
    english = dict(regex.findall(r'<option value="(\d+)"[^>]*>([^<]+)</option>', built.pages["/en/mchezo/"].html))
    assert english["1"] == "1 day" and english["2"] == "2 days"


def test_scripts_get_the_cldr_one_and_other_forms(built):
    tl = built.pages["/tl/fumbo/"].config["messages"]
    assert tl["plural_locale"] == "fil"
    assert tl["streak"] == {"one": "{n} araw nang sunod-sunod", "other": "{n} na araw nang sunod-sunod"}
    sw = built.pages["/sw/fumbo/"].config["messages"]
    assert sw["solved_count"] == {"one": "fumbo {n} limeteguliwa", "other": "mafumbo {n} yameteguliwa"}


# A pawn's promotion and a man's crowning share the theme key "promotion" but are two ideas, each with
# its own word (a msgctxt per game family in the catalogs; docs/glossary-choices.md).
THEME_PROMOTION = {
    "en": ("promotion", "crowning"),
    "sw": ("kupandisha askari", "kupandishwa kuwa kingi"),
    "tl": ("promotion", "pagpapahari"),
}


@pytest.mark.parametrize("lang", ["en", "sw", "tl"])
def test_promotion_and_crowning_themes_have_one_word_each(built, lang):
    names = built.pages[f"/{lang}/fumbo/"].config["theme_names"]
    chess, draughts = THEME_PROMOTION[lang]
    assert names["chess"]["promotion"] == chess
    assert names["english"]["promotion"] == names["tanzanian"]["promotion"] == draughts


def test_script_strings_are_translated_in_every_language():
    builder = build_site.Builder()
    english = builder.js_messages("en")
    for lang in ("sw", "tl"):
        messages = builder.js_messages(lang)
        assert set(messages) == set(english)
        for key in build_site.JS_MESSAGES:
            assert messages[key], (lang, key)
        differing = [key for key in build_site.JS_MESSAGES if messages[key] != english[key]]
        # Only the pure placeholders ("%(square)s, %(piece)s") read the same in every language.
        assert len(differing) >= len(build_site.JS_MESSAGES) - 1, lang
