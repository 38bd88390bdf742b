"""Retrieval over a project's research: the words of its messages and the meaning of its findings.

Three lists are ranked apart and fused by reciprocal rank (each list votes 1 / (60 + rank) for
an episode, so no list's raw scores need to be comparable with another's):
- text: the ledger's full-text index (kg.models.search) over the question's lemmas;
- meaning: the graph's vector index, the findings nearest the question in any language, each
  bringing the episodes its quotes stand in;
- graph: the neighbours of the best findings along their edges (a segment brings its pains).

What comes back are passages: verbatim words of one episode (a sentence the question's words
are in, or a finding's quote), with the scores that chose them, so an answer can cite them and
a "why this answer" view can show them. Every query takes the project: nothing crosses it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from django.db import connection
from django.utils.safestring import SafeString

from kg.graph import GraphUnavailable, NodeRecord, store
from kg.language.encoder import encode
from kg.language.lemmas import GENERIC
from kg.language.meaning import negated
from kg.ledger.search_index import index_project, search_lemmas
from kg.models import Episode, EpisodeSearchText, Project
from kg.ontology import NODE_TYPES
from kg.reading.node_trail import highlight

RRF_K = 60  # the usual constant of reciprocal rank fusion: ranks past ~60 count little
TEXT_HITS = 40
MEANING_HITS_PER_TYPE = 5
GRAPH_SEEDS = 5
QUOTE_CHARS = 320
WHO_TYPES = frozenset(
    {"segment", "product", "market"}
)  # a sentence longer than this is cut to a window around its matched words

# Words a question about research is made of, which name no topic: what people "say" or
# "complain about" is the question's frame, not what it asks about. General lists.
_FRAME_WORDS = """
    say said tell mention talk think feel complain complaint report ask wish like dislike
    anyone anybody somebody someone people person customer user respondent participant
    interviewee research note interview review feedback know whether why what which how who
    there main common top most reason experience request raise regard regarding around
    accord according describe encounter face
    говорить сказать рассказывать рассказать упоминать упомянуть жаловаться жалоба писать
    написать думать считать хотеть кто-то кто-нибудь кто-либо человек люди клиент
    пользователь респондент участник исследование отзыв заметка интервью известно почему
    какой чем главный основной частый причина опыт сталкиваться столкнуться сообщать
    сообщить высказывать описывать описать просить попросить насчет касаться например
    потребность связать слово сколько"""
QUESTION_FRAME = frozenset(_FRAME_WORDS.split())


# A question about problems ("what do couriers complain about?", «что мешает…?») is answered
# by problems: a pain or risk, or words that say something is wrong. General lists.
_PROBLEM_WORDS = """
    complain complaint problem issue trouble wrong break broken fail failure bug crash annoy
    frustrate frustrating struggle difficult difficulty hard slow stuck lose hate
    жаловаться жалоба проблема мешать ошибка сломаться ломаться сбой трудность сложность
    неудобство неудобный раздражать падать зависать тормозить глючить баг мешает"""
PROBLEM_WORDS = frozenset(_PROBLEM_WORDS.split())
PROBLEM_TYPES = frozenset({"pain", "risk"})


def asks_about_problems(question: str) -> bool:
    return bool(set(search_lemmas(question)) & PROBLEM_WORDS)


def says_something_is_wrong(passage: Passage) -> bool:
    """The passage reports a problem: a pain's or risk's quote, a negation ("does not sync"),
    or a word for a problem."""
    return (
        passage.node_type in PROBLEM_TYPES
        or negated(passage.quote)
        or bool(set(search_lemmas(passage.quote)) & PROBLEM_WORDS)
    )


@dataclass(frozen=True)
class Passage:
    """Verbatim words of one episode that may answer a question."""

    episode_uid: str
    episode_number: int
    quote: str
    start: int
    end: int
    node_uid: str = ""  # the finding this is the quote of, when it came from one
    node_label: str = ""
    node_type: str = ""
    score: float = 0.0  # fused rank score of its episode
    found_by: tuple[str, ...] = ()  # "text", "meaning", "graph"
    focus_share: float = 0.0  # the share of the question's topic words the passage holds
    cosine: float = 0.0  # the sentence encoder's cosine between question and passage


@dataclass
class Retrieval:
    question: str
    focus: frozenset[str]
    weights: dict[str, float] = field(default_factory=dict)  # each topic word's rarity
    passages: list[Passage] = field(default_factory=list)
    nearby: list[NodeRecord] = field(default_factory=list)  # the findings nearest in meaning
    trace: dict[str, list] = field(default_factory=dict)  # each list's ranking, for staff


def question_focus(question: str) -> frozenset[str]:
    """The lemmas that name what a question is about: its content words less the words every
    research question is framed in and the words that name no particular thing."""
    lemmas = {w for w in search_lemmas(question) if not w.isdigit() and len(w) > 1}
    focus = frozenset(w for w in lemmas if w not in QUESTION_FRAME and w not in GENERIC)
    return focus or frozenset(w for w in lemmas if w not in QUESTION_FRAME)


def _fts_terms(focus: Iterable[str]) -> list[str]:
    return sorted({w for w in focus if re.fullmatch(r"[\w'’-]+", w)})


def text_matches(project: Project, focus: Iterable[str], limit: int = TEXT_HITS) -> list[int]:
    """The project's episode ids whose words hold the focus lemmas, best first (BM25 on
    SQLite's FTS5, ts_rank on PostgreSQL)."""
    terms = _fts_terms(focus)
    if not terms:
        return []
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            query = " or ".join('"' + t.replace('"', " ") + '"' for t in terms)
            cursor.execute(
                "SELECT episode_id FROM kg_episodesearchtext, websearch_to_tsquery('simple', %s) q "
                "WHERE project_id = %s AND to_tsvector('simple', lemmas) @@ q "
                "ORDER BY ts_rank(to_tsvector('simple', lemmas), q) DESC, episode_id LIMIT %s",
                [query, project.pk, limit],
            )
        else:
            query = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)
            # The full-text match runs once, as the outer query: joined the other way round,
            # SQLite walks the project's rows and asks the index about each.
            cursor.execute(
                "SELECT f.rowid FROM (SELECT rowid, bm25(kg_episode_fts) AS rank "
                "FROM kg_episode_fts WHERE kg_episode_fts MATCH %s) f "
                "JOIN kg_episodesearchtext s ON s.episode_id = f.rowid "
                "WHERE s.project_id = %s ORDER BY f.rank, f.rowid LIMIT %s",
                [query, project.pk, limit],
            )
        return [row[0] for row in cursor.fetchall()]


