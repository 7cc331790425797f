"""Build the static site (Sheria, Jifunze, Fumbo, Mchezo) in Swahili, Tagalog and English into site/build/.

    .venv/bin/python site/build_site.py [--out DIR] [--base-url URL]

UI strings come from the gettext catalogs in site/locale (compiled here to .mo), rules and lessons from
site/content/{lang}/{game}.yaml, diagrams and exercises from the rules layer (site/diagrams.py,
site/exercises.py). The rules-page function renders the same templates through ``render_page``.
"""

from __future__ import annotations

import argparse
import gettext
import gzip
import json
import os
import re
import shutil
import sys
import time
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import groupby
from pathlib import Path

import yaml
from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup, escape

SITE = Path(__file__).resolve().parent
if str(SITE) not in sys.path:
    sys.path.insert(0, str(SITE))

import assets  # noqa: E402  (site/ is not a package: its name would shadow the stdlib's ``site``)
import diagrams  # noqa: E402
import exercises  # noqa: E402
import fumbo_messages  # noqa: E402
import play_messages  # noqa: E402

from shared_rules import option_specs  # noqa: E402

TEMPLATES = SITE / "templates"
CONTENT = SITE / "content"
LOCALE = SITE / "locale"
STATIC = SITE / "static"
#: A module script's hashed address in a rendered template block.
SCRIPT_SRC = re.compile(r'<script type="module" src="(/static/[\w.-]+\.js)"')
DEFAULT_OUT = SITE / "build"
DEFAULT_BASE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:3000")

LANGS = ("sw", "tl", "en")
DEFAULT_LANG = "sw"
#: Each language named in itself, as the switcher shows it.
LANG_NAMES = {"sw": "Kiswahili", "tl": "Tagalog", "en": "English"}
#: The CLDR locale behind each site language (Babel knows Tagalog as Filipino, ``fil``).
CLDR_LOCALE = {"sw": "sw", "tl": "fil", "en": "en"}
GAMES = ("chess", "english", "tanzanian")


def N_(message: str) -> str:
    """Mark a string for extraction; it is translated where it is shown."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a plural pair for extraction (``pybabel extract -k NP_:1,2``)."""
    return singular, plural


GAME_TITLES = {"chess": N_("Chess"), "english": N_("English draughts"), "tanzanian": N_("Tanzanian draughts")}

#: The sections every Sheria page of a game must have, in every language: one per rule of the seeds.
RULE_SECTIONS = {
    "chess": (
        "setup",
        "turns",
        "pieces",
        "castling",
        "en-passant",
        "promotion",
        "check",
        "checkmate",
        "stalemate",
        "draws",
        "resigning",
        "time-loss",
    ),
    "english": (
        "setup",
        "men",
        "capturing",
        "mandatory-capture",
        "multi-capture",
        "kings",
        "crowning-ends-move",
        "no-passing",
        "winning",
        "draws",
        "time-loss",
        "other-rules",
    ),
    "tanzanian": (
        "setup",
        "men",
        "crowning",
        "flying-kings",
        "mandatory-capture",
        "multi-capture",
        "crowning-ends-move",
        "countdown",
        "time-loss",
        "winning",
        "draws",
    ),
}

# --------------------------------------------------------------------------------------------- options


@dataclass(frozen=True)
class OptionRow:
    key: str
    name: str  # msgid
    help: str  # msgid
    default: object  # True/False/None/int, shown as On/Off/None/number


#: Options of the table every game offers (site settings, not rules).
SITE_OPTIONS = (
    OptionRow(
        "show_legal_squares",
        N_("Show legal squares"),
        N_("Marks the squares the selected piece can reach (and, in draughts, the pieces it can take)."),
        True,
    ),
    OptionRow(
        "swap_who_starts",
        N_("Swap who starts"),
        N_("After each game the players change colours, so the one who began does not begin again."),
        True,
    ),
)

