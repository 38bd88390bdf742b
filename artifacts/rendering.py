"""The renderer: the system, not the model, writes every citation.

A citation reads *(pain #12, confidence 82; message #3, 5 March: "the app lags on weak
internet"; confirmed in messages #8, #18)*: node type and number, the node's confidence, the
episode number ("message #N" is episode N), its date and the verbatim quote, then the node's
other supporting episodes. Three outputs from one loaded document: the JSON shape (command and
API), Markdown, and HTML where everything user-written is escaped by Django and each citation
is a footnote marker linking to the node's evidence in the research view, with a tooltip
(node, confidence, date, quote).

Each section ends with what it leaves out ("and 140 more pains in the research view"): the
version's report keeps only the counts; the words and the link (from the research view's URL
name) are made when the document is shown, and frozen Markdown carries the words alone.

After the appendix, a separate block lists the org insights frozen with the version ("also seen
in other projects of the organization"): label, type, confidence, the note, this project's node
numbers and the other projects' names. They are not claims and carry no other project's quotes.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from artifacts.models import ArtifactVersion, Citation, ClaimKind, Section
from artifacts.priorities import Priority
from artifacts.sections import (
    BODY_SECTIONS,
    MONTHS,
    OPEN_QUESTION,
    counted,
    more_words,
    people_and_messages,
    title,
    words,
)
from kg.ontology import type_name
from kg.read_models import citation_source


@dataclass(frozen=True)
class CitationView:
    node: int
    node_type: str
    node_label: str
    confidence: int
    episode_uid: str
    episode: int  # the episode number, shown as "message #N"
    date: dt.datetime
    author: str
    quote: str
    file: str
    page: str
    confirmed_in: tuple[int, ...]
    start: int = 0


@dataclass(frozen=True)
class ClaimView:
    text: str
    kind: str
    nodes: tuple[int, ...]
    citations: tuple[CitationView, ...]
    flag: str = ""  # why an edited sentence is no longer supported by its citations
    edited: bool = False

    def by_node(self) -> list[tuple[int, list[CitationView]]]:
        """Citations grouped per node, in citation order."""
        groups: dict[int, list[CitationView]] = {}
        for c in self.citations:
            groups.setdefault(c.node, []).append(c)
        return list(groups.items())

    def by_quote(self) -> list[list[CitationView]]:
        """Citations grouped per quoted span (an appendix entry: one message), in order: each
        group is one quote and the nodes it supports."""
        groups: dict[tuple[str, str, int], list[CitationView]] = {}
        for c in self.citations:
            groups.setdefault((c.episode_uid, c.quote, c.start), []).append(c)
        return list(groups.values())


@dataclass(frozen=True)
class SectionView:
    key: str
    title: str
    claims: tuple[ClaimView, ...]


@dataclass(frozen=True)
class OrgInsightView:
    """An org insight as frozen with the version (report["org_insights"])."""

    label: str
    node_type: str
    confidence: int
    local_nodes: tuple[int, ...]
    other_projects: tuple[str, ...]
    note: str

    @classmethod
    def of(cls, data: dict) -> OrgInsightView:
        return cls(
            label=str(data.get("label", "")),
            node_type=str(data.get("node_type", "")),
            confidence=int(data.get("confidence", 0)),
            local_nodes=tuple(int(n) for n in data.get("local_nodes", ())),
            other_projects=tuple(str(p) for p in data.get("other_projects", ())),
            note=str(data.get("note", "")),
        )


@dataclass
class Document:
    project_name: str
    project_slug: str
    language: str
    version: int | None
    created_at: dt.datetime
    as_of: dt.datetime | None
    engine: str
    writer_model: str
    sections: list[SectionView]
    open_questions: list[ClaimView]
    appendix: list[ClaimView]
    dropped: list[dict] = field(default_factory=list)
    reviewer: dict = field(default_factory=dict)
    average_confidence: float = 0.0
    org_insights: list[OrgInsightView] = field(default_factory=list)
    # What each section leaves out: {section: {node type: count}}, and open questions.
    more: dict[str, dict[str, int]] = field(default_factory=dict)
    more_questions: int = 0
    decisions: list[ClaimView] = field(default_factory=list)  # what answers decided
    # The requirements' scores by node number (artifacts.priorities), frozen in the report.
    priorities: dict[int, Priority] = field(default_factory=dict)
    # The quotes of each node the appendix leaves out, by node number (read on its page).
    appendix_more: dict[int, int] = field(default_factory=dict)

    @property
    def reference_year(self) -> int:
        return (self.as_of or self.created_at).year


# Citation columns in CitationView's field order.
_CITATION_FIELDS = (
    "node_number",
    "node_type",
    "node_label",
    "confidence",
    "episode_uid",
    "episode_number",
    "date",
    "author",
    "quote",
    "file",
    "page",
    "confirmed_in",
    "start",
)


def load_document(version: ArtifactVersion) -> Document:
    project = version.artifact.project
    # Two queries, grouped here: a prefetch would send every claim id as a bind parameter, and
    # plain tuples skip model instantiation (tens of thousands of citations on large graphs).
    by_claim: dict[int, list[CitationView]] = {}
    rows = (
        Citation.objects.filter(claim__version=version)
        .order_by("claim_id", "order")
        .values_list("claim_id", *_CITATION_FIELDS)
    )
    for claim_id, *values in rows:
        view = CitationView(*values[:-2], confirmed_in=tuple(values[-2] or ()), start=values[-1])
        by_claim.setdefault(claim_id, []).append(view)
    grouped: dict[str, list[ClaimView]] = {}
    claims = version.claims.order_by("section", "order").values_list(
        "pk", "section", "text", "kind", "nodes", "flag", "edited"
    )
    for pk, section, text, kind, nodes, flag, edited in claims:
        grouped.setdefault(section, []).append(
            ClaimView(text, kind, tuple(nodes or ()), tuple(by_claim.get(pk, ())), flag, edited)
        )
    report = version.report or {}
    return Document(
        project_name=project.name or project.slug,
        project_slug=project.slug,
        language=version.language or project.language,
        version=version.number,
        created_at=version.created_at,
        as_of=version.as_of,
        engine=version.engine,
        writer_model=version.writer_model,
        sections=[
            SectionView(key, title(key, version.language), tuple(grouped.get(key, ())))
            for key in BODY_SECTIONS
        ],
        open_questions=grouped.get(Section.OPEN_QUESTIONS, []),
        appendix=grouped.get(Section.APPENDIX, []),
        decisions=grouped.get(Section.DECISIONS, []),
        dropped=list(report.get("dropped", [])),
        reviewer=dict(report.get("reviewer", {})),
        average_confidence=float(report.get("context", {}).get("average_confidence", 0.0)),
        org_insights=[OrgInsightView.of(i) for i in report.get("org_insights", [])],
        more={
            str(section): {str(t): int(n) for t, n in counts.items()}
            for section, counts in report.get("more", {}).get("sections", {}).items()
        },
        more_questions=int(report.get("more", {}).get("open_questions", 0)),
        priorities={p.node: p for p in map(Priority.of, report.get("priorities", []))},
        appendix_more={int(n): int(c) for n, c in report.get("appendix_more", {}).items()},
    )


# --- requirement priorities -----------------------------------------------------------------


def priority_text(priority: Priority, language: str, reference_year: int) -> str:
    """'Priority 1: score 2.1 = reach 3 × impact 1 × confidence 0.7. Why this rank: 2 people
    in 3 messages, newest 8 March; serves …; solves …; the research recommends it.'"""
    w = words(language)
    head = w["priority"].format(
        rank=priority.rank,
        score=f"{priority.score:g}",
        reach=priority.reach,
        impact=priority.impact,
        confidence=f"{priority.confidence / 100:g}",
    )
    latest = dt.datetime.fromisoformat(priority.latest).replace(tzinfo=dt.UTC)
    people, sources = people_and_messages(priority.people, priority.sources, language)
    reasons = [
        w["reach_parts" if priority.people else "reach_unnamed"].format(
            people=people,
            sources=sources,
            latest=format_date(latest, language, reference_year),
        )
    ]
    for key, items in (
        ("serves", priority.segments),
        ("solves", priority.pains),
        ("supports", priority.jobs),
    ):
        if items:
            reasons.append(
                w[key].format(items=", ".join(f"{i.label} (#{i.number})" for i in items))
            )
    if priority.recommended:
        reasons.append(w["asked"])
    if priority.severe:
        reasons.append(w["severe"])
    return f"{head} {w['why']}: {'; '.join(reasons)}."


