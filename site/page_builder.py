"""``Builder``: renders every page of one build with Jinja (diagrams, exercises and asset hashes computed once).

build_site.py writes what it renders; the rules-page function renders Sheria pages through it on request.
"""

from __future__ import annotations

import json
import os
import re
from functools import cached_property
from pathlib import Path
from typing import Any

import about_pages
import assets
import diagrams
import exercises
import fumbo_messages
from catalogs import DEFAULT_LANG, LANG_NAMES, LANGS, translations
from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup
from menu import is_current, menu_entries, top_bar_entries
from page_content import content, markup
from pages import GAME_LINK_PATH, PAGES_BY_KEY, Page
from play_messages import REACTION_TEXTS
from rules_text import GAME_TITLES, RULE_OPTION_TEXT, RULE_SECTIONS, option_rows
from script_messages import js_messages, json_for_script, messages_named

from shared_rules import option_specs
from shared_rules.game_facts import all_game_facts, variant_rules
from shared_rules.names import COLOURS
from shared_rules.names import GAME_NAMES as GAMES

SITE = Path(__file__).resolve().parent
TEMPLATES = SITE / "templates"
STATIC = SITE / "static"
#: The origin of canonical and hreflang links (``make site`` takes SITE_URL).
DEFAULT_BASE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:3000")
#: A module script's hashed address in a rendered template block.
SCRIPT_SRC = re.compile(r'<script type="module" src="(/static/[\w.-]+\.js)"')
GAME_FACTS = all_game_facts()