#: Names and explanations of the rules layer's table options (their defaults come from shared_rules).
RULE_OPTION_TEXT = {
    "mandatory_capture": (
        N_("Capture is mandatory"),
        N_(
            "When a capture is possible you must make one. Turn it off to allow any legal move "
            "instead; no piece is then removed for failing to capture."
        ),
    ),
    "move_limit": (
        N_("Move limit"),
        N_(
            "The game is a draw once this many moves have been played, counting the moves of both "
            "players. For tables that want to cut long games short."
        ),
    ),
    "threefold_repetition": (
        N_("Draw by threefold repetition"),
        N_("The game is a draw when the same position comes up for the third time with the same player to move."),
    ),
    "thirty_moves": (
        N_("Thirty-move rule"),
        N_("The game is a draw after 30 moves by each player with only kings on the board and no capture."),
    ),
}


def option_rows(game: str) -> list[OptionRow]:
    rows = []
    for spec in option_specs(game):
        name, help_text = RULE_OPTION_TEXT[spec.name]
        rows.append(OptionRow(spec.name, name, help_text, spec.default))
    return rows + list(SITE_OPTIONS)


# --------------------------------------------------------------------------------------------- strings for JS

#: Strings the scripts show, translated at build time and embedded in each page as JSON.
JS_MESSAGES = {
    "your_move": N_("Your move."),
    "correct": N_("Correct! Well done."),
    "wrong": N_("Not this time. Look again and try another move."),
    "try_again": N_("Try again"),
    "illegal": N_("That move is not allowed here."),
    "select_piece": N_("Select one of your pieces."),
    "selected": N_("Selected: %(square)s."),
    "moved": N_("Played: %(move)s."),
    "promote_to": N_("Promote to:"),
    "loading": N_("Loading…"),
    "network_error": N_("Could not reach the server. Check your connection and try again."),
    "puzzle_meta": N_("Puzzle rating %(rating)s · %(date)s"),
    "rating": N_("puzzle rating %(rating)s"),
    "puzzle_continue": N_("Good. Your opponent answered %(move)s. Your move again."),
    "exercise_reply": N_("Right. The computer answered %(move)s. Your move again."),
    "white_to_move": N_("White to move."),
    "black_to_move": N_("Black to move."),
    "red_to_move": N_("Red to move."),
    "waiting_opponent": N_("Waiting for your opponent to join."),
    "waiting_move": N_("Waiting for your opponent's move."),
    "your_turn": N_("Your turn."),
    "spectating": N_("You are watching this game."),
    "computer_plays_for_opponent": N_("The computer plays on for your opponent."),
    "computer_plays_for_you": N_("The computer is playing your seat. Take it back to play."),
    "link_copied": N_("Link copied. Send it to your friend."),
    "copy_failed": N_("Copy the link above and send it to your friend."),
    "joined": N_("You joined the game."),
    "draw_offered_by_you": N_("You offered a draw."),
    "draw_offered_to_you": N_("Your opponent offers a draw."),
    "result_white": N_("White won."),
    "result_black": N_("Black won."),
    "result_red": N_("Red won."),
    "result_draw": N_("The game is a draw."),
    "confirm_resign": N_("Resign this game?"),
    "white": N_("White"),
    "black": N_("Black"),
    "red": N_("Red"),
    "empty": N_("empty"),
    "piece_P": N_("white pawn"),
    "piece_N": N_("white knight"),
    "piece_B": N_("white bishop"),
    "piece_R": N_("white rook"),
    "piece_Q": N_("white queen"),
    "piece_K": N_("white king"),
    "piece_p": N_("black pawn"),
    "piece_n": N_("black knight"),
    "piece_b": N_("black bishop"),
    "piece_r": N_("black rook"),
    "piece_q": N_("black queen"),
    "piece_k": N_("black king"),
    "piece_wm": N_("white man"),
    "piece_wk": N_("white draughts king"),
    "piece_rm": N_("red man"),
    "piece_rk": N_("red king"),
    "piece_bm": N_("black man"),
    "piece_bk": N_("black draughts king"),
    "square_label": N_("%(square)s, %(piece)s"),
    "legal_here": N_("you can move here"),
    "reason_checkmate": N_("by checkmate"),
    "reason_stalemate": N_("by stalemate"),
    "reason_threefold_repetition": N_("by threefold repetition"),
    "reason_fifty_moves": N_("by the fifty-move rule"),
    "reason_insufficient_material": N_("because neither side can mate"),
    "reason_no_pieces": N_("because one side has no pieces left"),
    "reason_no_moves": N_("because one side cannot move"),
    "reason_forty_moves": N_("by the forty-move rule"),
    "reason_move_limit": N_("by the move limit"),
    "reason_three_kings_countdown": N_("by the three-kings countdown"),
    "reason_thirty_moves": N_("by the thirty-move rule"),
    "reason_resignation": N_("by resignation"),
    "reason_agreement": N_("by agreement"),
    "reason_timeout": N_("on time"),
}