def ranked_claims(doc: Document, claims: tuple[ClaimView, ...]) -> dict[int, Priority]:
    """Index of the claim that shows each requirement's priority: its first claim."""
    shown: dict[int, Priority] = {}
    done: set[int] = set()
    for i, claim in enumerate(claims):
        for number in claim.nodes:
            priority = doc.priorities.get(number)
            if priority is not None and number not in done:
                done.add(number)
                shown[i] = priority
                break
    return shown


# --- what a section leaves out --------------------------------------------------------------

RESEARCH_VIEW = "research:nodes"  # the URL name of the project's research view


def appendix_left_out(doc: Document) -> list[tuple[CitationView, int]]:
    """(a citation of the node, count) for each node whose quotes the appendix cuts, in the
    order the nodes first appear in it."""
    found: dict[int, CitationView] = {}
    for entry in doc.appendix:
        for c in entry.citations:
            found.setdefault(c.node, c)
    return [(c, doc.appendix_more[n]) for n, c in found.items() if doc.appendix_more.get(n, 0) > 0]


def appendix_more_text(c: CitationView, count: int, language: str) -> str:
    """'pain #12 Couriers lose orders: and 140 more quotes on its page'."""
    w = words(language)
    return (
        f"{_node_ref(c, language)} {c.node_label}: {more_words(language)['lead']}"
        f"{counted(count, 'quote', language)}{w['on_its_page']}"
    )


