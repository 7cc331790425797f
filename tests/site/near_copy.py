"""Sentences that are a seed sentence with a word or two swapped or moved: near copies.

A run of shared tokens (overlap.py) misses a copy whose words were swapped one at a time ("square" for
"kahon" every few words) or put in another order. Here every sentence and clause is compared with every
seed sentence of the same language, as normalised tokens (overlap.tokens). It is a near copy when

- it has at least ``SHORTEST`` tokens and its token *set* shares at least ``SIMILAR`` of the union with
  the seed's (Jaccard similarity: catches reorderings and swaps), or
- it has at least ``EDITED`` tokens and is at most ``EDITS`` whole-word substitutions, insertions or
  deletions away from the seed's (catches a swap in a sentence whose other words repeat), or
- it is a seed sentence of three or four tokens, word for word ("Lazima niendelee kuruka?").

``TERMS`` are the glossary's fixed phrases and the option names the seeds share with the site by design;
they are names, not sentences, and are not counted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from tests.site.overlap import tokens

SIMILAR = 0.6
SHORTEST = 5
EDITED = 6
EDITS = 2
SHORT = 3  # shorter sentences ("Hapana.", "Ndiyo, lakini ...") are too common to tell anything
#: Fixed phrases the glossary prescribes (../shared/GLOSSARY.md) and the table options' names.
TERMS = frozenset(
    {
        "mfalme hawezi kuokoka",  # checkmate, sw
        "mfalme hana hatua bila kutishiwa",  # stalemate, sw
        "onyesha miraba halali",  # the "show legal squares" option, sw
        "kikomo cha hatua",  # the "move limit" option, sw
    }
)
# Sentence ends, clause breaks and table bars: a seed's "Knight: ..." clause is compared on its own.
_BREAK = re.compile(r"[.!?;:|]+|\s[-–—]\s")
# In a source or a page a line break inside a paragraph is a space; a blank line or a list item ends one.
_PARAGRAPH_END = re.compile(r"\n\s*\n|\n\s*[-*]\s")
#: The seed file of each page language; 000 holds English and Swahili halves on each line.
_LANGUAGE_OF_SEED = {"001": "tl", "002": "sw", "003": "sw"}


def paragraphs(parts: Iterable[str]) -> str:
    """Texts (a page's text parts, a source's strings) as one text whose wrapped lines are joined again."""
    return " | ".join(_PARAGRAPH_END.sub(" | ", part).replace("\n", " ") for part in parts)


def sentences(text: str) -> list[tuple[list[str], str]]:
    """The text's sentences and clauses worth comparing: (tokens, the words as written)."""
    found = []
    for part in _BREAK.split(text):
        words = _without_terms(tokens(part))
        if len(words) >= SHORT:
            found.append((words, part.strip()))
    return found


def _without_terms(words: list[str]) -> list[str]:
    joined = f" {' '.join(words)} "
    for term in TERMS:
        joined = joined.replace(f" {term} ", " ")
    return joined.split()


def near(words: list[str], seed: list[str]) -> bool:
    """Whether a sentence is a seed sentence with a word or two changed, moved, added or dropped."""
    if len(words) < SHORTEST or len(seed) < SHORTEST:
        return words == seed
    if similarity(frozenset(words), frozenset(seed)) >= SIMILAR:
        return True
    return len(words) >= EDITED and abs(len(words) - len(seed)) <= EDITS and token_edits(words, seed) <= EDITS


def similarity(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b)


def token_edits(a: list[str], b: list[str]) -> int:
    """Levenshtein distance counted in whole tokens: how many words to swap, add or drop."""
    previous = list(range(len(b) + 1))
    for i, word in enumerate(a, 1):
        current = [i]
        for j, other in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (word != other)))
        previous = current
    return previous[-1]


@dataclass(frozen=True)
class SeedSentences:
    """The seed sentences of each language, as token sets, with their text for the failure message."""

    by_language: dict[str, list[tuple[list[str], str]]]

    @classmethod
    def read(cls, folder: Path) -> SeedSentences:
        texts: dict[str, list[str]] = {"en": [], "sw": [], "tl": []}
        for path in sorted(folder.glob("*.txt")):
            prefix = path.name[:3]
            for line in path.read_text(encoding="utf-8").splitlines():
                if prefix == "000" and " | " in line:
                    english, swahili = line.split(" | ", 1)
                    texts["en"].append(english)
                    texts["sw"].append(swahili)
                else:
                    texts[_LANGUAGE_OF_SEED.get(prefix, "sw")].append(line)
        return cls(
            {language: [found for line in lines for found in sentences(line)] for language, lines in texts.items()}
        )

    def near_copies(self, language: str, text: str) -> list[str]:
        """Each sentence of ``text`` that is within ``SIMILAR`` of a seed sentence, with that sentence."""
        found = []
        for words, sentence in sentences(text):
            for seed_words, seed_text in self.by_language[language]:
                if near(words, seed_words):
                    found.append(f"{sentence}  ~  {seed_text}")
                    break
        return found
