"""ContextBuilder: what the project knows that is relevant to an artifact, with evidence.

artifact_context(project, kind, as_of) returns the nodes (each with its evidence: episode
number, date, author, quote, file/page), the edges between them, the research gaps (rules over
the ontology, each with a plain question), the open contradictions and the average confidence.
With as_of, everything is as it stood then: validity windows and evidence are cut at that time.

Without as_of, the context also carries org insights: what other projects of the organization
hold too ("also seen in 2 other projects"). They come from providers other apps register
(register_org_insight_provider, from their AppConfig.ready()), so kg imports none of them. They
are kept apart from nodes and gaps: they are not evidence of this project.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import threading
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from math import comb

from pydantic import BaseModel, Field, PrivateAttr

from kg.graph import ContradictionRecord, EdgeRecord, Evidence, NodeRecord, store
from kg.graph.records import graph_time
from kg.language.lemmas import part_lemmas, said_lemmas
from kg.ledger.sources.reference import citation_locator
from kg.models import Episode, Project
from kg.ontology import NODE_TYPES

logger = logging.getLogger("groundwork.context")

KIND_NODE_TYPES: dict[str, tuple[str, ...]] = {"prd": NODE_TYPES}


class EvidenceView(BaseModel):
    episode_uid: str
    episode_number: int
    date: str
    author: str = ""
    quote: str
    start: int
    end: int
    file: str = ""
    page: str = ""


class ContextNode(BaseModel):
    uid: str
    number: int
    type: str
    label: str
    aliases: list[str] = Field(default_factory=list)
    confidence: int
    valid_at: str
    invalid_at: str | None = None
    value: str = ""
    subject: str = ""
    stance: str = ""
    evidence: list[EvidenceView]

    @property
    def episode_numbers(self) -> list[int]:
        return sorted({e.episode_number for e in self.evidence})


class ContextEdge(BaseModel):
    uid: str
    relation: str
    source: int  # node number
    target: int
    confidence: int
    valid_at: str
    invalid_at: str | None = None
    quotes: list[str] = Field(default_factory=list)


class Gap(BaseModel):
    rule: str
    node: int | None = None
    question: str


class ContextContradiction(BaseModel):
    uid: str
    a: int
    b: int
    subject: str
    quote_a: str
    quote_b: str
    status: str
    question: str


class OrgInsightNote(BaseModel):
    """An insight other projects of the organization hold too; never evidence of this project.

    Only names of the other projects travel with it: their quotes stay behind their own access.
    """

    label: str
    node_type: str
    confidence: int
    local_nodes: list[int] = Field(default_factory=list)  # this project's node numbers
    other_projects: list[str] = Field(default_factory=list)  # names only
    note: str  # e.g. "also seen in 2 other projects"


class ArtifactContext(BaseModel):
    project: str
    kind: str
    language: str
    as_of: str | None = None
    nodes: list[ContextNode]
    edges: list[ContextEdge]
    gaps: list[Gap]
    contradictions: list[ContextContradiction]
    average_confidence: float
    org_insights: list[OrgInsightNote] = Field(default_factory=list)
    _by_number: dict[int, ContextNode] | None = PrivateAttr(default=None)

    def node(self, number: int) -> ContextNode | None:
        if self._by_number is None or len(self._by_number) != len(self.nodes):
            self._by_number = {n.number: n for n in self.nodes}
        return self._by_number.get(number)

    def of_type(self, node_type: str) -> list[ContextNode]:
        return [n for n in self.nodes if n.type == node_type]


def artifact_context(
    project: Project, kind: str = "prd", as_of: dt.datetime | None = None
) -> ArtifactContext:
    if kind not in KIND_NODE_TYPES:
        raise ValueError(f"unknown artifact kind {kind!r}")
    scope = project.graph_scope
    moment = graph_time(as_of) if as_of else None
    wanted = set(KIND_NODE_TYPES[kind])
    raw_nodes = [
        _cut_evidence(n, moment)
        for n in store.list_nodes(scope)
        if n.type in wanted and n.valid_as_of(moment)
    ]
    raw_nodes = [n for n in raw_nodes if n.evidence]
    episodes = _episodes_for(project, raw_nodes)
    nodes = [node_view(n, episodes) for n in raw_nodes]
    by_uid = {n.uid: n for n in nodes}
    numbers = {n.uid: n.number for n in nodes}
    edges = [
        edge_view(e, numbers)
        for e in store.list_edges(scope)
        if e.valid_as_of(moment) and e.source in by_uid and e.target in by_uid
    ]
    contradictions = [
        contradiction_view(c, by_uid, project.language)
        for c in store.list_contradictions(scope)
        if c.a in by_uid and c.b in by_uid and open_at(c, moment)
    ]
    average = round(sum(n.confidence for n in nodes) / len(nodes), 1) if nodes else 0.0
    # Org insights are facts about now: a context as of a past moment has none.
    org_insights = collect_org_insights(project, raw_nodes) if moment is None else []
    return ArtifactContext(
        project=project.slug,
        kind=kind,
        language=project.language,
        as_of=moment,
        nodes=nodes,
        edges=edges,
        gaps=research_gaps(nodes, edges, project.language),
        contradictions=contradictions,
        average_confidence=average,
        org_insights=org_insights,
    )


# --- org insights: providers registered by other apps ----------------------------------------

OrgInsightProvider = Callable[[Project, list[NodeRecord]], list[OrgInsightNote]]

_org_insight_providers: list[OrgInsightProvider] = []
_providers_lock = threading.Lock()


def register_org_insight_provider(provider: OrgInsightProvider) -> OrgInsightProvider:
    """Add a source of org insights: fn(project, nodes) -> list[OrgInsightNote], where nodes
    are the project's current NodeRecords the context has loaded. Registering the same function
    twice keeps one entry, because ready() can run more than once (tests, reloads)."""
    with _providers_lock:
        if provider not in _org_insight_providers:
            _org_insight_providers.append(provider)
    return provider


def unregister_org_insight_provider(provider: OrgInsightProvider) -> None:
    with _providers_lock:
        if provider in _org_insight_providers:
            _org_insight_providers.remove(provider)


def org_insight_providers() -> list[OrgInsightProvider]:
    with _providers_lock:
        return list(_org_insight_providers)


def collect_org_insights(project: Project, nodes: list[NodeRecord]) -> list[OrgInsightNote]:
    """Ask every provider. A failing provider is logged and skipped: another app's bug must not
    take the project's own context down. Local node numbers are kept to the nodes given (the
    project's current ones); a note left with none is dropped."""
    current = {n.number for n in nodes}
    notes: list[OrgInsightNote] = []
    for provider in org_insight_providers():
        try:
            found = list(provider(project, nodes))
        except Exception:
            logger.exception("org insight provider %r failed for %s", provider, project.slug)
            continue
        for note in found:
            local = sorted({n for n in note.local_nodes if n in current})
            if local:
                notes.append(note.model_copy(update={"local_nodes": local}))
    return notes


