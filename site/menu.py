"""The site's menu: every section of the seed site's menu, in its order, each reachable from every page in two
taps on a phone (the menu button, then the section).

An entry shows once a page with its key exists (``site/pages.py``): a section another issue builds (history,
tournaments, watch) appears in every page's menu when its page lands, with no change here. To add a section,
add its page to ``PAGES`` and, if it is new to the seed's menu, an entry below in the menu's order.
"""

from __future__ import annotations

from dataclasses import dataclass

from catalogs import N_
from pages import PAGES_BY_KEY


@dataclass(frozen=True)
class MenuEntry:
    key: str  # the page's key in ``PAGES``
    label: str  # the msgid of its name in the menu


#: The seed site's menu, in its order (the Swahili names are the seed's: Nyumbani, Cheza, Historia ya Michezo,
#: Orodha ya Ubora, Mashindano, Mafumbo, Tazama, Jamii, Jifunze, Sheria, Msaada, Masharti ya Huduma, Sera ya
#: Faragha).
MENU = (
    MenuEntry("home", N_("Home")),
    MenuEntry("mchezo", N_("Play")),
    MenuEntry("historia", N_("Game history")),
    MenuEntry("vinara", N_("Rating list")),
    MenuEntry("mashindano", N_("Tournaments")),
    MenuEntry("fumbo", N_("Puzzles")),
    MenuEntry("tazama", N_("Watch")),
    MenuEntry("jamii", N_("Community")),
    MenuEntry("jifunze", N_("Learn")),
    MenuEntry("sheria", N_("Rules")),
    MenuEntry("msaada", N_("Help")),
    MenuEntry("masharti", N_("Terms of service")),
    MenuEntry("faragha", N_("Privacy policy")),
)

#: The top bar's sections, beside the menu: also the offline page's links (each of them reads offline once opened).
TOP_BAR = ("sheria", "jifunze", "fumbo", "mchezo")


def menu_entries() -> list[MenuEntry]:
    """The entries whose page exists, in the menu's order."""
    return [entry for entry in MENU if entry.key in PAGES_BY_KEY]


def is_current(entry: MenuEntry, page_key: str) -> bool:
    """Whether ``page_key`` is the entry's section (``sheria/chess`` is in ``sheria``)."""
    return page_key == entry.key or page_key.startswith(entry.key + "/")


def top_bar_entries() -> list[MenuEntry]:
    """The top bar's entries, in its order."""
    by_key = {entry.key: entry for entry in MENU}
    return [by_key[key] for key in TOP_BAR]
