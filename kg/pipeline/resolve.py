"""Step 2, resolve: is a candidate an existing node (within project and type) or a new one?

The ladder: exact normalised key, alias, or lemma key ("owners of salons" = "salon owners")
→ rapidfuzz score above MERGE_AT merges → meaning: the sentence encoder's cosine with a node's
label or alias at SAME_AT or above merges (kg.language.meaning; not for names of offerings, and
not a statement with its denial) → the model confirms only in the uncertain band (a fuzzy score
from CREATE_BELOW or a cosine from ASK_FROM), for at most CONFIRM_AT_MOST of the best nodes.
The same thing said in other words scores only 35-55 on strings, and across languages nothing.
Never merged, whatever the scores: metrics or goals with different numbers, opposite stances
(opinions), and any two labels whose codes disagree — numbers, versions, model numbers
("photoshop cs3" / "photoshop cs2", "dsc-w170" / "dsc-w120", "iOS 16" / "iOS 17").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from kg.graph import NodeRecord
from kg.language import lemma_key
from kg.language.meaning import (
    ASK_FROM,
    SAME_AT,
    kept_apart,
    negated,
)
from kg.language.names import closest_name, names_similarity
from kg.pipeline.evidence import normalise, numbers_in

MERGE_AT = 88.0
CREATE_BELOW = 30.0
CONFIRM_AT_MOST = 3
# Names of offerings differ by one word ("photoshop" / "photoshop extended") that a sentence
# vector hardly sees: their meaning brings them to confirmation, never merges them alone.
OFFERING_TYPES = frozenset({"product", "competitor", "alternative", "feature"})

_LEADING = re.compile(r"^(the|a|an|our|their|its)\s+")
_PUNCT = re.compile(r"[^\w\s%]+", re.UNICODE)


# A token with a digit is a code: a number, a version ("v10.5", "7th", "cs3") or a model number.
_CODE_TOKEN = re.compile(r"[\w][\w.'’/+:-]*", re.UNICODE)
_NUMBER_LIKE = re.compile(r"^v?\.?(\d+(?:\.\d+)*)(?:st|nd|rd|th)?$")
_NUMBER_AND_UNIT = re.compile(r"^(\d+(?:\.\d+)?)-?[^\W\d_]{2,}$")  # "3-user", "4gb", "10ft"
_NOT_ALNUM = re.compile(r"[\W_]+", re.UNICODE)
_THOUSANDS = re.compile(r"(?<=\d)[,\u00a0\u202f](?=\d{3}\b)")


def _canonical_number(number: str) -> str:
    while number.endswith(".0"):
        number = number[:-2]
    whole, dot, rest = number.partition(".")
    return (whole.lstrip("0") or "0") + dot + rest


@functools.lru_cache(maxsize=8192)  # every candidate's label is read again for each mention
def codes_of(text: str) -> frozenset[str]:
    """The codes a label names, in one spelling: "v. 10.0" and "10" are one version,
    "DSC-W170" and "dscw170" one model, "4GB" is the number 4 (its unit is a word)."""
    if not any(ch.isdigit() for ch in text):  # most labels: no code at all
        return frozenset()
    found = set()
    for token in _CODE_TOKEN.findall(_THOUSANDS.sub("", text.lower())):
        token = token.strip(".'’/+:-")
        if not any(ch.isdigit() for ch in token):
            continue
        number = _NUMBER_LIKE.match(token) or _NUMBER_AND_UNIT.match(token)
        if number:
            found.add(_canonical_number(number.group(1)))
        else:
            found.add(_NOT_ALNUM.sub("", token))
    return frozenset(found)


def _code_matches(code: str, others: frozenset[str]) -> bool:
    if code in others:
        return True
    # A model number with a suffix ("sx110" / "sx110isb", "s550" / "coolpixs550cb"); numbers
    # and versions must be equal (2007 is not 20070, 10.4 is not 10.4.6).
    if _is_number(code) or len(code) < 4:
        return False
    return any(
        len(o) >= 4 and not _is_number(o) and (_contains(o, code) or _contains(code, o))
        for o in others
    )


def _contains(longer: str, shorter: str) -> bool:
    """`shorter` inside `longer` without cutting a number: "ab12" is not in "ab120x"."""
    start = longer.find(shorter)
    while start >= 0:
        end = start + len(shorter)
        before = longer[start - 1 : start] if start else ""
        after = longer[end : end + 1]
        if not (before.isdigit() and shorter[0].isdigit()) and not (
            after.isdigit() and shorter[-1].isdigit()
        ):
            return True
        start = longer.find(shorter, start + 1)
    return False


def _is_number(code: str) -> bool:
    return code.replace(".", "").isdigit()


def unmatched_codes(a: frozenset[str], b: frozenset[str]) -> tuple[frozenset[str], frozenset[str]]:
    return (
        frozenset(c for c in a if not _code_matches(c, b)),
        frozenset(c for c in b if not _code_matches(c, a)),
    )


@functools.lru_cache(maxsize=65_536)  # a mention meets the same candidates at each rung
def codes_conflict(a: str, b: str) -> bool:
    """Both labels name a code the other lacks: two versions, two models, two amounts."""
    mine, theirs = codes_of(a), codes_of(b)
    if not mine or not theirs:  # most labels: no code on one side at least
        return False
    return any(not _code_matches(c, theirs) for c in mine) and any(
        not _code_matches(c, mine) for c in theirs
    )


@functools.lru_cache(maxsize=50_000)  # asked again of the same names for every mention
def meaning_key(label: str) -> str:
    """An order- and inflection-free key that keeps what lemma keys drop: codes and "not"."""
    key = lemma_key(label)
    if not key:
        return ""
    codes = " ".join(sorted(codes_of(label)))
    return f"{key}|{codes}|{'neg' if negated(label) else ''}"


def node_key(label: str) -> str:
    """The normalised key two labels must share to be the same node."""
    key = _PUNCT.sub(" ", normalise(label).lower())
    key = " ".join(key.split())
    return _LEADING.sub("", key)


@dataclass(frozen=True)
class Mention:
    node_type: str
    label: str
    quote: str
    stance: str = ""
    value: str = ""

    @property
    def key(self) -> str:
        return node_key(self.label)


@dataclass(frozen=True)
class Resolution:
    method: str  # exact | fuzzy | llm | new
    node: NodeRecord | None  # the existing node, None when a new one is to be made
    score: float | None = None
    compared: str = ""


Confirm = Callable[[Mention, NodeRecord], bool]


NUMERIC_TYPES = {"metric", "goal"}  # for these, a different number is a different fact


def _compatible(mention: Mention, node: NodeRecord) -> bool:
    if mention.stance and node.stance and mention.stance != node.stance:
        return False
    if codes_conflict(mention.label, node.label):
        return False
    if mention.node_type not in NUMERIC_TYPES:
        return True
    return sorted(numbers_in(f"{mention.label} {mention.value}")) == sorted(
        numbers_in(f"{node.label} {node.value}")
    )


def _candidates(mention: Mention, existing: list[NodeRecord]) -> list[NodeRecord]:
    return [
        n
        for n in existing
        if n.type == mention.node_type and n.invalid_at is None and _compatible(mention, n)
    ]


def _exact(mention: Mention, candidates: list[NodeRecord]) -> NodeRecord | None:
    key = mention.key
    for node in candidates:
        if key == node.key or key in node.alias_keys:
            return node
    meaning = meaning_key(mention.label)
    if meaning:
        for node in candidates:
            for label in (node.label, *node.aliases):
                if meaning_key(label) == meaning:
                    return node
    return None


def matched_exactly(mention: Mention, existing: list[NodeRecord]) -> bool:
    """Whether the ladder's first rung decides the mention: no need to look further."""
    return _exact(mention, _candidates(mention, existing)) is not None


