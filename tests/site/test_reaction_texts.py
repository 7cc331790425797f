"""The game page words every reaction the games function accepts, and no other: the site's table and the
domain's fixed set are the same keys; each phrase is translated in sw and tl."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_page_words_exactly_the_reactions_the_server_accepts():
    sys.path.insert(0, str(ROOT / "site"))
    from games.domain.reactions import EMOJI, REACTIONS
    from play_messages import REACTION_TEXTS

    assert tuple(REACTION_TEXTS) == REACTIONS
    assert {key: text for key, text in REACTION_TEXTS.items() if not text.isascii()} == EMOJI


def test_each_phrase_reads_in_swahili_and_tagalog():
    sys.path.insert(0, str(ROOT / "site"))
    import catalogs
    from play_messages import REACTION_TEXTS

    phrases = [text for text in REACTION_TEXTS.values() if text.isascii()]
    for lang in ("sw", "tl"):
        words = catalogs.translations(lang).gettext
        assert all(words(text) != text for text in phrases), lang
    assert catalogs.translations("sw").gettext("Good game!") == "Mchezo mzuri!"
    assert catalogs.translations("tl").gettext("Well played!") == "Magaling!"