def _cut_evidence(node: NodeRecord, moment: str | None) -> NodeRecord:
    if moment is None:
        return node
    return node.model_copy(update={"evidence": [e for e in node.evidence if e.valid_at <= moment]})


EPISODE_BATCH = 500  # bounded IN lists: SQLite and PostgreSQL cap bind parameters


def episodes_by_uid(project: Project, uids: Iterable[str]) -> dict[str, Episode]:
    """The project's episodes behind some evidence, in bounded batches."""
    ordered = sorted(set(uids))
    found: dict[str, Episode] = {}
    for i in range(0, len(ordered), EPISODE_BATCH):
        batch = Episode.objects.filter(project=project, uid__in=ordered[i : i + EPISODE_BATCH])
        found.update((str(e.uid), e) for e in batch.only("uid", "author", "source_ref"))
    return found


def content_hashes(project_id: int, uids: Iterable[str]) -> set[str]:
    """The content hashes (SHA-256) of the project's messages behind some evidence: the same
    words sent twice are one source. A uid the ledger does not hold (a graph written without
    one) stands for itself."""
    uids = set(uids)
    valid = []
    for uid in uids:
        with contextlib.suppress(ValueError):
            valid.append(str(uuid.UUID(uid)))
    found: dict[str, str] = {}
    valid.sort()
    for i in range(0, len(valid), EPISODE_BATCH):
        chunk = valid[i : i + EPISODE_BATCH]
        batch = Episode.objects.filter(project_id=project_id, uid__in=chunk)
        found.update((str(uid), sha) for uid, sha in batch.values_list("uid", "content_sha256"))
    return {found.get(uid, uid) for uid in uids}


def _episodes_for(project: Project, nodes: list[NodeRecord]) -> dict[str, Episode]:
    return episodes_by_uid(project, (e.episode_uid for n in nodes for e in n.evidence))