def research_view_url(slug: str, node_type: str = "") -> str:
    url = reverse(RESEARCH_VIEW, args=[slug])
    return f"{url}?type={node_type}" if node_type else url


def _left_out(doc: Document, section: str) -> list[tuple[str, int]]:
    """(node type or OPEN_QUESTION, count) left out of a section, in the section's order."""
    if section == Section.OPEN_QUESTIONS:
        return [(OPEN_QUESTION, doc.more_questions)] if doc.more_questions > 0 else []
    return [(t, n) for t, n in doc.more.get(section, {}).items() if n > 0]


def more_text(doc: Document, section: str) -> str:
    """'and 140 more pains, 3 more markets in the research view'; '' when nothing is left out."""
    items = _left_out(doc, section)
    if not items:
        return ""
    w = more_words(doc.language)
    listed = ", ".join(counted(n, t, doc.language) for t, n in items)
    return f"{w['lead']}{listed}{w['tail']}"


# --- shared wording -------------------------------------------------------------------------


def format_date(moment: dt.datetime, language: str, reference_year: int) -> str:
    """'5 March' within the document's year, '5 March 2025' otherwise (RU: '5 марта')."""
    moment = moment.astimezone(dt.UTC)
    months = MONTHS.get(language, MONTHS["en"])
    text = f"{moment.day} {months[moment.month - 1]}"
    return text if moment.year == reference_year else f"{text} {moment.year}"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _node_ref(c: CitationView, language: str) -> str:
    return f"{type_name(c.node_type, language)} #{c.node}"


def _by(c: CitationView) -> str:
    return f", {c.author}" if c.author else ""


def _source(c: CitationView, language: str) -> str:
    where = citation_source(c.file, c.page, language)  # "transcript-04.docx, §Onboarding, p. 3"
    return f" ({where})" if where else ""


# The most other messages a citation names ("confirmed in messages #3, #8, #9 and 140 more"):
# the node's page lists them all.
CONFIRMED_SHOWN = 3


def _confirmed_more(numbers: tuple[int, ...], language: str) -> str:
    """' and 140 more' after the messages a citation names; '' when it names them all."""
    left = len(numbers) - CONFIRMED_SHOWN
    return words(language)["confirmed_more"].format(count=left) if left > 0 else ""


def _confirmed_words(numbers: tuple[int, ...], language: str) -> str:
    w = words(language)
    lead = w["confirmed_one"] if len(numbers) == 1 else w["confirmed_many"]
    shown = ", ".join(f"#{n}" for n in numbers[:CONFIRMED_SHOWN])
    return f"{lead} {shown}{_confirmed_more(numbers, language)}"


def citation_text(group: list[CitationView], language: str, reference_year: int) -> str:
    """Plain text of one node's citation, e.g. 'pain #12, confidence 82; message #3, ...'."""
    w = words(language)
    first = group[0]
    parts = [f"{_node_ref(first, language)}, {w['confidence']} {first.confidence}"]
    for c in group:
        parts.append(
            f"{w['message']} #{c.episode}{_source(c, language)}, "
            f"{format_date(c.date, language, reference_year)}: "
            f"{w['quote_open']}{_one_line(c.quote)}{w['quote_close']}"
        )
    if first.confirmed_in:
        parts.append(_confirmed_words(first.confirmed_in, language))
    return "; ".join(parts)


def org_note(item: OrgInsightView, language: str) -> str:
    """ "also seen in 2 other projects", in the document's language."""
    count = len(item.other_projects)
    if language == "ru":
        one = count % 10 == 1 and count % 100 != 11
        return f"также встречается ещё в {count} {'другом проекте' if one else 'других проектах'}"
    return item.note or f"also seen in {count} other project{'' if count == 1 else 's'}"


