"""All text is our own: no page shares a run of 8 words with the seed texts, or more than 0.5% of its 6-word runs,
and no sentence is a seed sentence with a word or two swapped or moved (tests/site/near_copy.py).

Words are compared as normalised tokens (tests/site/overlap.py: lower case, punctuation and symbols are
spaces), so changing a capital, a comma or one quote mark does not hide a copied phrase. The seeds are the
rules documents in ../shared/seeds (beside the clone on CI, read-only); without them the tests skip and say so.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from tests.site.conftest import ROOT
from tests.site.near_copy import SeedSentences, paragraphs
from tests.site.overlap import Seeds, shared_runs, shared_share, shingles, tokens
from tests.site.pages import parse

#: Beside the clone (CI), or where UBAO_SEEDS says (a worktree elsewhere).
SEEDS = Path(os.environ.get("UBAO_SEEDS") or ROOT.parent / "shared" / "seeds")
RUN = 8  # no run of this many tokens may be shared with a seed
SHINGLE = 6
MAX_SHARE = 0.005  # of a page's distinct 6-token shingles


def read_seeds(folder) -> Seeds:
    """The seed texts, or a skip that says clearly why the overlap was not checked."""
    if not folder.is_dir() or not list(folder.glob("*.txt")):
        pytest.skip(f"SEED OVERLAP NOT CHECKED: the seed texts are not at {folder} (CI has them at ../shared/seeds)")
    return Seeds.read(folder)


@pytest.fixture(scope="module")
def seeds() -> Seeds:
    found = read_seeds(SEEDS)
    assert sum(len(words) for words in found.texts.values()) > 2000  # the four texts really were read
    return found


def test_without_the_seeds_the_checks_skip_and_say_why(tmp_path):
    with pytest.raises(pytest.skip.Exception, match="SEED OVERLAP NOT CHECKED"):
        read_seeds(tmp_path / "absent")


def page_words(page) -> list[str]:
    return tokens(" ".join(page.text_parts))


def test_no_page_shares_an_eight_word_run_with_a_seed(built, seeds):
    runs = seeds.shingle_set(RUN)
    found = {path: shared_runs(page_words(page), runs, RUN) for path, page in built.pages.items()}
    assert {path: copied for path, copied in found.items() if copied} == {}


def test_no_page_shares_more_than_half_a_percent_of_its_six_word_runs(built, seeds):
    seed_shingles = seeds.shingle_set(SHINGLE)
    shares = {path: shared_share(page_words(page), seed_shingles, SHINGLE) for path, page in built.pages.items()}
    over = {path: f"{share:.2%}" for path, share in shares.items() if share > MAX_SHARE}
    assert over == {}
    assert len(shares) >= 30


def test_no_content_or_catalog_shares_an_eight_word_run(seeds):
    # The same check on the sources, so a copied phrase is found even before it reaches a page.
    runs = seeds.shingle_set(RUN)
    sources = list((ROOT / "site" / "content").rglob("*.yaml")) + list((ROOT / "site" / "locale").rglob("*.po"))
    assert len(sources) >= 12
    found = {str(s.relative_to(ROOT)): shared_runs(tokens(s.read_text(encoding="utf-8")), runs, RUN) for s in sources}
    assert {source: copied for source, copied in found.items() if copied} == {}


def test_the_checks_find_a_phrase_copied_with_small_changes(seeds):
    # A seed sentence with its capitals, punctuation and one word changed still shares an 8-token run, in the
    # page text and in an attribute a reader meets (alt text).
    seed = (SEEDS / "002_a2100fb8b5367e91.txt").read_text(encoding="utf-8").splitlines()
    line = next(line for line in seed if line.startswith("- Askari akifika safu ya mwisho"))[2:]
    edited = line.upper().replace(",", ";").replace("MALKIA", "MALKIA MPYA")
    page = parse("/x/", f"<!doctype html><p>Kwa ufupi: {edited} Mwisho.</p>")
    assert shared_runs(page_words(page), seeds.shingle_set(RUN), RUN)
    in_alt = parse("/x/", '<img alt="Rules: ANY capture route is allowed -- (no max-capture requirement), ok.">')
    assert shared_runs(page_words(in_alt), seeds.shingle_set(RUN), RUN) == [
        "any capture route is allowed no max capture requirement"
    ]


def test_the_share_counts_distinct_shingles():
    words = tokens("a b c d e f g, A B C D E F G!")
    assert len(shingles(words, 6)) == 7  # 9 runs of six, two of them repeated
    assert shared_share(words, {("a", "b", "c", "d", "e", "f")}, 6) == 1 / 7
    assert shared_share(tokens("too short"), {("too", "short")}, 6) == 0.0


@pytest.fixture(scope="module")
def seed_sentences(seeds) -> SeedSentences:
    return SeedSentences.read(SEEDS)


def page_language(path: str, page) -> str:
    first = path.strip("/").split("/")[0]
    return first if first in ("en", "sw", "tl") else (page.lang or "en")


def test_no_sentence_is_a_seed_sentence_with_words_swapped_or_moved(built, seed_sentences):
    found = {
        path: copies
        for path, page in built.pages.items()
        if (copies := seed_sentences.near_copies(page_language(path, page), paragraphs(page.text_parts)))
    }
    assert found == {}


def strings(value) -> list[str]:
    """Every string in a loaded YAML document."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    return [text for item in value for text in strings(item)] if isinstance(value, list) else []


def test_no_content_sentence_is_a_near_copy(seed_sentences):
    # Every sentence of the rules and lessons sources, hints and captions included, before it reaches a page.
    content = ROOT / "site" / "content"
    found = {
        str(source.relative_to(ROOT)): copies
        for source in sorted(content.rglob("*.yaml"))
        if (
            copies := seed_sentences.near_copies(
                source.parent.name, paragraphs(strings(yaml.safe_load(source.read_text(encoding="utf-8"))))
            )
        )
    }
    assert found == {}


@pytest.mark.parametrize(
    ("language", "edited"),
    [
        ("tl", "Isang kahon sa alinman sa walong direksiyon."),  # two words swapped
        ("sw", "Kete ya kawaida inaweza kula nyuma?"),  # one word swapped
        ("sw", "Kwa zamu sogeza kipande kimoja, huwezi kwenda kwenye mraba wenye kipande chako."),  # moved
        ("en", "A 12-move countdown runs automatically for 1 king vs 3 kings."),  # reordered
        ("sw", "Lazima niendelee kuruka?"),  # a short question, word for word
    ],
)
def test_the_near_copy_check_finds_swaps_and_reorderings(seed_sentences, language, edited):
    assert seed_sentences.near_copies(language, f"Utangulizi wa ukurasa. {edited} Mwisho.")


def test_the_near_copy_check_passes_own_words_and_glossary_terms(seed_sentences):
    own = "Mfalme hana hatua bila kutishiwa (stalemate). Kingi hupaa mbali kwenye mshazari ulio wazi."
    assert seed_sentences.near_copies("sw", own) == []