def evidence_view(e: Evidence, episodes: dict[str, Episode]) -> EvidenceView:
    """One piece of evidence as a citation needs it: the episode's author, file and page."""
    episode = episodes.get(e.episode_uid)
    ref = episode.source_ref if episode else {}
    return EvidenceView(
        episode_uid=e.episode_uid,
        episode_number=e.episode_number,
        date=e.valid_at,
        author=episode.author if episode else e.author,
        quote=e.quote,
        start=e.start,
        end=e.end,
        file=str(ref.get("file", "")),
        page=citation_locator(ref),  # "§Onboarding, p. 3", "row 212": where in the file
    )


def node_view(node: NodeRecord, episodes: dict[str, Episode]) -> ContextNode:
    """A node as a reader sees it: its evidence as citations (`episodes` by uid)."""
    evidence = [evidence_view(e, episodes) for e in node.evidence]
    return ContextNode(
        uid=node.uid,
        number=node.number,
        type=node.type,
        label=node.label,
        aliases=node.aliases,
        confidence=node.confidence,
        valid_at=node.valid_at,
        invalid_at=node.invalid_at,
        value=node.value,
        subject=node.subject,
        stance=node.stance,
        evidence=evidence,
    )


def edge_view(edge: EdgeRecord, numbers: dict[str, int]) -> ContextEdge:
    """An edge between node numbers (`numbers`: node uid to number, both ends in it)."""
    return ContextEdge(
        uid=edge.uid,
        relation=edge.relation,
        source=numbers[edge.source],
        target=numbers[edge.target],
        confidence=edge.confidence,
        valid_at=edge.valid_at,
        invalid_at=edge.invalid_at,
        quotes=[e.quote for e in edge.evidence],
    )


QUESTIONS = {
    "en": {
        "segment_without_pains": "What problems do {label} have? Nothing in the research says yet.",
        "segment_without_triggers": "What makes {label} look for a solution?",
        "pain_without_alternatives": (
            "How do people cope with “{label}” today (tools, workarounds, competitors)?"
        ),
        "pain_without_segment": "Who experiences “{label}”? No segment is linked to it.",
        "feature_without_evidence": "Which evidenced pain or job does the feature “{label}” solve?",
        "goal_without_metric": "How will we measure the goal “{label}”?",
        "competitor_without_features": "What does {label} offer? No features of it are known.",
        "contradiction": "The research disagrees: “{a}” vs “{b}”. Which holds now?",
    },
    "ru": {
        "segment_without_pains": (
            "Какие проблемы у сегмента «{label}»? В исследовании пока ничего нет."
        ),
        "segment_without_triggers": "Что заставляет «{label}» искать решение?",
        "pain_without_alternatives": (
            "Как сейчас справляются с проблемой «{label}» (инструменты, обходные пути, конкуренты)?"
        ),
        "pain_without_segment": (
            "Кто испытывает проблему «{label}»? Ни один сегмент с ней не связан."
        ),
        "feature_without_evidence": (
            "Какую подтверждённую боль или задачу решает функция «{label}»?"
        ),
        "goal_without_metric": "Как мы измерим цель «{label}»?",
        "competitor_without_features": "Что предлагает {label}? Функции конкурента неизвестны.",
        "contradiction": "Данные противоречат друг другу: «{a}» и «{b}». Что верно сейчас?",
    },
}


def _text(language: str, rule: str) -> str:
    return QUESTIONS.get(language, QUESTIONS["en"])[rule]


def open_at(contradiction: ContradictionRecord, moment: str | None) -> bool:
    """Open at `moment` (now when None): opened by then, and not yet resolved then."""
    c = contradiction
    if moment is None:
        return c.status == "open"
    return c.opened_at <= moment and (c.status == "open" or (c.resolved_at or "") > moment)


def contradiction_view(
    contradiction: ContradictionRecord, by_uid: dict[str, ContextNode], language: str
) -> ContextContradiction:
    """A contradiction between two shown nodes (`by_uid` holds both), with its question."""
    return contradiction_between(
        contradiction, by_uid[contradiction.a], by_uid[contradiction.b], language
    )


def contradiction_between(c: ContradictionRecord, a, b, language: str) -> ContextContradiction:
    """The contradiction `c` of the statements `a` and `b` (each with a number and a label)."""
    return ContextContradiction(
        uid=c.uid,
        a=a.number,
        b=b.number,
        subject=c.subject,
        quote_a=c.quote_a,
        quote_b=c.quote_b,
        status=c.status,
        question=_text(language, "contradiction").format(a=a.label, b=b.label),
    )


