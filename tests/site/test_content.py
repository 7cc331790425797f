"""The rules pages state every rule of the seeds and every table option with its default, in every language."""

from __future__ import annotations

import html
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


RATED_GAMES = (
    "A game may be rated: its end changes both players' ratings, and a draw counts as half a win. Games against "
    "the computer, or from a set-up position, are never rated."
)


def test_site_settings_describe_only_what_the_site_does(built):
    # The settings table tells the truth: the correspondence deadline (1 to 14 days) and what a missed one
    # does, the live tables' 30- and 60-second turns and the computer playing on for a player who left, that a
    # game may be rated (a draw half a win; never against the computer). Nothing is "not yet on this site".
    for lang in LANGS:
        t = build_site.translations(lang)
        for game in GAMES:
            page = built.pages[f"/{lang}/sheria/{game}/"]
            settings = page.html.split('<section id="settings">', 1)[1].split("</section>", 1)[0]
            rows = {
                html.unescape(name): html.unescape(text)
                for name, text in re.findall(r'<tr><th scope="row">([^<]+)</th><td>([^<]+)</td></tr>', settings)
            }
            assert len(rows) == settings.count('<th scope="row">') == 7, (lang, game)
            assert t.gettext("Not yet on this site") not in rows
            rated = rows.pop(t.gettext("Rated games"))
            assert rated == t.gettext(RATED_GAMES) and (lang == "en" or rated != RATED_GAMES), lang
            turn = rows.pop(t.gettext("Live table: seconds per turn"))
            assert "30" in turn and "60" in turn, (lang, turn)
            assert rows.pop(t.gettext("If a player leaves a live table")), lang
            rest = " ".join(rows.values())
            assert "14" in rest and t.gettext("If a player misses the deadline") in rows
            for promise in ("30", "60", "ranked", "rating"):
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


# Slips a native reader found once, each with the word ubao uses instead (docs/glossary-choices.md). They are
# searched in everything a page can show: the content files (rules, lessons, hints, reasons) and the catalogs.
SLIPS = {
    "sw": {
        r"\bkutisha\b|\binamtisha\b": "kutishia (threaten), not kutisha (frighten)",
        r"\binamjibu\b": "kompyuta inacheza kwa niaba ya ...",
        r"\bZikiwepo\b": "Zikiwapo",
        r"\bkukamat|\bkukamatwa\b": "kula / kuliwa on draughts pages",
        r"\bIla kete\b": "Kula kete (Ila reads as 'but')",
        # the native review of 2026-12-04 (../shared/reviews/native-2026-12-04.md)
        r"\binakuchezea\b": "Kompyuta inacheza kwa niaba yako (kukuchezea: to toy with you)",
        r"baada ya hatua %\(n\)s": "ndani ya hatua %(n)s (within, not after)",
        r"\bmawasiliano\b": "mchezo wa taratibu (mawasiliano is 'communication')",
        r"\bkiwango\b(?! rasmi tzd-8x8-v1)": "ukadiriaji (rating), ngazi (level), Kiwango Rasmi TZD-8x8-v1 (the standard)",
        r"(?<!\bya )(?<!\bwa )\bviwango\b": "michezo ya viwango (ranked games), ukadiriaji (ratings)",
        r"\buma\b|\bmshikaki\b|\bkujitolea\b": "shambulio la pande mbili, shambulio la mstari, kafara",
        r"\bshinda vipande\b|^shinda mchezo$": "jipatie kete zaidi, kushinda mchezo (a theme is no command)",
        r"\bmkamate\b|\baliye peke\b": "inasa kingi iliyo peke yake",
        r"\biruke\b": "irukwe (to be jumped)",
        r"\bUugeuze\b|\bhuchezewa\b|\bKwa bahati$|\bkuchagua ula\b": "Geuza ubao, hutumika, Kwa bahati nasibu, njia ya kula",
        r"\bPool checkers\b": "Dama ya pool",
        r"\b(ku|hu|ina|ili|ita|ame)(m|ku)chezea\b": "kucheza kwa niaba ya (kuchezea: to toy with)",
        r"\bkipengee\b|\bvipengee\b": "kipengele / vipengele",
    },
    "tl": {
        r"\bpagkain\b": "kain / kumain (pagkain reads as 'food')",
        r"\bhanggang saan walang harang\b": "gaano man kalayo basta walang harang",
        r"\bdeadline\b": "takdang oras",
        r"\barrow\b": "palaso",
        r"\bzero\b": "magsisimula muli",
        r"Laws of Chess": "Mga Patakaran ng Chess ng FIDE",
        r"\btira por tira\b": "isa-isang tira",
        # the native review of 2026-12-04
        r"\bni %\(opponent\)|\bkay (%\((opponent|name|who)\)|\{(name|black)\})|\bni walang pangalan\b|\bkay (ang )?computer\b": (
            "ng kalaban mo (%(opponent)s), Kalaban: ... (a name may be a stand-in)"
        ),
        r"^Ulitin$": "Magsimula ulit",
        r"\bipanalo ang laro\b": "manalo sa laro",
        r"\bbabagsakan\b": "lapagan",
        r"\bsa default\b": "bilang default",
        r"\btirang pansamantala\b": "tirang pasingit",
        r"\bchine-check\b": "nagche-check",
        r"\bikatlong beses\b": "ikatlong pagkakataon",
        r"\bPool checkers\b|\bDama ng Russia\b": "Pool na dama, Dama ng Rusya",
        r"\bkunin ang pinakamarami|\bkumuha ng dalawa\b": "kainin ang pinakamarami, kumain ng dalawa (draughts eat)",
    },
}


def shown_words(lang: str) -> str:
    from babel.messages.pofile import read_po

    root = build_site.SITE
    texts = [file.read_text(encoding="utf-8") for file in sorted((root / "content" / lang).glob("*.yaml"))]
    with (root / "locale" / lang / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        for message in read_po(handle):
            forms = message.string if isinstance(message.string, (list, tuple)) else [message.string]
            texts.extend(form for form in forms if message.id and form)
    return "\n".join(texts)


@pytest.mark.parametrize("lang", ["sw", "tl"])
def test_no_slip_a_native_reader_found_is_back(lang):
    words = shown_words(lang)
    found = {
        pattern: use for pattern, use in SLIPS[lang].items() if re.search(pattern, words, re.IGNORECASE | re.MULTILINE)
    }
    assert found == {}


def test_a_slip_put_back_is_found():
    # One of the slips above, planted in what a page shows, fails the check.
    planted = "Lengo: mfalme hawezi kuokoka baada ya hatua %(n)s.\nKompyuta, kiwango 3"
    found = [p for p in SLIPS["sw"] if re.search(p, planted, re.IGNORECASE | re.MULTILINE)]
    assert len(found) == 2
    assert not [p for p in SLIPS["sw"] if re.search(p, "Kiwango Rasmi TZD-8x8-v1; michezo ya viwango", re.I | re.M)]


#: Swahili names a piece by its game (docs/glossary-choices.md): kipande in chess, kete in draughts.
WRONG_PIECE = {"chess": r"\bkete\b", "english": r"\b(kipande|vipande)\b", "tanzanian": r"\b(kipande|vipande)\b"}


@pytest.mark.parametrize("game", GAMES)
def test_swahili_pages_name_the_pieces_of_their_own_game(built, game):
    for kind in ("sheria", "jifunze"):
        text = " ".join(built.pages[f"/sw/{kind}/{game}/"].text_parts)
        assert re.findall(rf".{{0,50}}{WRONG_PIECE[game]}.{{0,30}}", text, re.IGNORECASE) == [], (kind, game)
