"""All text is our own: no sentence of 40 characters or more from the seed texts appears on any page."""

from __future__ import annotations

import re

import pytest

from tests.site.conftest import ROOT
from tests.site.pages import normalise, parse

SEEDS = ROOT.parent / "shared" / "seeds"
MIN_LENGTH = 40


def seed_sentences() -> set[str]:
    """Every sentence, table cell and half of a bilingual line of the seeds, normalised, 40+ characters."""
    sentences = set()
    for path in sorted(SEEDS.glob("*.txt")):
        for line in path.read_text(encoding="utf-8").splitlines():
            line = line.strip().removeprefix("- ")
            for cell in line.split("|"):  # table cells and "English | Swahili" lines
                for sentence in re.split(r"(?<=[.!?])\s+", cell.strip()):
                    sentence = normalise(sentence).rstrip(".!?:; ")
                    if len(sentence) >= MIN_LENGTH:
                        sentences.add(sentence)
    return sentences


def copied(text: str, sentences: set[str]) -> list[str]:
    return sorted(sentence for sentence in sentences if sentence in text)


@pytest.fixture(scope="module")
def sentences():
    if not SEEDS.is_dir():
        pytest.skip("the seed texts (../shared/seeds) are not on this machine")
    found = seed_sentences()
    assert len(found) > 100  # the four texts really were read
    return found


def test_no_page_carries_a_seed_sentence(built, sentences):
    for path, page in built.pages.items():
        assert not copied(page.text, sentences), path


def test_no_content_or_catalog_carries_a_seed_sentence(sentences):
    # The same check on the sources, so a copied sentence is found even before it reaches a page.
    sources = list((ROOT / "site" / "content").rglob("*.yaml")) + list((ROOT / "site" / "locale").rglob("*.po"))
    for source in sources:
        assert not copied(normalise(source.read_text(encoding="utf-8")), sentences), source


def test_the_check_finds_a_copied_sentence(sentences):
    # A page with one seed sentence in it (in capitals, with other words around it) must be caught,
    # in its text and in an attribute a reader meets (alt text).
    seed = (SEEDS / "002_a2100fb8b5367e91.txt").read_text(encoding="utf-8").splitlines()
    line = next(line for line in seed if line.startswith("- Askari akifika safu ya mwisho"))[2:]
    in_text = parse("/x/", f"<!doctype html><p>Kwa ufupi:  {line.upper()} Mwisho.</p>")
    assert copied(in_text.text, sentences)
    in_alt = parse("/x/", '<img alt="Rules: Any capture route is allowed (no max-capture requirement).">')
    assert copied(in_alt.text, sentences) == ["any capture route is allowed (no max-capture requirement)"]


def test_seed_sentences_are_split_like_a_reader_reads_them(sentences):
    assert normalise("Capture path defines which pieces are removed") in sentences  # English half of a line
    assert normalise("Njia ya kula inaamua kete zipi zinaondolewa") in sentences  # Swahili half
    assert all(len(sentence) >= MIN_LENGTH for sentence in sentences)