@dataclass(frozen=True)
class GapRule:
    """A question a node of `node_type` leaves open unless the research answers it: by an edge
    of one of `relations` (the node at the `end` given), or by a node of `answer_types` said
    together with it (see `said_together`)."""

    rule: str
    node_type: str
    relations: tuple[str, ...]
    end: str  # "out": the node is the edge's source; "in": its target
    answer_types: tuple[str, ...]


GAP_RULES: tuple[GapRule, ...] = (
    GapRule("segment_without_pains", "segment", ("experiences",), "out", ("pain",)),
    GapRule("segment_without_triggers", "segment", ("triggered_by",), "out", ("trigger",)),
    GapRule(
        "pain_without_alternatives", "pain", ("addresses",), "in", ("alternative", "competitor")
    ),
    GapRule("pain_without_segment", "pain", ("experiences",), "in", ("segment",)),
    GapRule("feature_without_evidence", "feature", ("solves", "supports"), "out", ("pain", "job")),
    GapRule("goal_without_metric", "goal", ("measured_by",), "out", ("metric",)),
    GapRule("competitor_without_features", "competitor", ("offers",), "out", ("feature",)),
)


@lru_cache(maxsize=50_000)
def _name_lemmas(text: str) -> frozenset[str]:
    return part_lemmas(text)


@lru_cache(maxsize=50_000)
def _quote_lemmas(text: str) -> frozenset[str]:
    return said_lemmas(text)


def _names(node: ContextNode, quote: str) -> bool:
    """The quote names the node: half of the content lemmas of its label (or of an alias), and
    at least one, are among the quote's (the PRD's grounding test, artifacts.checks)."""
    said = _quote_lemmas(quote)
    for name in (node.label, *node.aliases):
        wanted = _name_lemmas(name)
        shared = len(wanted & said)
        if shared >= 1 and 2 * shared >= len(wanted):
            return True
    return False


def said_together(a: ContextNode, b: ContextNode) -> bool:
    """The research states the two nodes together: a quote of one names the other, or they
    rest on overlapping words of the same message (one sentence speaks of both)."""
    return _Answers([b]).answers(a)


def _name_sets(node: ContextNode) -> list[frozenset[str]]:
    return [found for found in (_name_lemmas(n) for n in (node.label, *node.aliases)) if found]


# A name of k lemmas is named by a quote holding ceil(k/2) of them: the index keeps each such
# combination of a name's lemmas (a name with more than COMBINATIONS_PER_NAME of them is
# counted instead), and a quote is looked up by its own combinations of that size, as long as
# it has at most COMBINATIONS_PER_QUOTE of them (else its lemmas' hits are counted).
COMBINATIONS_PER_NAME = 70  # a name of up to 8 content words
COMBINATIONS_PER_QUOTE = 2_000


def _needed(size: int) -> int:
    """Lemmas of a name of `size` lemmas a quote must hold to name it (half, at least one)."""
    return (size + 1) // 2


