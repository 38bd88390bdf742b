"""Russian word vectors: how close in meaning two words, or two sets of lemmas, are.

The vectors are navec's news embeddings (250K words, 300 dimensions, product-quantised, MIT)
that the natasha wheel ships as data. Only the file is located; natasha itself is never
imported (it imports pymorphy2, which fails on Python 3.11), and navec reads the file. They load
once per process, on the first Russian comparison; without the file every comparison answers
None and callers keep to shared words.

News vectors put words that occur in the same contexts close together, and that includes
opposites and neighbours in a series ("открывать" / "закрывать", "клавиатура" / "мышь") as well
as synonyms ("экран" / "дисплей"), and words that go together ("русский" / "язык"). So only a
high cosine counts, only between Cyrillic words (Latin words in Russian news are names and
noise) of one part of speech (a synonym can stand in the other's place, a collocate cannot),
two words that differ only in their prefix are never aligned (in Russian a prefix changes the
action: "входить" / "выходить"), and function words (pronouns, numerals, prepositions,
predicatives such as "нельзя") take no part.
"""

from __future__ import annotations

import importlib.util
import logging
from collections.abc import Collection
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from kg.language.lemmas import is_cyrillic, russian_morphology

if TYPE_CHECKING:
    import numpy as np
    from navec import Navec

log = logging.getLogger(__name__)

NAVEC_FILE = "navec_news_v1_1B_250K_300d_100q.tar"
_MAX_PREFIX = 3  # "в", "вы", "за", "под": longer heads are different stems, not prefixes
_MIN_STEM = 4
# pymorphy's parts of speech, coarsened: a word aligns only with a word of the same class.
_CLASSES = {
    "NOUN": "noun",
    "ADJF": "adjective",
    "ADJS": "adjective",
    "COMP": "adjective",
    "PRTF": "adjective",
    "PRTS": "adjective",
    "VERB": "verb",
    "INFN": "verb",
    "GRND": "verb",
    "ADVB": "adverb",
}


def vectors_path() -> Path | None:
    """The navec file inside the installed natasha package, found without importing it."""
    try:
        spec = importlib.util.find_spec("natasha")
    except (ImportError, ValueError):
        return None
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / "data" / "emb" / NAVEC_FILE
        if path.is_file():
            return path
    return None


@lru_cache(maxsize=1)
def _vectors() -> Navec | None:
    path = vectors_path()
    if path is None:
        log.warning(
            "Russian word vectors not found (navec's file in the natasha package): "
            "paraphrases are matched by shared words only"
        )
        return None
    try:
        from navec import Navec

        return Navec.load(path)
    except (ImportError, OSError, ValueError) as error:
        log.warning("Russian word vectors could not be loaded (%s): shared words only", error)
        return None


def available() -> bool:
    return _vectors() is not None


@lru_cache(maxsize=50_000)
def _unit(word: str) -> np.ndarray | None:
    vectors = _vectors()
    if vectors is None or word not in vectors:
        return None
    import numpy as np

    vector = vectors[word]
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm else None


@lru_cache(maxsize=50_000)
def word_class(lemma_: str) -> str | None:
    """Noun, adjective, verb or adverb for a Cyrillic content word; None for a function word
    (pronouns and pronominal adjectives such as "другой", numerals, prepositions, particles,
    predicatives)."""
    tag = russian_morphology().parse(lemma_)[0].tag
    if "Apro" in tag:
        return None
    return _CLASSES.get(str(tag.POS))


def content_words(lemmas: Collection[str]) -> frozenset[str]:
    """The lemmas that take part in a comparison: every non-Cyrillic one (matched as written)
    and the Cyrillic content words."""
    return frozenset(w for w in lemmas if not is_cyrillic(w) or word_class(w))


def prefix_variants(a: str, b: str) -> bool:
    """Two words that share their stem and differ only in a short prefix ("открывать" /
    "закрывать", "доступный" / "недоступный")."""
    shared = 0
    while shared < min(len(a), len(b)) and a[-1 - shared] == b[-1 - shared]:
        shared += 1
    return (
        shared >= _MIN_STEM
        and len(a) - shared <= _MAX_PREFIX
        and len(b) - shared <= _MAX_PREFIX
        and a != b
    )


def word_similarity(a: str, b: str) -> float | None:
    """Cosine of two lemmas' vectors: 1.0 for one lemma; 0.0 for prefix variants or words of
    two parts of speech; None when a word is not Cyrillic or has no vector (or there are no
    vectors)."""
    if a == b:
        return 1.0
    if not (is_cyrillic(a) and is_cyrillic(b)):
        return None
    if prefix_variants(a, b) or word_class(a) != word_class(b):
        return 0.0
    left, right = _unit(a), _unit(b)
    if left is None or right is None:
        return None
    return float(left @ right)


def alignment(shorter: Collection[str], longer: Collection[str]) -> float | None:
    """How well every lemma of `shorter` finds a lemma of like meaning in `longer`: the lowest,
    over its lemmas, of the best cosine to a lemma of the other (a shared lemma counts 1.0, a
    lemma without a vector 0.0). None when there are no vectors."""
    if _vectors() is None or not shorter or not longer:
        return None
    return min(max(word_similarity(a, b) or 0.0 for b in longer) for a in shorter)


def similarity(left: Collection[str], right: Collection[str]) -> float | None:
    """`alignment` of the smaller set of content lemmas in the larger one; of two as large, the
    lower of both ways. None when there are no vectors."""
    left, right = content_words(left), content_words(right)
    if len(left) > len(right):
        left, right = right, left
    forward = alignment(left, right)
    if forward is None or len(left) < len(right):
        return forward
    backward = alignment(right, left)
    return None if backward is None else min(forward, backward)