def message_url(slug: str, episode: int, node: int | None = None) -> str:
    """The whole message, scrolled to the words it is cited for: those of `node` when given,
    else every quote the research takes from it."""
    url = reverse("research:message", args=[slug, episode])
    return f"{url}?node={node}#quote" if node else f"{url}#quote"


def node_evidence_url(slug: str, node: int, episode: int) -> str:
    """The node's research page at the cited message, its quoted words highlighted there:
    one click from a claim to the quote, a second to the whole message."""
    url = reverse("research:node", args=[slug, node])
    return f"{url}?episode={episode}#evidence-{episode}"


# --- JSON -----------------------------------------------------------------------------------


def _citation_json(c: CitationView) -> dict:
    return {
        "node": c.node,
        "node_type": c.node_type,
        "node_label": c.node_label,
        "confidence": c.confidence,
        "episode": c.episode_uid,
        "message_number": c.episode,
        "date": c.date.astimezone(dt.UTC).isoformat().replace("+00:00", "Z"),
        "quote": c.quote,
        "file": c.file,
        "page": c.page,
        "confirmed_in": list(c.confirmed_in),
    }


def to_json(doc: Document) -> dict:
    """The shape shared by the command and the API."""
    return {
        "version": doc.version,
        "language": doc.language,
        "project": doc.project_slug,
        "as_of": doc.as_of.isoformat() if doc.as_of else None,
        "created_at": doc.created_at.isoformat(),
        "engine": doc.engine,
        "writer_model": doc.writer_model,
        "sections": [
            {
                "key": s.key,
                "title": s.title,
                "claims": [
                    {
                        "text": c.text,
                        "kind": c.kind,
                        "nodes": list(c.nodes),
                        "citations": [_citation_json(x) for x in c.citations],
                        "flag": c.flag,
                        "edited": c.edited,
                    }
                    for c in s.claims
                ],
            }
            for s in doc.sections
        ],
        "decisions": [
            {
                "text": d.text,
                "kind": d.kind,
                "nodes": list(d.nodes),
                "citations": [_citation_json(x) for x in d.citations],
            }
            for d in doc.decisions
        ],
        "open_questions": [
            {
                "text": q.text,
                "kind": q.kind,
                "nodes": list(q.nodes),
                "citations": [_citation_json(x) for x in q.citations],
            }
            for q in doc.open_questions
        ],
        "appendix": [_appendix_json(e) for e in doc.appendix if e.citations],
        # Each node's quotes the appendix leaves out: its page has them all.
        "appendix_more": [
            {"node": c.node, "node_type": c.node_type, "more": count}
            for c, count in appendix_left_out(doc)
        ],
        "priorities": [
            p.as_report() | {"why": priority_text(p, doc.language, doc.reference_year)}
            for p in sorted(doc.priorities.values(), key=lambda p: p.rank)
        ],
        "dropped": [
            {
                "text": d.get("text", ""),
                "reason": d.get("reason", ""),
                "section": d.get("section", ""),
                "nodes": d.get("nodes", []),
            }
            for d in doc.dropped
        ],
        "reviewer": doc.reviewer,
        # What the PRD leaves out, per section and node type; the research view lists them.
        "more": {
            **{s: dict(counts) for s, counts in doc.more.items()},
            Section.OPEN_QUESTIONS: doc.more_questions,
        },
        # Not claims and not this project's evidence: what other projects of the org hold too.
        "org_insights": [
            {
                "label": i.label,
                "node_type": i.node_type,
                "confidence": i.confidence,
                "note": org_note(i, doc.language),
                "local_nodes": list(i.local_nodes),
                "other_projects": list(i.other_projects),
            }
            for i in doc.org_insights
        ],
    }


def _appendix_json(entry: ClaimView) -> dict:
    """One message of the appendix: its quotes, each once, with the nodes each supports."""
    first = entry.citations[0]
    return {
        "message_number": first.episode,
        "episode": first.episode_uid,
        "date": first.date.astimezone(dt.UTC).isoformat().replace("+00:00", "Z"),
        "author": first.author,
        "file": first.file,
        "page": first.page,
        "nodes": list(entry.nodes),
        "quotes": [
            {
                "quote": group[0].quote,
                "nodes": [
                    {
                        "node": c.node,
                        "node_type": c.node_type,
                        "node_label": c.node_label,
                        "confidence": c.confidence,
                    }
                    for c in group
                ],
            }
            for group in entry.by_quote()
        ],
    }


