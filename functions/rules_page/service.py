"""The rules page for a game in a language: the very templates and content of the static site (site/).

The site's builder (``site/build_site.py``) renders the page; this module only finds it, chooses the
language and keeps the rendered pages (a page depends on nothing but the deployment, so it is rendered
once per instance). This is the one function that ships Jinja; the catalogs arrive compiled, so it reads
them with the standard library (no Babel at run time).
"""

from __future__ import annotations

import hashlib
import os
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from rules_page.domain import RulesPage, UnknownRulesPage, UnsupportedLanguage
from shared_rules.names import GAME_NAMES, LANGUAGES

LANGS = LANGUAGES
DEFAULT_LANG = LANGUAGES[0]
GAMES = GAME_NAMES
#: Where the site's sources are: $UBAO_SITE_SOURCE, the package's copy (site_source/), or the repository's site/.
_HERE = Path(__file__).resolve().parent


def site_source() -> Path:
    candidates = [os.environ.get("UBAO_SITE_SOURCE"), _HERE.parent / "site_source", _HERE.parents[1] / "site"]
    for candidate in candidates:
        if candidate and (Path(candidate) / "build_site.py").is_file():
            return Path(candidate)
    raise RuntimeError("the site's sources (build_site.py, templates, content, locale) are not deployed")


@lru_cache(maxsize=4)  # one base URL in practice; bounded so odd Host headers cannot pile up builders
def _builder(base_url: str) -> Any:
    source = str(site_source())
    if source not in sys.path:
        sys.path.insert(0, source)
    import build_site  # the site's builder: one source of templates, content and catalogs

    return build_site, build_site.Builder(base_url)


def choose_language(lang: str | None, accept_language: str | None) -> str:
    """``lang`` when given (it must be one of ours), else the best of Accept-Language, else Swahili."""
    if lang is not None:
        key = lang.strip().lower()
        if key not in LANGS:
            raise UnsupportedLanguage(f"lang must be one of {', '.join(LANGS)}, not {lang[:20]!r}")
        return key
    return _from_accept_language(accept_language or "")


def _from_accept_language(header: str) -> str:
    choices = []
    for position, item in enumerate(header.split(",")[:20]):
        tag, _, params = item.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        primary = tag.strip().lower().split("-")[0]
        if primary == "fil":  # Filipino readers get the Tagalog pages
            primary = "tl"
        if primary in LANGS and quality > 0:
            choices.append((-quality, position, primary))
    return min(choices)[2] if choices else DEFAULT_LANG


@lru_cache(maxsize=64)
def rules_page(game: str, lang: str, base_url: str) -> RulesPage:
    if game not in GAMES:
        raise UnknownRulesPage(f"there is no rules page for {game[:40]!r}; choose one of {', '.join(GAMES)}")
    build_site, builder = _builder(base_url)
    page = build_site.PAGES_BY_KEY[f"sheria/{game}"]
    html = builder.render(page, lang)
    etag = '"' + hashlib.sha256(html.encode()).hexdigest()[:32] + '"'
    return RulesPage(lang, html, etag)
