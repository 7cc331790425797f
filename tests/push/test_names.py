"""Every string with a player's name reads right whatever the name is: a real one, a long one, none (the
catalog's "your opponent" / "an unnamed player") or the computer ("the computer" / "the computer, level 3").

Each such string is rendered in sw, tl and en with each stand-in, as the notifications and the pages fill it,
and checked against the catalog's own stand-in forms: the stand-in appears as the catalog writes it, the
sentence starts with a capital, and none of the slips a native reader found is there (tl "ni"/"kay" before a
stand-in, a Swahili verb that agrees with a person on the computer, an English capital mid-sentence).
"""

from __future__ import annotations

import re

import pytest

LANGS = ("sw", "tl", "en")
LONGEST = "Bartholomew-Kamau Ndege"  # 24 characters, the longest name a player can choose
assert len(LONGEST) <= 24
#: What a stand-in must never follow or do, per language (the native review of 2026-12-04, finding 10).
SLIPS = {
    "tl": r"\b(ni|kay|Ni|Kay) (walang pangalan|manlalarong walang pangalan|computer|ang computer)\b",
    "sw": r"\b[Kk]ompyuta(, ngazi ya \d)? (a|wa)(me|na|li|ta)[a-z]+",
    "en": r"(?<=\w )(Your opponent|The computer|An unnamed player)\b",
}


def slips(lang: str, sentence: str) -> list[str]:
    found = [m.group(0) for m in re.finditer(SLIPS[lang], sentence)]
    if "%(" in sentence:
        found.append("unfilled placeholder")
    if sentence[:1] != sentence[:1].upper():
        found.append("starts in lower case")
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_every_notification_reads_right_with_every_name(catalogs, lang):
    from notify.domain.texts import ANONYMOUS, BY_THE_COMPUTER, COMPUTER, MESSAGES, PERSON_ONLY, text, translations

    t = translations(lang)
    anonymous, computer = t.gettext(ANONYMOUS), t.gettext(COMPUTER)
    checked = 0
    for message, (_, body) in MESSAGES.items():
        if "%(opponent)s" not in body:
            continue
        cases: list[tuple[str | None, bool, str | None]] = [
            ("Zawadi", False, "Zawadi"),
            (LONGEST, False, LONGEST),
            (None, False, anonymous),
        ]
        if message not in PERSON_ONLY:
            cases.append((None, True, None if message in BY_THE_COMPUTER else computer))
        for name, by_computer, shown in cases:
            words = text(message, lang, "chess", name, "e4", computer=by_computer).body
            assert slips(lang, words) == [], (lang, message, words)
            if shown is None:  # the computer's own sentence, as the catalog writes it
                assert words == t.gettext(BY_THE_COMPUTER[message]) % {"move": "e4", "game": t.gettext("Chess")}
            else:
                assert shown.lower() in words.lower(), (lang, message, words)
            checked += 1
    assert checked >= 36


@pytest.mark.parametrize("lang", LANGS)
def test_the_pages_name_strings_read_right_with_every_name(catalogs, lang):
    import build_site
    from play_messages import PLAY_MESSAGES

    t = build_site.translations(lang)
    stand_ins = [t.gettext(PLAY_MESSAGES["anonymous"]), t.gettext(PLAY_MESSAGES["computer_level"]) % {"level": 3}]
    for key in ("vs", "lobby_seeker"):
        for name in ("Zawadi", LONGEST, *stand_ins):
            words = t.gettext(PLAY_MESSAGES[key]) % {"name": name, "rating": "1500"}
            words = words[:1].upper() + words[1:]  # the pages show these after a title or alone
            assert slips(lang, words) == [] and name.lower() in words.lower(), (lang, key, words)


@pytest.mark.parametrize(
    ("lang", "planted"),
    [
        ("tl", "Tinanggap ni walang pangalan ang hamon mo"),
        ("tl", "Tingnan ang laro mo laban kay computer."),
        ("sw", "Kompyuta amecheza e4 katika Chesi."),
        ("en", "You won your game of Chess against Your opponent."),
        ("en", "your opponent played e4 in Chess."),
    ],
)
def test_a_planted_slip_is_found(lang, planted):
    assert slips(lang, planted)


@pytest.mark.parametrize("lang", ("sw", "tl"))
def test_every_name_placeholder_has_a_translator_comment(lang):
    from babel.messages.pofile import read_po

    from local.template import ROOT

    with (ROOT / "site" / "locale" / "messages.pot").open("rb") as handle:
        template = read_po(handle)
    named = [m for m in template if m.id and re.search(r"%\((opponent|name)\)s", str(m.id))]
    assert len(named) >= 13
    # Python keeps the "TRANSLATORS:" tag in the comment, Jinja drops it: either way the comment names the placeholder.
    said = [m.id for m in named if any(re.search(r"TRANSLATORS|%\((opponent|name)\)s", c) for c in m.auto_comments)]
    assert [m.id for m in named if m.id not in said] == []