# --- Markdown -------------------------------------------------------------------------------

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>])")


def md_escape(text: str) -> str:
    """User-written text inside Markdown: one line, and no markup of its own."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", _one_line(text))


def _md_citations(claim: ClaimView, language: str, year: int) -> str:
    return " ".join(
        f"*({md_escape(citation_text(group, language, year))})*" for _, group in claim.by_node()
    )


def _empty(section: str, language: str) -> str:
    w = words(language)
    return w["empty_non_goals"] if section == Section.NON_GOALS else w["empty"]


def _md_sentence(claim: ClaimView, language: str, year: int) -> str:
    return (
        f"{_md_badge(claim.kind, language)}{md_escape(claim.text)} "
        f"{_md_citations(claim, language, year)}{_md_flag(claim, language)}"
    ).rstrip()


def _md_flag(claim: ClaimView, language: str) -> str:
    if not claim.flag:
        return ""
    return f" **{words(language)['flagged']}: {md_escape(claim.flag)}**"


def _md_badge(kind: str, language: str) -> str:
    w = words(language)
    badge = {
        ClaimKind.HYPOTHESIS: w["hypothesis"],
        ClaimKind.GAP: w["gap"],
        ClaimKind.CONTRADICTION: w["contradiction"],
    }.get(kind)
    return f"**{badge}:** " if badge else ""


def _md_header(doc: Document) -> list[str]:
    w = words(doc.language)
    bits = []
    if doc.version:
        bits.append(f"{w['version']} {doc.version}")
    bits.append(format_date(doc.created_at, doc.language, 0))
    if doc.as_of:
        bits.append(f"{w['as_of']} {format_date(doc.as_of, doc.language, 0)}")
    if doc.engine == "offline":
        bits.append(f"{w['offline']} ({doc.writer_model})")
    elif doc.writer_model:
        bits.append(f"{w['model']} {doc.writer_model}")
    bits.append(f"{w['average_confidence']} {doc.average_confidence:g}")
    return [f"# {w['prd']} — {md_escape(doc.project_name)}", "", " · ".join(bits), ""]


def render_markdown(doc: Document) -> str:
    w = words(doc.language)
    year = doc.reference_year
    lines = _md_header(doc)
    for section in doc.sections:
        lines += [f"## {section.title}", ""]
        if not section.claims:
            lines.append(f"_{_empty(section.key, doc.language)}_")
        elif section.key == Section.PROBLEM:
            # The problem statement reads as one paragraph, each sentence with its citations.
            lines += [" ".join(_md_sentence(c, doc.language, year) for c in section.claims), ""]
            if more := more_text(doc, section.key):
                lines += [f"_{md_escape(more)}_", ""]
            continue
        ranked = ranked_claims(doc, section.claims) if section.key == Section.REQUIREMENTS else {}
        if ranked:
            lines += [f"_{md_escape(w['formula'])}_", ""]
        for i, claim in enumerate(section.claims):
            lines.append(f"- {_md_sentence(claim, doc.language, year)}")
            if i in ranked:
                lines.append(f"  - _{md_escape(priority_text(ranked[i], doc.language, year))}_")
        lines.append("")
        if more := more_text(doc, section.key):
            lines += [f"_{md_escape(more)}_", ""]
    if doc.decisions:
        lines += [f"## {title(Section.DECISIONS, doc.language)}", ""]
        for decision in doc.decisions:
            lines.append(
                f"- {md_escape(decision.text)} "
                f"{_md_citations(decision, doc.language, year)}".rstrip()
            )
        lines.append("")
    lines += [f"## {title(Section.OPEN_QUESTIONS, doc.language)}", ""]
    if not doc.open_questions:
        lines += [f"_{w['no_questions']}_", ""]
    for question in doc.open_questions:
        lines.append(
            f"- {_md_badge(question.kind, doc.language)}{md_escape(question.text)} "
            f"{_md_citations(question, doc.language, year)}".rstrip()
        )
    if doc.open_questions:
        lines.append("")
    if more := more_text(doc, Section.OPEN_QUESTIONS):
        lines += [f"_{md_escape(more)}_", ""]
    lines += [f"## {title(Section.APPENDIX, doc.language)}", ""]
    for entry in doc.appendix:
        if not entry.citations:
            continue
        first = entry.citations[0]
        lines.append(
            f"- **{w['message']} #{first.episode}**{md_escape(_source(first, doc.language))}, "
            f"{format_date(first.date, doc.language, year)}{md_escape(_by(first))}"
        )
        for group in entry.by_quote():
            quote = f"{w['quote_open']}{md_escape(group[0].quote)}{w['quote_close']}"
            supports = "; ".join(
                f"{_node_ref(c, doc.language)} {md_escape(c.node_label)} "
                f"({w['confidence']} {c.confidence})"
                for c in group
            )
            lines.append(f"  - {quote} — {supports}")
    for c, count in appendix_left_out(doc):
        lines.append(f"- _{md_escape(appendix_more_text(c, count, doc.language))}_")
    if doc.org_insights:
        lines += ["", f"## {w['org_insights']}", "", f"_{w['org_insights_hint']}_", ""]
        lines += [_md_org_insight(i, doc.language) for i in doc.org_insights]
    return "\n".join(lines).rstrip() + "\n"


def _md_org_insight(item: OrgInsightView, language: str) -> str:
    """'- **pain — Label** (confidence 70) — also seen in 1 other project; here: pain #3;
    other projects: Warehouse'. User-written parts are escaped; no quotes of other projects."""
    w = words(language)
    kind = type_name(item.node_type, language)
    here = ", ".join(f"{kind} #{n}" for n in item.local_nodes)
    return (
        f"- **{kind} — {md_escape(item.label)}** ({w['confidence']} {item.confidence}) — "
        f"{md_escape(org_note(item, language))}; {w['here']}: {here}; "
        f"{w['other_projects']}: {md_escape(', '.join(item.other_projects))}"
    )


