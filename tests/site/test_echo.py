"""No seed sentence echoed: the native review's measure, stricter than test_seeds' near-copy check.

Every sentence or clause of 6 or more tokens on the built Sheria and Jifunze pages and in the sw, tl and en
catalogs is compared, as a token set, with every seed sentence of the same language (tests/site/near_copy.py
splits and normalises both). A Jaccard similarity of 0.5 or more is an echo: the seed's sentence with a few
words swapped, dropped or moved. ``EXCEPTIONS`` may name at most three sentences that cannot be said
otherwise (a rule's name, a label), each with its reason.
"""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

from tests.site.conftest import ROOT
from tests.site.near_copy import SeedSentences, paragraphs, sentences, similarity
from tests.site.test_seeds import SEEDS, page_language, read_seeds

ECHO = 0.5
SHORTEST = 6
#: (language, the sentence as the page words it) -> why it stays. At most three.
EXCEPTIONS: dict[tuple[str, str], str] = {}
LEARNING_PAGES = ("sheria", "jifunze")


@pytest.fixture(scope="module")
def seed_sentences() -> SeedSentences:
    read_seeds(SEEDS)  # skips, and says why, without the seeds
    return SeedSentences.read(SEEDS)


def echoes(seeds: SeedSentences, language: str, text: str) -> list[str]:
    """Each sentence of ``text`` (6 tokens or more) whose token set is within ``ECHO`` of a seed sentence."""
    found = []
    for words, sentence in sentences(text):
        if len(words) < SHORTEST or (language, sentence) in EXCEPTIONS:
            continue
        mine = frozenset(words)
        for seed_words, seed_text in seeds.by_language[language]:
            if similarity(mine, frozenset(seed_words)) >= ECHO:
                found.append(f"{sentence}  ~  {seed_text}")
                break
    return found


def test_no_more_than_three_exceptions_each_with_its_reason():
    assert len(EXCEPTIONS) <= 3 and all(reason.strip() for reason in EXCEPTIONS.values())


def test_no_sheria_or_jifunze_page_echoes_a_seed_sentence(built, seed_sentences):
    pages = {
        path: page for path, page in built.pages.items() if path.strip("/").split("/")[1:2] in (["sheria"], ["jifunze"])
    }
    assert len(pages) >= 18  # both kinds, three games, three languages (and the index pages)
    found = {
        path: copies
        for path, page in pages.items()
        if (copies := echoes(seed_sentences, page_language(path, page), paragraphs(page.text_parts)))
    }
    assert found == {}


@pytest.mark.parametrize("language", ["sw", "tl", "en"])
def test_no_catalog_string_echoes_a_seed_sentence(seed_sentences, language):
    with (ROOT / "site" / "locale" / language / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        catalog = read_po(handle)
    texts: list[str] = []
    for message in catalog:
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        ids = message.id if isinstance(message.id, (list, tuple)) else [message.id]
        texts.extend(text for text in (*forms, *(ids if language == "en" else ())) if text)
    assert len(texts) > 300
    found = [copy for text in texts for copy in echoes(seed_sentences, language, paragraphs([text]))]
    assert found == []


@pytest.mark.parametrize(
    ("language", "planted"),
    [
        # seed 002's pawn line, reordered with one verb changed (the review's first Swahili echo)
        ("sw", "Katika hatua yake ya kwanza kabisa askari anaweza kwenda mraba mmoja au miwili, moja kwa moja mbele."),
        # seed 003's winning line with one verb swapped
        ("sw", "Unashinda ukila kete zote za mpinzani au ukimwacha bila hatua."),
        # seed 001's list label, reworded
        ("tl", "Kulang ang piyesa para mag-checkmate: Hari lang laban sa Hari."),
    ],
)
def test_a_planted_echo_is_found(seed_sentences, language, planted):
    assert echoes(seed_sentences, language, f"Utangulizi wa ukurasa huu. {planted} Mwisho wa aya.")


def test_own_words_are_no_echo(seed_sentences):
    own = (
        "Askari ambaye bado hajaondoka alipoanzia ana chaguo la kunyoosha kwa mraba mmoja, au kuruka miwili kwa mkupuo."
    )
    assert echoes(seed_sentences, "sw", own) == []