class Builder:
    """Renders pages; one instance per build (diagrams, exercises and asset hashes are computed once)."""

    def __init__(self, base_url: str = DEFAULT_BASE_URL):
        self.base_url = base_url.rstrip("/")
        self.drawings = diagrams.render_all()
        self.assets = assets.hashed_assets(STATIC)  # hashed names: served immutable
        self._envs: dict[str, Environment] = {}

    # The rules pages need none of these; the rules-page function never computes them.
    @cached_property
    def exercises(self) -> dict[str, list[dict[str, Any]]]:
        return {game: [exercises.solve(ex) for ex in exercises.EXERCISES[game]] for game in GAMES}

    def exercise_url(self, game: str) -> str:
        """The URL of a game's solved exercises, one hashed JSON file. A lesson's page fetches it when its
        exercises come near (8-9 KB after Brotli for chess: a third of a first visit's budget), and the service
        worker precaches it with the shell, so a lesson seen once works offline."""
        source = f"exercises-{game}.json"
        if source not in self.assets.by_source:
            self.assets.add(source, json.dumps(self.exercises[game], separators=(",", ":")).encode())
        return self.assets.url(source)

    def built_assets(self) -> assets.Assets:
        """The hashed files of a whole build: site/static/'s and the lessons' exercises (which the rules-page
        function, rendering Sheria alone, never makes)."""
        for game in GAMES:
            self.exercise_url(game)
        return self.assets

    @cached_property
    def square_maps(self) -> dict[str, dict[str, Any]]:
        return {game: exercises.square_map(game) for game in GAMES if game != "chess"}  # the draughts boards

    @cached_property
    def sprite(self) -> Markup:
        return Markup(diagrams.piece_sprite())

    # ------------------------------------------------------------------ environment

    def env(self, lang: str) -> Environment:
        if lang not in self._envs:
            env = Environment(
                loader=FileSystemLoader(TEMPLATES),
                extensions=["jinja2.ext.i18n"],
                autoescape=True,
                trim_blocks=True,
                lstrip_blocks=True,
                undefined=StrictUndefined,
            )
            # The i18n extension adds this method to the environment at run time.
            env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
            env.globals.update(
                LANGS=LANGS,
                LANG_NAMES=LANG_NAMES,
                GAMES=GAMES,
                GAME_TITLES=GAME_TITLES,
                asset=self.asset,
                module_preloads=self.module_preloads,
                manifest_url=assets.manifest_path(lang),
                markup=lambda text: markup(text, lang),
                MENU=menu_entries(),
                TOP_BAR=top_bar_entries(),
                in_section=is_current,
            )
            self._envs[lang] = env
        return self._envs[lang]

    def asset(self, name: str) -> str:
        return self.assets.url(name)

    def module_preloads(self, *html: str) -> list[str]:
        """The module graph of the scripts these rendered blocks load (one round trip for all)."""
        return self.assets.module_graph(SCRIPT_SRC.findall("".join(html)))

    # ------------------------------------------------------------------ pages

    def alternates(self, page: Page) -> list[dict[str, str | None]]:
        links: list[dict[str, str | None]] = [
            {"hreflang": lang, "href": self.base_url + page.path(lang), "lang": lang} for lang in LANGS
        ]
        default = "/" if page.key == "home" else page.path(DEFAULT_LANG)
        links.append({"hreflang": "x-default", "href": self.base_url + default, "lang": None})
        return links

    def render(self, page: Page, lang: str) -> str:
        env = self.env(lang)
        _ = env.globals["gettext"]
        context: dict[str, Any] = {
            "lang": lang,
            "page": page,
            "path": page.path(lang),
            "canonical": self.base_url + page.path(lang),
            "alternates": self.alternates(page),
            "switcher": [
                {"lang": other, "name": LANG_NAMES[other], "href": page.path(other), "current": other == lang}
                for other in LANGS
            ],
            "url": lambda key, language=lang: PAGES_BY_KEY[key].path(language),
            "game": page.game,
            "js_config": None,
            "strip_errors": about_pages.strip_errors(),
            "sprite": self.sprite if page.key in ("fumbo", "mchezo") or page.key.startswith("jifunze/") else Markup(""),
        }
        if page.game and page.key.startswith("sheria/"):
            context.update(self._sheria(lang, page.game))
        elif page.game and page.key.startswith("jifunze/"):
            context.update(self._jifunze(lang, page.game))
        elif page.key == "mchezo":
            context.update(self._mchezo(lang))
        elif page.key == "fumbo":
            context.update(self._fumbo(lang))
        elif page.key == "mashindano":  # tournaments (issue 40): refusals and game titles from the config
            context["js_config"] = {"games": list(GAMES)}
        elif page.key in ("jamii", "jamii/klabu", "msaada", "masharti", "faragha"):
            context.update(about_pages.context(page.key))
        if page.key in ("sheria", "jifunze", "home"):
            context["summaries"] = {game: content(lang, game) for game in GAMES}
        config = context["js_config"]
        if config is None:
            return env.get_template(page.template).render(**context)
        config["lang"] = lang
        # What each game the page shows is like (who moves first, how moves are written): the scripts read
        # these instead of testing a game's name.
        config["game_facts"] = {game: GAME_FACTS[game] for game in config.get("games") or [config["game"]]}
        context["js_config"] = Markup(json_for_script({**config, "messages": self.js_messages(lang)}))
        html = env.get_template(page.template).render(**context)
        # Only the messages the page's scripts name (the config is a fifth of a game page's bytes).
        scripts = "".join(asset.code.decode() for asset in self.assets.loaded_by(SCRIPT_SRC.findall(html)))
        needed = {**config, "messages": messages_named(self.js_messages(lang), scripts)}
        return html.replace(str(context["js_config"]), json_for_script(needed), 1)

    def render_chooser(self) -> str:
        env = self.env(DEFAULT_LANG)
        links: list[dict[str, str | None]] = [
            {"hreflang": lang, "href": self.base_url + f"/{lang}/", "lang": lang} for lang in LANGS
        ]
        links.append({"hreflang": "x-default", "href": self.base_url + "/", "lang": None})
        choices = []
        for lang in LANGS:
            t = translations(lang)
            choices.append(
                {
                    "lang": lang,
                    "name": LANG_NAMES[lang],
                    "href": f"/{lang}/",
                    "tagline": t.gettext("Learn, solve puzzles and play chess and draughts."),
                    "choose": t.gettext("Choose your language"),
                }
            )
        return env.get_template("chooser.html").render(
            lang=DEFAULT_LANG,
            canonical=self.base_url + "/",
            alternates=links,
            choices=choices,
            path="/",
        )

    def render_game_link(self) -> str:
        """/game/: where the games API's invite links point; the reader's language then opens the game page."""
        env = self.env(DEFAULT_LANG)
        choices = [
            {
                "lang": lang,
                "name": LANG_NAMES[lang],
                "href": f"/{lang}/mchezo/",
                "open": translations(lang).gettext("Open the game in this language"),
                # The invite link's preview (Open Graph) in every language: a shared link shows it.
                "invite": translations(lang).gettext("You are invited to a game"),
                "tagline": translations(lang).gettext("Learn, solve puzzles and play chess and draughts."),
            }
            for lang in LANGS
        ]
        return env.get_template("game_link.html").render(
            lang=DEFAULT_LANG, canonical=self.base_url + GAME_LINK_PATH, choices=choices
        )

    def diagram(self, lang: str, game: str, key: str, prefix: str) -> dict[str, Any]:
        text = content(lang, game).get("diagrams", {}).get(key)
        if not text or not text.get("caption") or not text.get("alt"):
            raise ValueError(f"content/{lang}/{game}.yaml: diagram {key!r} needs a caption and alt text")
        drawing = self.drawings[key]
        return {
            "key": key,
            "svg": Markup(drawing.with_text(text["alt"], prefix)),
            "caption": markup(text["caption"], lang),
        }

    def _sheria(self, lang: str, game: str) -> dict[str, Any]:
        text = content(lang, game)["sheria"]
        ids = [section["id"] for section in text["sections"]]
        if tuple(ids) != RULE_SECTIONS[game]:
            raise ValueError(f"content/{lang}/{game}.yaml: Sheria sections {ids} must be {list(RULE_SECTIONS[game])}")
        sections = [self._article(lang, game, section) for section in text["sections"]]
        return {"text": text, "sections": sections, "options": option_rows(game)}

    def _article(self, lang: str, game: str, item: dict[str, Any]) -> dict[str, Any]:
        """A Sheria section or a lesson: its heading, its text as markup and its diagrams."""
        diagrams = [self.diagram(lang, game, key, f"d-{key}") for key in item.get("diagrams", ())]
        return {"id": item["id"], "heading": item["heading"], "body": markup(item["text"], lang), "diagrams": diagrams}

    def _jifunze(self, lang: str, game: str) -> dict[str, Any]:
        text = content(lang, game)["jifunze"]
        lessons = [self._article(lang, game, lesson) for lesson in text["lessons"]]
        items = []
        for solved in self.exercises[game]:
            words = text["exercises"].get(solved["key"])
            if not words or not all(words.get(k) for k in ("title", "task", "hint")):
                raise ValueError(f"content/{lang}/{game}.yaml: exercise {solved['key']!r} needs title, task, hint")
            flipped = solved["turn"] == "black"
            svg = self._position_svg(game, solved["fen"], flipped)
            prefix = f"x-{solved['key']}"
            drawing = diagrams.Drawing(prefix, game, svg, solved["fen"])
            items.append(
                {"data": solved, "words": words, "id": prefix, "svg": Markup(drawing.with_text(words["task"], prefix))}
            )
        config = {
            "page": "jifunze",
            "game": game,
            "squares": self.square_maps.get(game),
            "exercises_url": self.exercise_url(game),
        }
        return {"text": text, "sections": lessons, "exercises": items, "js_config": config}

    def _position_svg(self, game: str, fen: str, flipped: bool) -> str:
        return diagrams.position_svg(game, fen, flipped=flipped)

    def _fumbo(self, lang: str) -> dict[str, Any]:
        t = translations(lang)
        text = {key: t.gettext(value) for key, value in fumbo_messages.FUMBO_MESSAGES.items()}
        names = {game: fumbo_messages.theme_names(t.gettext, t.pgettext, game) for game in GAMES}
        filters = {
            game: sorted(self.theme_filters[game], key=lambda theme: names[game].get(theme, theme)) for game in GAMES
        }
        config = {"page": "fumbo", "games": list(GAMES), "squares": self.square_maps, "fumbo": text}
        return {
            "js_config": {**config, "theme_names": names},
            "theme_filters": filters,
            "theme_names": names,
        }

    @cached_property
    def theme_filters(self) -> dict[str, list[str]]:
        """Per game, the themes a player may pick (read from the puzzle sets when the site is built)."""
        from collections import Counter

        filters: dict[str, list[str]] = {}
        for game in GAMES:
            with open(SITE.parent / "puzzles" / f"{game}.jsonl", encoding="utf-8") as lines:
                counts = Counter(theme for line in lines if line.strip() for theme in json.loads(line)["themes"])
            filters[game] = [
                theme
                for theme, count in counts.items()
                if count >= fumbo_messages.FILTER_MIN_PUZZLES and theme not in fumbo_messages.LENGTH_THEMES
            ]
        return filters

    def _mchezo(self, lang: str) -> dict[str, Any]:
        options = {
            game: [
                {
                    "key": spec.name,
                    "kind": spec.kind.__name__,
                    "default": spec.default,
                    "minimum": spec.minimum,
                    "maximum": spec.maximum,
                    "name": RULE_OPTION_TEXT[spec.name][0],
                    "help": RULE_OPTION_TEXT[spec.name][1],
                }
                for spec in option_specs(game)
            ]
            for game in GAMES
        }
        return {
            "game_options": options,
            "reactions": REACTION_TEXTS,
            "days": range(1, 15),
            "default_days": 3,
            # A live table's turn limits, as the games function's options allow them (games.domain.options).
            "turn_seconds": (30, 60),
            "js_config": {
                "page": "mchezo",
                "games": list(GAMES),
                "colours": list(COLOURS),
                "squares": self.square_maps,
                # Pass-and-play's draughts rules are configured by each variant's description (shared_rules).
                "variants": {game: variant_rules(game) for game in GAMES if GAME_FACTS[game]["family"] == "draughts"},
            },
        }

    def js_messages(self, lang: str) -> dict[str, Any]:
        return js_messages(lang)