# --- HTML -----------------------------------------------------------------------------------
# Every value interpolated into markup goes through _e (Django's escape), system words included;
# only fragments this module built itself (named *_html) are inserted as they are. format_html
# does the same per call but costs ~3x at tens of thousands of citations.


def _e(value: object) -> str:
    return escape(str(value))


@dataclass
class _Footnotes:
    """Numbers citation markers across the document and collects the footnote texts."""

    slug: str
    language: str
    year: int
    items: list[str] = field(default_factory=list)

    def marker(self, c: CitationView, group: list[CitationView]) -> str:
        number = len(self.items) + 1
        w = words(self.language)
        tip = (
            f"{_node_ref(c, self.language)} · {c.node_label} · {w['confidence']} "
            f"{c.confidence} · {format_date(c.date, self.language, self.year)} · "
            f"{w['quote_open']}{_one_line(c.quote)}{w['quote_close']}"
        )
        self.items.append(self._footnote(number, c, group))
        return (
            f'<sup class="cite"><a id="ref-{number}" '
            f'href="{_e(node_evidence_url(self.slug, c.node, c.episode))}"'
            f' data-episode="{_e(c.episode)}" data-node="{_e(c.node)}" data-footnote="fn-{number}"'
            f' title="{_e(tip)}">[{number}]</a></sup>'
        )

    def _footnote(self, number: int, c: CitationView, group: list[CitationView]) -> str:
        w = words(self.language)
        confirmed_html = ""
        if c is group[-1] and c.confirmed_in:
            lead = w["confirmed_one"] if len(c.confirmed_in) == 1 else w["confirmed_many"]
            links_html = ", ".join(
                f'<a href="{_e(message_url(self.slug, n, c.node))}" data-episode="{_e(n)}">'
                f"#{_e(n)}</a>"
                for n in c.confirmed_in[:CONFIRMED_SHOWN]
            )
            if more := _confirmed_more(c.confirmed_in, self.language):
                page = reverse("research:node", args=[self.slug, c.node])
                left = len(c.confirmed_in) - CONFIRMED_SHOWN
                links_html += f'<a href="{_e(page)}" data-more="{_e(left)}">{_e(more)}</a>'
            confirmed_html = f"; {_e(lead)} {links_html}"
        label = f"{w['quote_open']}{c.node_label}{w['quote_close']}"
        return (
            f'<li id="fn-{number}"><a href="#node-{_e(c.node)}">{_e(_node_ref(c, self.language))}'
            f"</a> {_e(label)}, {_e(w['confidence'])} {_e(c.confidence)}; "
            f'<a href="{_e(message_url(self.slug, c.episode, c.node))}" '
            f'data-episode="{_e(c.episode)}">'
            f"{_e(w['message'])} #{_e(c.episode)}</a>{_e(_source(c, self.language))}, "
            f"{_e(format_date(c.date, self.language, self.year))}: <q>{_e(_one_line(c.quote))}</q>"
            f'{confirmed_html} <a href="#ref-{number}" class="back">↩</a></li>'
        )


