"""Step 5, confidence: deterministic, from evidence, never from the model.

    one supporting episode                 65
    two independent episodes               80
    each further episode                   +5, up to 90
    each open contradiction on the node    -15, never below 30

A person's confirmation (kg.corrections) counts as one more independent source of its own kind.
A node a person rejected (not a finding) has no confidence, whatever evidence it gathers after.

"Independent" means a different episode; the same words repeated in one message count once,
and so does a passage repeated word for word across episodes (a legal notice, a template, a
pasted paragraph), and so does a quote whose whole long sentence is repeated: boilerplate that
several documents carry corroborates nothing. One respondent's answer recorded again is one
source too: where a quote is most of its message (at least WHOLE_ANSWER of its words: a survey
row, a short reply) and the message names its author, the author and the quote's words (case
and punctuation set aside) are its fingerprint, so the same row exported twice — with other
column labels, another file hash — counts once. A note-taker's long notes that quote a word
again ("couriers") are not answers and keep counting.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

from kg.graph import Evidence, GraphScope, NodeRecord, store

SINGLE = 65
CORROBORATED = 80
STEP = 5
CEILING = 90
CONTRADICTION_PENALTY = 15
FLOOR = 30


BOILERPLATE_WORDS = 12  # a passage this long repeated word for word is copied, not re-said
WHOLE_ANSWER = 0.6  # share of its message's words a quote has when it is the whole answer
_SPACE = re.compile(r"\s+")
_NOT_WORD = re.compile(r"[\W_]+", re.UNICODE)
_SENTENCE_END = re.compile(r"[.!?…]\s|\n")


def _words(text: str) -> str:
    return _SPACE.sub(" ", text.casefold()).strip()


def _fingerprint(text: str) -> str:
    words = _words(text)
    if len(words.split()) < BOILERPLATE_WORDS:
        return ""
    return hashlib.sha256(words.encode()).hexdigest()[:16]


def passage_fingerprints(text: str, start: int, end: int) -> list[str]:
    """The sentence and the paragraph a quote sits in, when long enough to be copied rather
    than re-said: a short quote ("please let us know what we're missing") inside a notice
    pasted into three documents is still one source."""
    begin = max((m.end() for m in _SENTENCE_END.finditer(text, 0, start)), default=0)
    after = _SENTENCE_END.search(text, end)
    sentence = text[begin : after.start() + 1 if after else len(text)]
    first = text.rfind("\n\n", 0, start)
    last = text.find("\n\n", end)
    paragraph = text[first + 2 if first >= 0 else 0 : last if last >= 0 else len(text)]
    found = [_fingerprint(sentence), _fingerprint(paragraph)]
    return sorted({f for f in found if f})


def answer_fingerprint(author: str, text: str, start: int, end: int) -> str:
    """The author and the words of a quote that is most of its message (see the module's
    docstring), else ""."""
    quote_words = _NOT_WORD.sub(" ", text[start:end].casefold()).split()
    message_words = _NOT_WORD.sub(" ", text.casefold()).split()
    if not author.strip() or not quote_words:
        return ""
    if len(quote_words) < WHOLE_ANSWER * len(message_words):
        return ""
    said = f"{_words(author)}\x1f{' '.join(quote_words)}"
    return "a:" + hashlib.sha256(said.encode()).hexdigest()[:16]


class SourceCount:
    """Independent sources counted as evidence arrives, one item at a time: the episodes that
    said it, where episodes sharing a long passage word for word are one (the connected groups
    of episodes linked by a shared passage). Adding an item costs the same however much
    evidence came before, so a node's confidence is kept without re-reading its evidence."""

    def __init__(self, evidence: Iterable[Evidence] = ()) -> None:
        self._owner: dict[str, str] = {}  # episode → the episode it is counted with
        self._first_with: dict[str, str] = {}  # passage → the first episode that had it
        self.count = 0
        for item in evidence:
            self.add(item)

    def _root(self, uid: str) -> str:
        if uid not in self._owner:
            self._owner[uid] = uid
            self.count += 1
        while self._owner[uid] != uid:
            uid = self._owner[uid]
        return uid

    def add(self, item: Evidence) -> None:
        self._root(item.episode_uid)
        words = _words(item.quote)
        long_quote = words if len(words.split()) >= BOILERPLATE_WORDS else ""
        for passage in (long_quote, *item.passages):
            if passage:
                self._join(item.episode_uid, self._first_with.setdefault(passage, item.episode_uid))

    def _join(self, uid: str, other: str) -> None:
        mine, theirs = self._root(uid), self._root(other)
        if mine != theirs:
            self._owner[mine] = theirs
            self.count -= 1

    def copy(self) -> SourceCount:
        twin = SourceCount()
        twin._owner = dict(self._owner)
        twin._first_with = dict(self._first_with)
        twin.count = self.count
        return twin


