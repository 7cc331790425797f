"""The site's pages: each one's key, template and game, and its path in each language."""

from __future__ import annotations

from dataclasses import dataclass

import assets
from catalogs import LANGS

from shared_rules.names import GAME_NAMES

GAMES = GAME_NAMES  # the builder and the tests read the game names here


@dataclass(frozen=True)
class Page:
    key: str  # the same for a page's versions in every language, e.g. "sheria/chess"
    template: str
    game: str | None = None
    script: str | None = None  # the page's own script in site/static/, which base.html loads

    def path(self, lang: str | None) -> str:
        if lang is None:
            return "/"
        return f"/{lang}/" + (f"{self.key}/" if self.key != "home" else "")


CHOOSER = Page("chooser", "chooser.html")
PAGES = (
    Page("home", "home.html", script="friends.js"),
    Page("sheria", "sheria_index.html"),
    *(Page(f"sheria/{game}", "sheria.html", game) for game in GAMES),
    Page("jifunze", "jifunze_index.html"),
    *(Page(f"jifunze/{game}", "jifunze.html", game, script="jifunze.js") for game in GAMES),
    # push.js comes from offline.js after the load event: the switch is not needed to show the puzzles.
    Page("fumbo", "fumbo.html", script="fumbo.js"),
    # mchezo.js imports game.js and board.js (the open game) when a game is opened, inbox.js once the browser has
    # a player; game.js imports outbox.js when it loads a game; offline.js imports push.js after the load event:
    # the create form needs none of them (four files besides the page).
    Page("mchezo", "mchezo.html", script="mchezo.js"),
    Page("vinara", "vinara.html", script="vinara.js"),  # Swahili "leaders": the leaderboards
    Page("historia", "historia.html", script="historia.js"),  # Historia ya Michezo: the player's games (issue 41)
    Page("tazama", "tazama.html", script="tazama.js"),  # Swahili "watch": the games being played now (issue 41)
    Page(
        "mchezaji", "mchezaji.html", script="mchezaji.js"
    ),  # Swahili "player": a player's public profile, ?id= (issue 41)
    Page("mashindano", "mashindano.html", script="mashindano.js"),  # Mashindano: tournaments (issue 40)
    Page("jamii", "jamii.html", script="jamii.js"),  # community: follows and friends
    Page("jamii/klabu", "klabu.html", script="klabu.js"),  # clubs (vilabu): joined by invite code (issue 42)
    Page("msaada", "msaada.html", script="msaada.js"),  # help
    Page("masharti", "masharti.html"),  # terms of service
    Page("faragha", "faragha.html", script="faragha.js"),  # privacy policy
)
PAGES_BY_KEY = {page.key: page for page in PAGES}
#: The games API's invite links open /game/?id=...#invite=...; that page forwards to /{lang}/mchezo/.
GAME_LINK_PATH = "/game/"
#: The page every language has for reading offline (the service worker's fallback).
OFFLINE_PAGE = Page("offline", "offline.html")


def all_page_paths() -> list[str]:
    pages = ["/", GAME_LINK_PATH] + [page.path(lang) for lang in LANGS for page in PAGES]
    return pages + [assets.offline_page_path(lang) for lang in LANGS]  # the service worker's fallback pages
