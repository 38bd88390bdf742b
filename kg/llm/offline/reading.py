"""How a sentence is read once for all the rules, and how their word lists are loaded.

`read` tags a span of text once (part of speech, lemma, offsets into the whole text) and
every rule looks at parts of that reading (`_within`) instead of tagging again; `polarity` is
VADER's sentiment of an English phrase; `listed` loads a word list kept in words/<name>.txt
and `_wordset` makes a set of it with each «ё» also spelt «е». Kinds of label: none; the rules
that make labels read with these.
Example: the rule that asks whether "it never saves my draft" states a problem reads the
clause once here, then finds the negator "never" right before the verb "save".
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

from kg.language import Token, tagged

Span = tuple[int, int]


def _wordset(text: str) -> frozenset[str]:
    """The words, each also spelt with «е» for «ё»: lemmas come that way, text either way."""
    words = text.split()
    return frozenset(words + [w.replace("ё", "е") for w in words])


_WORDS = Path(__file__).with_name("words")


def listed(name: str) -> str:
    """The words of the list kept in words/<name>.txt, a space apart; "#" starts a note."""
    lines = (_WORDS / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    return " ".join(line.split("#", 1)[0] for line in lines)


@lru_cache(maxsize=1)
def _vader() -> SentimentIntensityAnalyzer:
    return SentimentIntensityAnalyzer()


def polarity(text: str) -> float:
    """VADER's compound score for English text; 0 for text it has no words for."""
    return float(_vader().polarity_scores(text)["compound"])


@dataclass(frozen=True)
class Reading:
    tokens: list[Token]
    offset: int

    def span(self, first: int, last: int) -> Span:
        return self.tokens[first].start + self.offset, self.tokens[last].end + self.offset


def read(text: str, span: Span) -> Reading:
    return Reading(list(tagged(text[span[0] : span[1]])), span[0])


def _within(reading: Reading, start: int, end: int) -> list[Token]:
    """The tokens of a reading that lie between two offsets of the text: rules look at parts
    of a clause or sentence already read, instead of tagging each part again."""
    return [t for t in reading.tokens if start <= t.start + reading.offset < end]
