"""The site's languages and their gettext catalogs (site/locale/{lang}/LC_MESSAGES/messages.po).

Every page, the scripts' messages and the rules-page function read translations through ``translations``.
``N_``, ``NP_`` and ``NC_`` mark strings for ``make messages`` where they are defined; they are translated where shown.
"""

from __future__ import annotations

import gettext
import os
from functools import cache
from pathlib import Path

from shared_rules.names import LANGUAGES

LOCALE = Path(__file__).resolve().parent / "locale"

LANGS = LANGUAGES
DEFAULT_LANG = LANGUAGES[0]
#: Each language named in itself, as the switcher shows it.
LANG_NAMES = {"sw": "Kiswahili", "tl": "Tagalog", "en": "English"}
#: The CLDR locale behind each site language (Babel knows Tagalog as Filipino, ``fil``).
CLDR_LOCALE = {"sw": "sw", "tl": "fil", "en": "en"}


def N_(message: str) -> str:
    """Mark a string for extraction; it is translated where it is shown."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a plural pair for extraction (``pybabel extract -k NP_:1,2``)."""
    return singular, plural


def NC_(context: str, message: str) -> tuple[str, str]:
    """Mark a string with its context (a ``msgctxt``) for extraction (``pybabel extract -k NC_:1c,2``); translated
    with ``pgettext``."""
    return context, message


def compile_catalogs() -> None:
    """Compile each messages.po to messages.mo (not committed) when the .po is newer. Needs Babel (build time)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for lang in LANGS:
        po = LOCALE / lang / "LC_MESSAGES" / "messages.po"
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as source:
            catalog = read_po(source, locale=CLDR_LOCALE[lang])
        # Write aside, then rename: a build or test running at the same time never reads half a file.
        partial = mo.with_suffix(f".{os.getpid()}.tmp")
        with partial.open("wb") as target:
            write_mo(target, catalog)
        os.replace(partial, mo)


@cache
def translations(lang: str) -> gettext.GNUTranslations:
    """The compiled catalog of a language. At build time it is compiled first; the rules-page function
    ships compiled catalogs and reads them with the standard library alone (no Babel at run time)."""
    if os.environ.get("UBAO_SITE_COMPILE", "1") != "0":
        compile_catalogs()
    return gettext.translation("messages", localedir=str(LOCALE), languages=[lang])


def plural_example(lang: str, category: str) -> int:
    """The smallest whole number that CLDR puts in ``category`` for the language (for the scripts' forms)."""
    from babel import Locale

    rule = Locale.parse(CLDR_LOCALE[lang]).plural_form
    return next(n for n in range(0, 100) if rule(n) == category)