#: Plural strings the scripts need: (singular, plural); the page gets the CLDR "one" and "other" forms.
JS_PLURALS = {
    "streak": NP_("%(num)d day in a row", "%(num)d days in a row"),
    "deadline_days": NP_("%(num)d day left for this move", "%(num)d days left for this move"),
    "solved_count": NP_("%(num)d puzzle solved", "%(num)d puzzles solved"),
}


# --------------------------------------------------------------------------------------------- catalogs


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


# --------------------------------------------------------------------------------------------- content


@cache
def content(lang: str, game: str) -> dict:
    with (CONTENT / lang / f"{game}.yaml").open(encoding="utf-8") as handle:
        return yaml.safe_load(handle)


_INLINE = [
    (re.compile(r"\*\*(.+?)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"`(.+?)`"), r"<code>\1</code>"),
]
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")


def markup(text: str, lang: str) -> Markup:
    """A small, safe subset of Markdown: paragraphs, '- ' lists, **bold**, `code`, [links](/{lang}/...).

    Within a block, each run of "- " lines is a list and each run of other lines a paragraph, so a lead
    line ("Castling is allowed only when:") followed by its items, and a closing line after them, render as
    a paragraph, a list and a paragraph."""
    blocks = re.split(r"\n\s*\n", (text or "").strip())
    out = []
    for block in blocks:
        lines = [line.strip() for line in block.splitlines() if line.strip()]
        for is_item, run in groupby(lines, key=lambda line: line.startswith("- ")):
            run = list(run)
            if is_item:
                items = "".join(f"<li>{_inline(line[2:], lang)}</li>" for line in run)
                out.append(f"<ul>{items}</ul>")
            else:
                out.append(f"<p>{_inline(' '.join(run), lang)}</p>")
    return Markup("\n".join(out))


def _inline(text: str, lang: str) -> str:
    result = str(escape(text))
    for pattern, replacement in _INLINE:
        result = pattern.sub(replacement, result)
    return _LINK.sub(lambda m: f'<a href="{m.group(2).replace("{lang}", lang)}">{m.group(1)}</a>', result)


# --------------------------------------------------------------------------------------------- pages


@dataclass(frozen=True)
class Page:
    key: str  # the same for a page's versions in every language, e.g. "sheria/chess"
    template: str
    game: str | None = None

    def path(self, lang: str | None) -> str:
        if lang is None:
            return "/"
        return f"/{lang}/" + (f"{self.key}/" if self.key != "home" else "")


CHOOSER = Page("chooser", "chooser.html")
PAGES = (
    Page("home", "home.html"),
    Page("sheria", "sheria_index.html"),
    *(Page(f"sheria/{game}", "sheria.html", game) for game in GAMES),
    Page("jifunze", "jifunze_index.html"),
    *(Page(f"jifunze/{game}", "jifunze.html", game) for game in GAMES),
    Page("fumbo", "fumbo.html"),
    Page("mchezo", "mchezo.html"),
)
PAGES_BY_KEY = {page.key: page for page in PAGES}
#: The games API's invite links open /game/?id=...#invite=...; that page forwards to /{lang}/mchezo/.
GAME_LINK_PATH = "/game/"


class Builder:
    """Renders pages; one instance per build (diagrams, exercises and asset hashes are computed once)."""

    def __init__(self, base_url: str = DEFAULT_BASE_URL):
        self.base_url = base_url.rstrip("/")
        self.drawings = diagrams.render_all()
        self.assets = assets.hashed_assets(STATIC)  # hashed names: served immutable (issue 12)
        self._envs: dict[str, Environment] = {}

    # The rules pages need none of these; the rules-page function never computes them.
    @cached_property
    def exercises(self) -> dict[str, list[dict]]:
        return {game: [exercises.solve(ex) for ex in exercises.EXERCISES[game]] for game in GAMES}

    @cached_property
    def square_maps(self) -> dict[str, dict]:
        return {game: exercises.square_map(game) for game in ("english", "tanzanian")}

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
            env.install_gettext_translations(translations(lang), newstyle=True)
            env.globals.update(
                LANGS=LANGS,
                LANG_NAMES=LANG_NAMES,
                GAMES=GAMES,
                GAME_TITLES=GAME_TITLES,
                asset=self.asset,
                module_preloads=self.module_preloads,
                manifest_url=assets.manifest_path(lang),
                markup=lambda text: markup(text, lang),
            )
            self._envs[lang] = env
        return self._envs[lang]

    def asset(self, name: str) -> str:
        return self.assets.url(name)

    def module_preloads(self, *html: str) -> list[str]:
        """The module graph of the scripts these rendered blocks load (issue 12: one round trip for all)."""
        return self.assets.module_graph(SCRIPT_SRC.findall("".join(html)))

    # ------------------------------------------------------------------ pages

    def alternates(self, page: Page) -> list[dict]:
        links = [{"hreflang": lang, "href": self.base_url + page.path(lang), "lang": lang} for lang in LANGS]
        default = "/" if page.key == "home" else page.path(DEFAULT_LANG)
        links.append({"hreflang": "x-default", "href": self.base_url + default, "lang": None})
        return links

    def render(self, page: Page, lang: str) -> str:
        env = self.env(lang)
        _ = env.globals["gettext"]
        context = {
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
        if page.key in ("sheria", "jifunze", "home"):
            context["summaries"] = {game: content(lang, game) for game in GAMES}
        config = context["js_config"]
        if config is None:
            return env.get_template(page.template).render(**context)
        config["lang"] = lang
        context["js_config"] = Markup(_json_for_script({**config, "messages": self.js_messages(lang)}))
        html = env.get_template(page.template).render(**context)
        # Only the messages the page's scripts name (issue 12: the config is a fifth of a game page's bytes).
        scripts = "".join(asset.original.decode() for asset in self.assets.loaded_by(SCRIPT_SRC.findall(html)))
        needed = {**config, "messages": messages_named(self.js_messages(lang), scripts)}
        return html.replace(str(context["js_config"]), _json_for_script(needed), 1)

    def render_chooser(self) -> str:
        env = self.env(DEFAULT_LANG)
        links = [{"hreflang": lang, "href": self.base_url + f"/{lang}/", "lang": lang} for lang in LANGS]
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

    def diagram(self, lang: str, game: str, key: str, prefix: str) -> dict:
        text = content(lang, game).get("diagrams", {}).get(key)
        if not text or not text.get("caption") or not text.get("alt"):
            raise ValueError(f"content/{lang}/{game}.yaml: diagram {key!r} needs a caption and alt text")
        drawing = self.drawings[key]
        return {
            "key": key,
            "svg": Markup(drawing.with_text(text["alt"], prefix)),
            "caption": markup(text["caption"], lang),
        }

    def _sheria(self, lang: str, game: str) -> dict:
        text = content(lang, game)["sheria"]
        ids = [section["id"] for section in text["sections"]]
        if tuple(ids) != RULE_SECTIONS[game]:
            raise ValueError(f"content/{lang}/{game}.yaml: Sheria sections {ids} must be {list(RULE_SECTIONS[game])}")
        sections = []
        for section in text["sections"]:
            sections.append(
                {
                    "id": section["id"],
                    "heading": section["heading"],
                    "body": markup(section["text"], lang),
                    "diagrams": [self.diagram(lang, game, key, f"d-{key}") for key in section.get("diagrams", ())],
                }
            )
        return {"text": text, "sections": sections, "options": option_rows(game)}

    def _jifunze(self, lang: str, game: str) -> dict:
        text = content(lang, game)["jifunze"]
        lessons = []
        for lesson in text["lessons"]:
            lessons.append(
                {
                    "id": lesson["id"],
                    "heading": lesson["heading"],
                    "body": markup(lesson["text"], lang),
                    "diagrams": [self.diagram(lang, game, key, f"d-{key}") for key in lesson.get("diagrams", ())],
                }
            )
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
            "exercises": [item["data"] for item in items],
        }
        return {"text": text, "lessons": lessons, "exercises": items, "js_config": config}

    def _position_svg(self, game: str, fen: str, flipped: bool) -> str:
        from shared_rules import get_game

        rules = get_game(game)
        position = rules.from_fen(fen)
        if game == "chess":
            return diagrams.chess_svg(position.board, flipped=flipped)
        return diagrams.draughts_svg(rules, position.state, flipped=flipped)

    def _fumbo(self, lang: str) -> dict:
        t = translations(lang)
        text = {key: t.gettext(value) for key, value in fumbo_messages.FUMBO_MESSAGES.items()}
        names = {key: t.gettext(value) for key, value in fumbo_messages.THEME_NAMES.items()}
        filters = {game: sorted(self.theme_filters[game], key=lambda theme: names.get(theme, theme)) for game in GAMES}
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

        filters = {}
        for game in GAMES:
            with open(SITE.parent / "puzzles" / f"{game}.jsonl", encoding="utf-8") as lines:
                counts = Counter(theme for line in lines if line.strip() for theme in json.loads(line)["themes"])
            filters[game] = [
                theme
                for theme, count in counts.items()
                if count >= fumbo_messages.FILTER_MIN_PUZZLES and theme not in fumbo_messages.LENGTH_THEMES
            ]
        return filters

    def _mchezo(self, lang: str) -> dict:
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
            "days": range(1, 15),
            "default_days": 3,
            "js_config": {"page": "mchezo", "games": list(GAMES), "squares": self.square_maps},
        }

    def js_messages(self, lang: str) -> dict:
        t = translations(lang)
        messages = {key: t.gettext(text) for key, text in {**JS_MESSAGES, **play_messages.PLAY_MESSAGES}.items()}
        one, other = plural_example(lang, "one"), plural_example(lang, "other")
        for key, (singular, plural) in {**JS_PLURALS, **play_messages.PLAY_PLURALS}.items():
            messages[key] = {
                "one": t.ngettext(singular, plural, one).replace("%(num)d", "{n}"),
                "other": t.ngettext(singular, plural, other).replace("%(num)d", "{n}"),
            }
        messages["plural_locale"] = CLDR_LOCALE[lang]
        messages["game_titles"] = {game: t.gettext(title) for game, title in GAME_TITLES.items()}
        return messages


def messages_named(messages: dict, code: str) -> dict:
    """The messages whose key ``code`` names: as a property (``m.key``), a string (``"key"``), or through a
    string of its start up to an underscore (``m["piece_" + piece]``, ``m[`reason_${reason}`]``). A script
    that builds a key any other way must name it whole somewhere, or the page will not carry it."""
    names = set(re.findall(r"""[.'"`]([A-Za-z_]\w*)""", code))
    return {
        key: text
        for key, text in messages.items()
        if key in names or any(key[: i + 1] in names for i, char in enumerate(key) if char == "_")
    }


def _json_for_script(data) -> str:
    """JSON safe inside <script type="application/json"> (no '</script>' can end it early)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


# --------------------------------------------------------------------------------------------- build


def all_page_paths() -> list[str]:
    pages = ["/", GAME_LINK_PATH] + [page.path(lang) for lang in LANGS for page in PAGES]
    return pages + [assets.offline_page_path(lang) for lang in LANGS]  # the service worker's (issue 12)


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


def build(out: Path = DEFAULT_OUT, base_url: str = DEFAULT_BASE_URL) -> dict:
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


# --------------------------------------------------------------------------------------------- offline (issue 12)

OFFLINE_PAGE = Page("offline", "offline.html")


def write_offline_files(builder: Builder, out: Path) -> None:
    """The hashed assets, the offline page and the web app manifest of each language, and /sw.js."""
    offline_pages, manifests = {}, {}
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
    assets.write_offline_files(out, builder.assets, manifests, offline_pages)


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
