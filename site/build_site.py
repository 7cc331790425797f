"""Build the static site (Sheria, Jifunze, Fumbo, Mchezo) in Swahili, Tagalog and English into site/build/.

    .venv/bin/python site/build_site.py [--out DIR] [--base-url URL]

UI strings come from the gettext catalogs in site/locale (compiled here to .mo), rules and lessons from
site/content/{lang}/{game}.yaml, diagrams and exercises from the rules layer (site/diagrams.py,
site/exercises.py). The rules-page function renders the same templates through ``render_page``.
"""

from __future__ import annotations

import argparse
import gzip
import shutil
import sys
import time
from functools import cache
from pathlib import Path
from typing import Any

SITE = Path(__file__).resolve().parent
if str(SITE) not in sys.path:
    sys.path.insert(0, str(SITE))

import assets  # noqa: E402  (site/ is not a package: its name would shadow the stdlib's ``site``)
from catalogs import CLDR_LOCALE, DEFAULT_LANG, LANGS, compile_catalogs, translations  # noqa: E402
from page_builder import DEFAULT_BASE_URL, Builder  # noqa: E402
from page_content import content, markup  # noqa: E402
from pages import GAME_LINK_PATH, GAMES, OFFLINE_PAGE, PAGES, PAGES_BY_KEY, all_page_paths  # noqa: E402
from rules_text import RULE_OPTION_TEXT, RULE_SECTIONS, SITE_OPTIONS  # noqa: E402
from script_messages import JS_MESSAGES, messages_named  # noqa: E402

#: What the rules-page function and the tests read here (each defined in the module named beside it).
__all__ = [
    "CLDR_LOCALE",
    "DEFAULT_LANG",
    "GAMES",
    "GAME_LINK_PATH",
    "JS_MESSAGES",
    "LANGS",
    "PAGES",
    "PAGES_BY_KEY",
    "RULE_OPTION_TEXT",
    "RULE_SECTIONS",
    "SITE_OPTIONS",
    "Builder",
    "all_page_paths",
    "build",
    "compile_catalogs",
    "content",
    "markup",
    "messages_named",
    "render_page",
    "translations",
]

DEFAULT_OUT = SITE / "build"


def render_page(path: str, base_url: str = DEFAULT_BASE_URL) -> str:
    """One page by its path (``/sw/sheria/chess/``): what the rules-page function serves."""
    builder = _builder(base_url)
    if path == "/":
        return builder.render_chooser()
    if path == GAME_LINK_PATH:
        return builder.render_game_link()
    for lang in LANGS:
        for page in PAGES:
            if page.path(lang) == path:
                return builder.render(page, lang)
    raise KeyError(path)


@cache
def _builder(base_url: str) -> Builder:
    return Builder(base_url)


def build(out: Path = DEFAULT_OUT, base_url: str = DEFAULT_BASE_URL) -> dict[str, Any]:
    """Write every page and the static files into ``out``; returns page count, bytes and seconds."""
    started = time.perf_counter()
    builder = Builder(base_url)
    if out.exists():
        shutil.rmtree(out)
    (out / "static").mkdir(parents=True)
    written = {"/": builder.render_chooser(), GAME_LINK_PATH: builder.render_game_link()}
    for lang in LANGS:
        for page in PAGES:
            written[page.path(lang)] = builder.render(page, lang)
    for path, text in written.items():
        target = out / path.strip("/") / "index.html" if path != "/" else out / "index.html"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    write_offline_files(builder, out)
    largest = max(len(gzip.compress(text.encode())) for text in written.values())
    return {"pages": len(written), "largest_gzip_bytes": largest, "seconds": time.perf_counter() - started}


def write_offline_files(builder: Builder, out: Path) -> None:
    """The hashed assets, the offline page and the web app manifest of each language, and /sw.js."""
    offline_pages: dict[str, str] = {}
    manifests: dict[str, dict[str, Any]] = {}
    for lang in LANGS:
        offline_pages[lang] = builder.render(OFFLINE_PAGE, lang)
        target = out / assets.offline_page_path(lang).strip("/") / "index.html"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(offline_pages[lang], encoding="utf-8")
        t = translations(lang)
        manifests[lang] = assets.manifest(
            lang,
            name=t.gettext("ubao: chess and draughts"),
            short_name="ubao",
            description=t.gettext("Learn, solve puzzles and play chess and draughts."),
            assets=builder.assets,
        )
    assets.write_offline_files(out, builder.built_assets(), manifests, offline_pages)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (default site/build)")
    parser.add_argument("--base-url", default=DEFAULT_BASE_URL, help="absolute origin for canonical/hreflang URLs")
    args = parser.parse_args(argv)
    report = build(args.out, args.base_url)
    print(
        f"built {report['pages']} pages into {args.out} in {report['seconds']:.2f}s "
        f"(largest page {report['largest_gzip_bytes'] / 1024:.1f} KB gzipped)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