def resolve_candidate(
    mention: Mention,
    existing: list[NodeRecord],
    confirm: Confirm,
    nearest: Mapping[str, float] | None = None,
) -> Resolution:
    """Decide for one mention against the active nodes of its type in its project.

    `nearest` holds the cosines the vector index found (node uid → cosine with the mention);
    a node it does not list was not among the nearest. Without it, each cosine is computed."""
    candidates = _candidates(mention, existing)
    exact = _exact(mention, candidates)
    if exact is not None:
        return Resolution("exact", exact, 100.0, exact.label)
    key = mention.key
    choices: dict[int, str] = {}
    owners: list[NodeRecord] = []
    for node in candidates:
        for alias in [node.key, *node.alias_keys]:
            choices[len(owners)] = alias
            owners.append(node)
    if not choices:
        return Resolution("new", None)
    ranked = process.extract(key, choices, scorer=fuzz.token_sort_ratio, limit=20)
    fuzzy: dict[str, float] = {}
    for _, score, index in ranked:
        fuzzy.setdefault(owners[index].uid, score)  # a node's best alias speaks for it
    best_fuzzy = owners[ranked[0][2]]
    # A statement and its denial are never one node, however alike their spelling.
    if ranked[0][1] >= MERGE_AT and negated(mention.label) == negated(best_fuzzy.label):
        return Resolution("fuzzy", best_fuzzy, ranked[0][1], best_fuzzy.label)
    if nearest is None:
        by_meaning = {n.uid: names_similarity(mention.label, n.names) for n in candidates}
    else:
        by_meaning = {n.uid: nearest.get(n.uid, 0.0) for n in candidates}
    if mention.node_type not in OFFERING_TYPES:
        for node in sorted(candidates, key=lambda n: -by_meaning[n.uid]):
            if by_meaning[node.uid] < SAME_AT:
                break
            name, _ = closest_name(mention.label, node.names)  # the name it means
            if not kept_apart(mention.label, name):
                return Resolution("vector", node, round(100 * by_meaning[node.uid], 1), node.label)
    # The uncertain band: a fuzzy score or a cosine between the bars; best first, by either.
    band = [
        n
        for n in candidates
        if fuzzy.get(n.uid, 0.0) >= CREATE_BELOW or by_meaning[n.uid] >= ASK_FROM
    ]
    band.sort(key=lambda n: -max(fuzzy.get(n.uid, 0.0) / 100, by_meaning[n.uid]))
    for node in band[:CONFIRM_AT_MOST]:
        if confirm(mention, node):
            return Resolution("llm", node, fuzzy.get(node.uid), node.label)
    return Resolution("new", None, ranked[0][1], best_fuzzy.label)
