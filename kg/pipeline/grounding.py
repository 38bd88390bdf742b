"""Does a quote say what it is cited for? The write-time grounding check.

Finding a quote in the message proves only that the words were said, not that they say the
label. So an item is written only when, besides being found on word boundaries:

- the quote is at least one whole word of `MIN_WORD_CHARS` letters or digits ("I", "a" and "e"
  quote nothing; "Jira", «1С» and "40%" do);
- it supports the label:
  - a name (a competitor's, the product's) appears in it, in any case form («в Сбере» names
    Сбер): the name is what such a node asserts;
  - a metric's numbers appear in it with their units (checked beside this) — a bare "40%" is a
    metric's whole evidence;
  - any other label has at least half of its content lemmas in the quote (a label may condense
    its quote, not add to it), or, for a paraphrase or a label in the other language, the
    sentence encoder's cosine between label and quote reaches `PARAPHRASE_SIMILARITY`;
- an edge's quote names or refers to both of its ends: each end shares a content word or a name
  with it, is quoted in the same sentence (`refers_to`), or clears the same bar.

A label or quote the model made up fails with a reason it can act on, and is asked for once more
like any other invalid answer.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

from kg.language import lemma
from kg.language.encoder import similarity
from kg.language.lemmas import is_stopword, part_lemmas, said_lemmas, words
from kg.ontology import NodeType
from kg.pipeline.evidence import Span, numbers_in

MIN_WORD_CHARS = 2
# Cosine of the multilingual sentence encoder above which a label is taken to restate its quote
# in other words. Chosen on the dev sets' own labels against the quotes they came from and
# against other items' quotes (benchmarks/results/grounding.json), before any test item.
PARAPHRASE_SIMILARITY = 0.6
# Types whose label is a name: the name itself must be in the quote.
NAMED_TYPES = frozenset({NodeType.COMPETITOR.value, NodeType.PRODUCT.value})

_HYPHENS = re.compile(r"[-‐‑–—]")
_WORD_CHARS = re.compile(r"[^\W_]", re.UNICODE)
_WHOLE_WORD = re.compile(rf"[^\W_]{{{MIN_WORD_CHARS},}}", re.UNICODE)


@dataclass(frozen=True)
class Grounded:
    """An edge's end as the check sees it: its names, and where its own quote stands."""

    label: str
    aliases: tuple[str, ...] = ()
    span: Span | None = None  # where the item's own quote stands, for edges said inside it


def quote_too_short(quote: str) -> bool:
    return _WHOLE_WORD.search(quote) is None


def _names_in(text: str) -> set[str]:
    found = words(text) + words(_HYPHENS.sub(" ", text))
    return {w.casefold() for w in found} | {lemma(w) for w in found}


def _names(label: str, aliases: Iterable[str]) -> list[set[str]]:
    """Each name as the set of its significant word forms (lower case and lemma)."""
    found = []
    for name in (label, *aliases):
        forms = {
            w.casefold()
            for w in words(name)
            if _WORD_CHARS.search(w) and not is_stopword(w.casefold())
        }
        if forms:
            found.append(forms)
    return found


def name_in_quote(label: str, quote: str, aliases: Iterable[str] = ()) -> bool:
    """Every significant word of the name (or of one alias) is in the quote, in any form."""
    said = _names_in(quote)
    return any(all(w in said or lemma(w) in said for w in name) for name in _names(label, aliases))


def says_its_words(
    label: str, quote: str, aliases: Iterable[str] = (), *, ignore: frozenset[str] = frozenset()
) -> bool:
    """The quote has at least half the content words of the label or of one alias (hyphenated
    words counted in parts too: "B2B-рынок" says B2B). `ignore` holds lemmas that carry no
    claim of their own (a PRD template's "Requirement:")."""
    said = said_lemmas(quote)
    for text in (label, *aliases):
        wanted = part_lemmas(text) - ignore
        if not wanted or len(wanted & said) >= max(1, math.ceil(len(wanted) / 2)):
            return True
    return False


def supports(
    label: str, quote: str, aliases: Iterable[str] = (), *, ignore: frozenset[str] = frozenset()
) -> bool:
    """The quote says the label: half its content words, or the same meaning in other words."""
    if says_its_words(label, quote, aliases, ignore=ignore):
        return True
    return similarity(label, quote) >= PARAPHRASE_SIMILARITY


# A sentence ends at ., ! or ? before a space or the end, or at a blank line.
_SENTENCE_END = re.compile(r"[.!?…](?=\s|$)|\n\s*\n")


def sentence_around(text: str, span: Span) -> tuple[int, int]:
    """The start and end of the sentence(s) the span stands in."""
    start = 0
    for found in _SENTENCE_END.finditer(text, 0, span.start):
        start = found.end()
    after = _SENTENCE_END.search(text, span.end)
    return start, after.end() if after else len(text)


def refers_to(end: Grounded, quote: str, span: Span | None, text: str = "") -> bool:
    """An edge's quote names this end, or says it in other words, or stands in the sentence
    where the end is named: within a sentence, a pronoun or an omitted subject refers back to
    what the sentence named ("Couriers in Almaty say the app lags, so they call …")."""
    if end.span is not None and span is not None:
        start, stop = sentence_around(text, span) if text else (span.start, span.end)
        if end.span.start < stop and start < end.span.end:
            return True
    said = said_lemmas(quote)
    for name in (end.label, *end.aliases):
        if part_lemmas(name) & said or name_in_quote(name, quote):
            return True
    return similarity(end.label, quote) >= PARAPHRASE_SIMILARITY


def node_grounding_problem(
    node_type: str, label: str, quote: str, *, value: str = "", aliases: Iterable[str] = ()
) -> str:
    """Why the quote does not support the node, or "" when it does."""
    if quote_too_short(quote):
        return (
            f"{node_type} {label!r}: the quote {quote!r} is not a whole word of "
            f"{MIN_WORD_CHARS}+ letters; quote the words that state it"
        )
    if node_type in NAMED_TYPES:
        if name_in_quote(label, quote, aliases):
            return ""
        return (
            f"{node_type} {label!r}: its quote {quote!r} does not name it; quote where it is named"
        )
    if node_type == NodeType.METRIC.value and numbers_in(f"{label} {value}"):
        return ""  # the numbers, checked beside this, are the metric's evidence
    if supports(label, quote, aliases):
        return ""
    return (
        f"{node_type} {label!r}: its quote {quote!r} does not say it; quote the words that state "
        "it, or name it after them"
    )


def edge_grounding_problem(
    relation: str, source: Grounded, target: Grounded, quote: str, span: Span | None, text: str
) -> str:
    """Why the edge's quote does not state the edge between these two ends, or ""."""
    if quote_too_short(quote):
        return (
            f"relation {relation}: the quote {quote!r} is not a whole word of "
            f"{MIN_WORD_CHARS}+ letters; quote the words that state it"
        )
    for end in (source, target):
        if not refers_to(end, quote, span, text):
            return (
                f"relation {relation}: its quote {quote!r} does not mention {end.label!r}; quote "
                "the words that name both ends"
            )
    return ""


def claim_supported(
    claim: str, cited_words: Iterable[str], *, ignore: frozenset[str] = frozenset()
) -> bool:
    """A written claim (a PRD sentence, an answer) says only what its sources say: half its
    content words are in the quotes and labels it cites, or it restates them in other words.

    Each cited node is checked against its quote apart; this catches what the sentence adds
    around the names ("users love the dashboard" citing "the dashboard is slow" alone)."""
    sources = " \n".join(cited_words)
    return supports(claim, sources, ignore=ignore)