def independent_sources(evidence: list[Evidence]) -> int:
    """Episodes that said it, where episodes sharing a long passage word for word are one."""
    return SourceCount(evidence).count


def _base(sources: int) -> int:
    return SINGLE if sources == 1 else min(CEILING, CORROBORATED + STEP * (sources - 2))


def confidence_from(
    evidence: list[Evidence],
    open_contradictions: int = 0,
    confirmations: int = 0,
    rejected: bool = False,
) -> int:
    if rejected:  # its sources are not counted: no need to read them
        return 0
    return confidence_of(independent_sources(evidence), open_contradictions, confirmations)


def confidence_of(
    independent: int, open_contradictions: int = 0, confirmations: int = 0, rejected: bool = False
) -> int:
    """The confidence of a record with `independent` sources among its evidence (0 when a
    person rejected it: later mentions attach to it, hidden, and count for nothing)."""
    sources = independent + confirmations
    if rejected or sources == 0:
        return 0
    return max(FLOOR, _base(sources) - CONTRADICTION_PENALTY * open_contradictions)


def explain(
    evidence: list[Evidence],
    open_contradictions: int = 0,
    confirmed_by: list[str] | None = None,
    rejected: bool = False,
) -> str:
    """The same computation in words, for the admin and the API; with the people who
    confirmed the node first: "confirmed by Anna, 3 sources, 1 open contradiction: …"."""
    episodes = independent_sources(evidence)
    if rejected:
        return f"rejected by a person: not a finding, its {episodes} source(s) not counted → 0"
    people = list(confirmed_by or [])
    sources = episodes + len(people)
    text = f"{episodes} supporting episode(s)"
    if people:
        text += f" + {len(people)} confirmation(s)"
    text += f" → {_base(sources) if sources else 0}"
    if open_contradictions:
        text += f"; {open_contradictions} open contradiction(s) × -{CONTRADICTION_PENALTY}"
    text += f" = {confidence_from(evidence, open_contradictions, len(people))}"
    if not people:
        return text
    summary = [f"confirmed by {', '.join(people)}", f"{episodes} source{'s' * (episodes != 1)}"]
    if open_contradictions:
        summary.append(
            f"{open_contradictions} open contradiction{'s' * (open_contradictions != 1)}"
        )
    return f"{', '.join(summary)}: {text}"


def refresh_confidence(scope: GraphScope, uids: list[str]) -> None:
    """Recompute the confidence of some nodes (after a contradiction on them is resolved).

    Writes the confidence field only: evidence that an ingest appends meanwhile is never
    overwritten by this.
    """
    nodes: list[NodeRecord] = store.nodes_by_uids(scope, uids)
    counts = store.open_contradiction_counts(scope, [n.uid for n in nodes])
    store.set_confidence(
        scope,
        {
            n.uid: confidence_from(
                n.evidence, counts.get(n.uid, 0), len(n.confirmed_by), n.status == "rejected"
            )
            for n in nodes
        },
    )