def focus_weights(project: Project, focus: Iterable[str]) -> dict[str, float]:
    """How much each topic word says which messages are meant: its inverse document frequency
    in the project (a word every message has, the product's name, says little; a word no
    message has weighs most, so a question about it is not answered by the others)."""
    terms = _fts_terms(focus)
    total = EpisodeSearchText.objects.filter(project=project).count()
    weights = {}
    for term in terms:
        found = document_frequency(project, term)
        weights[term] = math.log((total + 1) / (found + 0.5))
    return weights


def document_frequency(project: Project, term: str) -> int:
    """How many of the project's messages hold the word."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT count(*) FROM kg_episodesearchtext WHERE project_id = %s "
                "AND to_tsvector('simple', lemmas) @@ websearch_to_tsquery('simple', %s)",
                [project.pk, '"' + term.replace('"', " ") + '"'],
            )
        else:
            cursor.execute(
                "SELECT count(*) FROM kg_episodesearchtext WHERE project_id = %s AND episode_id "
                "IN (SELECT rowid FROM kg_episode_fts WHERE kg_episode_fts MATCH %s)",
                [project.pk, '"' + term.replace('"', '""') + '"'],
            )
        return int(cursor.fetchone()[0])


def meaning_matches(project: Project, question_vector: list[float]) -> list[tuple[str, float]]:
    """The findings nearest the question in meaning, of every type: (uid, cosine), best first.
    Empty where the graph keeps no vectors."""
    asked = [(node_type, question_vector) for node_type in NODE_TYPES]  # one statement
    near = store.nearest_nodes_many(project.graph_scope, asked, MEANING_HITS_PER_TYPE) or []
    found = [pair for per_type in near for pair in per_type]
    return sorted(found, key=lambda pair: -pair[1])


_SENTENCE_END = re.compile(r"[.!?…](?=\s|$)|\n")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Each sentence's start and end (a line break ends one too), blanks trimmed."""
    spans, start = [], 0
    for found in _SENTENCE_END.finditer(text):
        spans.append((start, found.end()))
        start = found.end()
    spans.append((start, len(text)))
    trimmed = []
    for begin, end in spans:
        piece = text[begin:end]
        left = len(piece) - len(piece.lstrip())
        right = len(piece.rstrip())
        if right > left:
            trimmed.append((begin + left, begin + right))
    return trimmed