def _html_claim(claim: ClaimView, notes: _Footnotes) -> str:
    w = words(notes.language)
    badge_html = ""
    if claim.kind in (ClaimKind.HYPOTHESIS, ClaimKind.GAP, ClaimKind.CONTRADICTION):
        badge_html = f'<span class="badge badge-{_e(claim.kind)}">{_e(w[claim.kind])}</span> '
    markers_html = "".join(notes.marker(c, group) for _, group in claim.by_node() for c in group)
    nodes = " ".join(str(n) for n in claim.nodes)
    flag_html = (
        f' <span class="badge badge-flagged" title="{_e(claim.flag)}">{_e(w["flagged"])}: '
        f"{_e(claim.flag)}</span>"
        if claim.flag
        else ""
    )
    edited = ' data-edited="true"' if claim.edited else ""
    return (
        f'<li class="claim claim-{_e(claim.kind)}" data-nodes="{_e(nodes)}"{edited}>{badge_html}'
        f'<span class="claim-text">{_e(claim.text)}</span>{markers_html}{flag_html}</li>'
    )


def _html_list(claims: list[ClaimView] | tuple[ClaimView, ...], notes: _Footnotes) -> str:
    items_html = "".join(_html_claim(c, notes) for c in claims)
    return f'<ul class="claims">{items_html}</ul>'


def _html_paragraph(claims: tuple[ClaimView, ...], notes: _Footnotes) -> str:
    """Claims as the sentences of one paragraph (the problem statement), each with its notes."""
    sentences_html = " ".join(
        _html_claim(c, notes).replace("<li ", "<span ", 1).removesuffix("</li>") + "</span>"
        for c in claims
    )
    return f'<p class="claims paragraph">{sentences_html}</p>'


def _html_requirements(doc: Document, claims: tuple[ClaimView, ...], notes: _Footnotes) -> str:
    """Requirements by score: the formula once (and on hover), each one's rank and why."""
    ranked = ranked_claims(doc, claims)
    if not ranked:
        return _html_list(claims, notes)
    formula = words(doc.language)["formula"]
    items_html = []
    for i, claim in enumerate(claims):
        item_html = _html_claim(claim, notes)
        if i in ranked:
            p = ranked[i]
            line = priority_text(p, doc.language, doc.reference_year)
            item_html = item_html.removesuffix("</li>") + (
                f'<p class="priority" title="{_e(formula)}" data-node="{_e(p.node)}" '
                f'data-rank="{_e(p.rank)}" data-score="{_e(p.score)}">{_e(line)}</p></li>'
            )
        items_html.append(item_html)
    return (
        f'<p class="priority-formula">{_e(formula)}</p>'
        f'<ul class="claims">{"".join(items_html)}</ul>'
    )


def _html_section(key: str, heading: str, body_html: str) -> str:
    return (
        f'<section class="prd-section" id="section-{_e(key)}"><h2>{_e(heading)}</h2>'
        f"{body_html}</section>"
    )


def render_html(doc: Document) -> SafeString:
    """The document body: user text escaped, citations as footnote markers to chat messages."""
    w = words(doc.language)
    notes = _Footnotes(slug=doc.project_slug, language=doc.language, year=doc.reference_year)
    parts_html: list[str] = []
    for section in doc.sections:
        if not section.claims:
            body_html = f'<p class="empty">{_e(_empty(section.key, doc.language))}</p>'
        elif section.key == Section.PROBLEM:
            body_html = _html_paragraph(section.claims, notes)
        elif section.key == Section.REQUIREMENTS:
            body_html = _html_requirements(doc, section.claims, notes)
        else:
            body_html = _html_list(section.claims, notes)
        parts_html.append(
            _html_section(section.key, section.title, body_html + _html_more(doc, section.key))
        )
    if doc.decisions:
        parts_html.append(
            _html_section(
                Section.DECISIONS,
                title(Section.DECISIONS, doc.language),
                _html_list(doc.decisions, notes),
            )
        )
    questions_html = (
        _html_list(doc.open_questions, notes)
        if doc.open_questions
        else f'<p class="empty">{_e(w["no_questions"])}</p>'
    )
    parts_html.append(
        _html_section(
            Section.OPEN_QUESTIONS,
            title(Section.OPEN_QUESTIONS, doc.language),
            questions_html + _html_more(doc, Section.OPEN_QUESTIONS),
        )
    )
    parts_html.append(_html_appendix(doc))
    if doc.org_insights:
        parts_html.append(_html_org_insights(doc))
    parts_html.append(f'<section class="footnotes"><ol>{"".join(notes.items)}</ol></section>')
    body_html = "".join(parts_html)
    # Safe: every value above went through _e; only this module's own markup is unescaped.
    return mark_safe(f'<article class="prd" lang="{_e(doc.language)}">{body_html}</article>')  # noqa: S308