class _Answers:
    """Nodes that may answer a question, indexed so that a project's whole graph is checked
    without comparing every node with every other: by message (overlapping words), by the
    lemmas of each quote (a quote names the subject) and by the combinations of half the
    lemmas of each name (the subject's quote names them). A name is named by a quote when
    half its lemmas, and at least one, are in it (`_names`); the index answers exactly that,
    with set lookups instead of counting every hit of common words."""

    def __init__(self, nodes: Iterable[ContextNode]) -> None:
        self.spans: dict[str, list[tuple[int, int, int]]] = {}
        self.quoted: dict[str, set[tuple[int, int]]] = {}  # lemma -> (node, quote index)
        # needed lemmas -> their sorted combination -> nodes whose name it names
        self.named: dict[int, dict[tuple[str, ...], set[int]]] = {}
        self.name_lemmas: set[str] = set()
        self.name_keys: dict[str, list[tuple[int, int]]] = {}  # lemma -> (node, name index)
        self.long_name_keys: dict[str, list[tuple[int, int]]] = {}  # the names not combined
        self.name_sizes: dict[tuple[int, int], int] = {}
        for node in nodes:
            for q, e in enumerate(node.evidence):
                self.spans.setdefault(e.episode_uid, []).append((e.start, e.end, node.number))
                for lemma in _quote_lemmas(e.quote):
                    self.quoted.setdefault(lemma, set()).add((node.number, q))
            for k, names in enumerate(_name_sets(node)):
                self.name_sizes[(node.number, k)] = len(names)
                for lemma in names:
                    self.name_keys.setdefault(lemma, []).append((node.number, k))
                self.name_lemmas |= names
                need = _needed(len(names))
                if comb(len(names), need) > COMBINATIONS_PER_NAME:
                    for lemma in names:
                        self.long_name_keys.setdefault(lemma, []).append((node.number, k))
                    continue
                by_combination = self.named.setdefault(need, {})
                for combination in combinations(sorted(names), need):
                    by_combination.setdefault(combination, set()).add(node.number)

    def answers(self, subject: ContextNode) -> bool:
        """Whether an indexed node (other than `subject`) is said together with it; the
        cheapest test first."""
        number = subject.number
        for e in subject.evidence:
            for start, end, other in self.spans.get(e.episode_uid, ()):
                if start < e.end and e.start < end and other != number:
                    return True
        # A quote of an answer names the subject (by its label or an alias): some quote holds
        # every lemma of one of the name's half-size combinations.
        for names in _name_sets(subject):
            need = _needed(len(names))
            if comb(len(names), need) > COMBINATIONS_PER_NAME:
                hits = (key for w in names for key in self.quoted.get(w, ()))
                if _reaches(hits, lambda key, need=need: need, number):
                    return True
                continue
            for combination in combinations(sorted(names), need):
                holders = [self.quoted.get(w) for w in combination]
                if all(holders) and any(
                    key[0] != number
                    for key in set.intersection(*holders)  # type: ignore[arg-type]
                ):
                    return True
        # A quote of the subject names an answer.
        return any(self._quote_names_answer(e.quote, number) for e in subject.evidence)

    def _quote_names_answer(self, quote: str, subject: int) -> bool:
        said = sorted(_quote_lemmas(quote) & self.name_lemmas)
        for need, by_combination in self.named.items():
            if comb(len(said), need) > COMBINATIONS_PER_QUOTE:
                return self._counted(said, subject, self.name_keys)
            for combination in combinations(said, need):
                if by_combination.get(combination, set()) - {subject}:
                    return True
        return self._counted(said, subject, self.long_name_keys)

    def _counted(
        self, said: list[str], subject: int, keys: dict[str, list[tuple[int, int]]]
    ) -> bool:
        """The same test by counting the lemmas the quote shares with each name of `keys`."""
        hits = (key for lemma in said for key in keys.get(lemma, ()))
        return _reaches(hits, lambda key: _needed(self.name_sizes[key]), subject)


def _reaches(
    hits: Iterable[tuple[int, int]], need: Callable[[tuple[int, int]], int], subject: int
) -> bool:
    """Whether some (node, index) key other than the subject's is hit `need(key)` times,
    stopped as soon as one key gets there."""
    counts: dict[tuple[int, int], int] = {}
    for key in hits:
        if key[0] == subject:
            continue
        counts[key] = found = counts.get(key, 0) + 1
        if found >= need(key):
            return True
    return False


def research_gaps(
    nodes: list[ContextNode],
    edges: list[ContextEdge],
    language: str,
    answerers: Iterable[ContextNode] = (),
) -> list[Gap]:
    """The questions the research truly leaves open about `nodes`: a gap is reported only when
    no edge answers it (`edges` may reach nodes outside `nodes`) and no node of `nodes` or of
    `answerers` (nodes asked about in no gap of their own) of an answering type is said
    together with the node."""
    links: dict[tuple[int, str], set[str]] = {}
    for edge in edges:
        links.setdefault((edge.source, "out"), set()).add(edge.relation)
        links.setdefault((edge.target, "in"), set()).add(edge.relation)
    by_type: dict[str, list[ContextNode]] = {}
    for node in nodes:
        by_type.setdefault(node.type, []).append(node)
    answering = {t: list(group) for t, group in by_type.items()}
    for node in answerers:
        answering.setdefault(node.type, []).append(node)
    indexes: dict[tuple[str, ...], _Answers] = {}  # built once per answering types, if needed
    gaps = []
    for rule in GAP_RULES:
        for node in by_type.get(rule.node_type, ()):
            if set(rule.relations) & links.get((node.number, rule.end), set()):
                continue
            if rule.answer_types not in indexes:
                indexes[rule.answer_types] = _Answers(
                    n for t in rule.answer_types for n in answering.get(t, ())
                )
            if indexes[rule.answer_types].answers(node):
                continue
            gaps.append(
                Gap(
                    rule=rule.rule,
                    node=node.number,
                    question=_text(language, rule.rule).format(label=node.label),
                )
            )
    return gaps