def best_sentence(text: str, weights: dict[str, float]) -> tuple[int, int, float]:
    """The sentence holding most of the topic words' weight (the earliest of equals), cut to a
    window of QUOTE_CHARS around its first matched word when longer; with the share it holds."""
    best = (0, min(len(text), QUOTE_CHARS), 0.0)
    for begin, end in sentence_spans(text):
        share = focus_share(text[begin:end], weights)
        if share > best[2]:
            best = (begin, end, share)
    begin, end, share = best
    if end - begin > QUOTE_CHARS:
        begin, end = _window(text, begin, end, weights)
    return begin, end, share


def _window(text: str, begin: int, end: int, weights: dict[str, float]) -> tuple[int, int]:
    for match in re.finditer(r"[\w][\w'’-]*", text[begin:end]):
        if set(search_lemmas(match.group())) & weights.keys():
            first = begin + match.start()
            start = max(begin, first - QUOTE_CHARS // 3)
            # whole words only: move to the next word start / previous word end
            while start > begin and not text[start - 1].isspace():
                start += 1
            stop = min(end, start + QUOTE_CHARS)
            while stop < end and not text[stop].isspace():
                stop -= 1
            return start, max(stop, first + len(match.group()))
    return begin, begin + QUOTE_CHARS


def focus_share(text: str, weights: dict[str, float]) -> float:
    """The share of the topic words' weight a text holds."""
    whole = sum(weights.values())
    if whole <= 0:
        return 0.0
    held = set(search_lemmas(text)) & weights.keys()
    return sum(weights[w] for w in held) / whole


def _fuse(rankings: dict[str, Sequence[int]]) -> dict[int, tuple[float, tuple[str, ...]]]:
    fused: dict[int, list] = {}
    for name, ranked in rankings.items():
        for rank, episode_id in enumerate(ranked, 1):
            entry = fused.setdefault(episode_id, [0.0, []])
            entry[0] += 1.0 / (RRF_K + rank)
            if name not in entry[1]:
                entry[1].append(name)
    return {k: (v[0], tuple(v[1])) for k, v in fused.items()}


def retrieve(project: Project, question: str, *, episodes: int = 12) -> Retrieval:
    """The passages of the project's research that may answer `question`, best first."""
    index_project(project)
    focus = question_focus(question)
    weights = focus_weights(project, focus)
    found = Retrieval(question=question, focus=focus, weights=weights)
    text_ids = text_matches(project, focus)
    vector = encode([question])[0]  # the question's meaning, for the vector index
    try:
        near = meaning_matches(project, [float(x) for x in vector])
    except GraphUnavailable:
        near = []
    near_nodes = _nodes(project, [uid for uid, _ in near])
    seeds = [near_nodes[uid] for uid, _ in near[:GRAPH_SEEDS] if uid in near_nodes]
    neighbours = _neighbours(project, seeds)
    found.nearby = [near_nodes[uid] for uid, _ in near if uid in near_nodes]

    by_uid = _episode_ids(
        project, {e.episode_uid for n in [*near_nodes.values(), *neighbours] for e in n.evidence}
    )
    meaning_ids = _ranked_unique(
        by_uid.get(e.episode_uid)
        for uid, _ in near
        if uid in near_nodes
        for e in near_nodes[uid].evidence
    )
    graph_ids = _ranked_unique(by_uid.get(e.episode_uid) for n in neighbours for e in n.evidence)
    rankings = {"text": text_ids, "meaning": meaning_ids, "graph": graph_ids}
    found.trace = {name: list(ranked[:20]) for name, ranked in rankings.items()}
    fused = _fuse(rankings)
    chosen = sorted(fused, key=lambda i: (-fused[i][0], i))[:episodes]
    rows = {e.pk: e for e in Episode.objects.filter(project=project, pk__in=chosen)}
    node_quotes = _node_quotes([*near_nodes.values(), *neighbours])
    candidates: list[Passage] = []
    for episode_id in chosen:
        episode = rows.get(episode_id)
        if episode is None:
            continue
        score, lists = fused[episode_id]
        uid = str(episode.uid)
        for node, quote in node_quotes.get(uid, []):
            if node.type in WHO_TYPES:
                continue  # who said it is not what was said: their words come as a sentence
            candidates.append(
                Passage(
                    episode_uid=uid,
                    episode_number=episode.number,
                    quote=quote.quote,
                    start=quote.start,
                    end=quote.end,
                    node_uid=node.uid,
                    node_label=node.label,
                    node_type=node.type,
                    score=score,
                    found_by=lists,
                    focus_share=focus_share(f"{node.label} {quote.quote}", weights),
                )
            )
        begin, end, share = best_sentence(episode.content, weights)
        candidates.append(
            Passage(
                episode_uid=uid,
                episode_number=episode.number,
                quote=episode.content[begin:end],
                start=begin,
                end=end,
                score=score,
                found_by=lists,
                focus_share=share,
            )
        )
    found.passages = _with_cosines(question, focus, _distinct(candidates))
    return found


def _distinct(passages: list[Passage]) -> list[Passage]:
    seen: set[tuple[str, str, int, int]] = set()
    kept = []
    for passage in passages:
        key = (passage.node_uid, passage.episode_uid, passage.start, passage.end)
        if key not in seen:
            seen.add(key)
            kept.append(passage)
    return kept


def _with_cosines(question: str, focus: frozenset[str], passages: list[Passage]) -> list[Passage]:
    """Each passage's nearness to the question: the best cosine of the question, or of its
    topic words alone, with the passage's words or the finding it is a quote of (a question's
    frame, "what do users say about", is in none of them)."""
    if not passages:
        return []
    asked = encode([question, " ".join(sorted(focus)) or question])
    texts = [p.quote for p in passages] + [p.node_label or p.quote for p in passages]
    vectors = encode(texts)
    count = len(passages)
    scored = []
    for i, passage in enumerate(passages):
        nearness = max(float(v @ q) for v in (vectors[i], vectors[count + i]) for q in asked)
        scored.append(replace(passage, cosine=round(nearness, 4)))
    return sorted(scored, key=lambda p: (-p.score, -p.cosine, p.episode_number, p.start))


def _ranked_unique(ids: Iterable) -> list:
    """The ids in their first order, once each, without the missing (None) ones."""
    return [i for i in dict.fromkeys(ids) if i is not None]


def _nodes(project: Project, uids: Sequence[str]) -> dict[str, NodeRecord]:
    if not uids:
        return {}
    try:
        records = store.nodes_by_uids(project.graph_scope, uids)
    except GraphUnavailable:
        return {}
    return {r.uid: r for r in records if r.status not in {"rejected", "merged"}}


def _neighbours(project: Project, seeds: Sequence[NodeRecord]) -> list[NodeRecord]:
    if not seeds:
        return []
    seed_uids = {n.uid for n in seeds}
    try:
        edges = store.edges_of_nodes(project.graph_scope, seed_uids)
    except GraphUnavailable:
        return []
    others = _ranked_unique(
        e.target if e.source in seed_uids else e.source for e in edges if e.invalid_at is None
    )
    found = _nodes(project, [uid for uid in others if uid not in seed_uids])
    return [found[uid] for uid in others if uid in found]


def _episode_ids(project: Project, uids: set[str]) -> dict[str, int]:
    if not uids:
        return {}
    return {
        str(uid): pk
        for uid, pk in Episode.objects.filter(project=project, uid__in=sorted(uids)).values_list(
            "uid", "pk"
        )
    }


def _node_quotes(nodes: Iterable[NodeRecord]) -> dict[str, list]:
    quotes: dict[str, list] = {}
    for node in nodes:
        for evidence in node.evidence:
            quotes.setdefault(evidence.episode_uid, []).append((node, evidence))
    return quotes


# --- "find every quote about X": the research view's search over the messages ---------------

SEARCH_HITS = 50


@dataclass(frozen=True)
class QuoteHit:
    episode_number: int
    author: str
    start: int  # the shown words' place in the message
    end: int
    snippet_html: SafeString  # the shown words, escaped, the matched words in <mark>


def search_quotes(project: Project, query: str, limit: int = SEARCH_HITS) -> list[QuoteHit]:
    """The project's messages holding the query's words (any form of them), best first, each
    with the sentence that holds most of them, the matched words marked."""
    index_project(project)
    terms = {w for w in search_lemmas(query) if len(w) > 1}
    weights = focus_weights(project, terms)
    if not weights:
        return []
    ranked = text_matches(project, weights.keys(), limit)
    rows = {e.pk: e for e in Episode.objects.filter(project=project, pk__in=ranked)}
    hits = []
    for episode_id in ranked:
        episode = rows[episode_id]
        begin, end, _ = best_sentence(episode.content, weights)
        marks = [
            (begin + m.start(), begin + m.end())
            for m in re.finditer(r"[\w][\w'’-]*", episode.content[begin:end])
            if set(search_lemmas(m.group())) & weights.keys()
        ]
        shown = episode.content[begin:end]
        snippet = highlight(shown, [(a - begin, b - begin) for a, b in marks])
        hits.append(QuoteHit(episode.number, episode.author, begin, end, snippet))
    return hits