def _html_more(doc: Document, section: str) -> str:
    """The pointer to what the section leaves out; each count links to the research view."""
    items = _left_out(doc, section)
    if not items:
        return ""
    w = more_words(doc.language)
    links_html = ", ".join(
        f'<a href="{_e(research_view_url(doc.project_slug, "" if t == OPEN_QUESTION else t))}"'
        f' data-type="{_e(t)}" data-count="{_e(n)}">{_e(counted(n, t, doc.language))}</a>'
        for t, n in items
    )
    return f'<p class="more">{_e(w["lead"])}{links_html}{_e(w["tail"])}</p>'


def _html_appendix(doc: Document) -> str:
    """By message; a node's anchor (#node-N) is on its first mention, where org insights and
    readers land."""
    w = words(doc.language)
    anchored: set[int] = set()
    entries_html = []
    for entry in doc.appendix:
        if not entry.citations:
            continue
        first = entry.citations[0]
        quotes_html = []
        for group in entry.by_quote():
            refs_html = []
            for c in group:
                anchor = "" if c.node in anchored else f' id="node-{_e(c.node)}"'
                anchored.add(c.node)
                refs_html.append(
                    f'<span class="evidence-node"{anchor}><a href="'
                    f'{_e(reverse("research:node", args=[doc.project_slug, c.node]))}" '
                    f'data-node="{_e(c.node)}">{_e(_node_ref(c, doc.language))}</a> '
                    f"{_e(c.node_label)} ({_e(w['confidence'])} {_e(c.confidence)})</span>"
                )
            quotes_html.append(
                f"<li><q>{_e(_one_line(group[0].quote))}</q> — {'; '.join(refs_html)}</li>"
            )
        entries_html.append(
            f'<li id="message-{_e(first.episode)}" class="evidence-message"><strong>'
            f'<a href="{_e(message_url(doc.project_slug, first.episode))}" '
            f'data-episode="{_e(first.episode)}">{_e(w["message"])} #{_e(first.episode)}</a>'
            f"</strong>{_e(_source(first, doc.language))}, "
            f"{_e(format_date(first.date, doc.language, doc.reference_year))}"
            f"{_e(_by(first))}<ul>{''.join(quotes_html)}</ul></li>"
        )
    more_html = "".join(
        f'<li class="evidence-more"><a href="'
        f'{_e(reverse("research:node", args=[doc.project_slug, c.node]))}" '
        f'data-node="{_e(c.node)}" data-more="{_e(count)}">'
        f"{_e(appendix_more_text(c, count, doc.language))}</a></li>"
        for c, count in appendix_left_out(doc)
    )
    return _html_section(
        Section.APPENDIX,
        title(Section.APPENDIX, doc.language),
        f'<ul class="appendix">{"".join(entries_html)}{more_html}</ul>',
    )


def _html_org_insights(doc: Document) -> str:
    """Apart from the appendix: not claims, no footnotes, no other project's quotes."""
    w = words(doc.language)
    anchored = {c.node for e in doc.appendix for c in e.citations}
    items_html = []
    for item in doc.org_insights:
        kind = type_name(item.node_type, doc.language)
        refs_html = ", ".join(
            f'<a href="#node-{_e(n)}" data-node="{_e(n)}">{_e(kind)} #{_e(n)}</a>'
            if n in anchored
            else f'<span data-node="{_e(n)}">{_e(kind)} #{_e(n)}</span>'
            for n in item.local_nodes
        )
        items_html.append(
            f'<li class="org-insight" data-type="{_e(item.node_type)}">'
            f"<strong>{_e(kind)} — {_e(item.label)}</strong> "
            f"({_e(w['confidence'])} {_e(item.confidence)}) "
            f'<span class="org-note">{_e(org_note(item, doc.language))}</span>; '
            f"{_e(w['here'])}: {refs_html}; "
            f"{_e(w['other_projects'])}: "
            f'<span class="org-projects">{_e(", ".join(item.other_projects))}</span></li>'
        )
    return (
        f'<section class="prd-section org-insights" id="section-org-insights">'
        f"<h2>{_e(w['org_insights'])}</h2>"
        f'<p class="org-insights-hint">{_e(w["org_insights_hint"])}</p>'
        f'<ul class="org-insights">{"".join(items_html)}</ul></section>'
    )
