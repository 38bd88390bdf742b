"""A PRD version as files a PM sends on: DOCX with the citations as footnotes, and the ranked
requirements as CSV for a Jira- or Linear-style import.

DOCX: the document's sections as headings, each sentence a paragraph followed by one footnote
per cited node ("pain #12, confidence 82; message #3, 5 March: "the app lags…""), the text the
Markdown shows in brackets. python-docx has no footnote API, so the footnotes part is written
here (word/footnotes.xml, related to the document part); Word, LibreOffice and python-docx
open it.

CSV columns (REQUIREMENT_COLUMNS): Summary, Issue Type, Priority, Score, Rank, Labels,
Description, Node. Priority is Jira's scale by rank (Highest for the first three, High to the
sixth, Medium to the tenth, then Low); Labels are the segments served, one label each with
spaces as hyphens (Jira labels hold no spaces); Description holds the "why this rank" line and
the quotes cited for the requirement, each with its message and date.
"""

from __future__ import annotations

import csv
import io
import re
from xml.sax.saxutils import escape

from docx import Document as DocxDocument
from docx.opc.constants import CONTENT_TYPE, RELATIONSHIP_TYPE
from docx.opc.packuri import PackURI
from docx.opc.part import Part
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls

from artifacts.models import Section
from artifacts.priorities import Priority
from artifacts.rendering import (
    ClaimView,
    Document,
    citation_text,
    format_date,
    more_text,
    priority_text,
    ranked_claims,
)
from artifacts.sections import title, words

REQUIREMENT_COLUMNS = (
    "Summary",
    "Issue Type",
    "Priority",
    "Score",
    "Rank",
    "Labels",
    "Description",
    "Node",
)
_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
# XML 1.0 refuses most control characters: user text may hold them.
_UNSAFE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _clean(text: str) -> str:
    return _UNSAFE.sub("", " ".join(str(text).split()))


class _Footnotes:
    """Footnote texts in order; ids start at 1 (-1 and 0 are Word's separators)."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def add(self, text: str) -> int:
        self.texts.append(_clean(text))
        return len(self.texts)

    def xml(self) -> bytes:
        notes = "".join(
            f'<w:footnote w:id="{i}"><w:p><w:r><w:rPr><w:vertAlign w:val="superscript"/>'
            f"</w:rPr><w:footnoteRef/></w:r>"
            f'<w:r><w:t xml:space="preserve"> {escape(text)}</w:t></w:r></w:p></w:footnote>'
            for i, text in enumerate(self.texts, start=1)
        )
        return (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
            f'<w:footnotes xmlns:w="{_W}">'
            '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p>'
            "</w:footnote>"
            '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r>'
            "<w:continuationSeparator/></w:r></w:p></w:footnote>"
            f"{notes}</w:footnotes>"
        ).encode()


def _reference(paragraph, note: int) -> None:
    run = paragraph.add_run()
    run._r.append(parse_xml(f'<w:rPr {nsdecls("w")}><w:vertAlign w:val="superscript"/></w:rPr>'))
    run._r.append(parse_xml(f'<w:footnoteReference {nsdecls("w")} w:id="{note}"/>'))


def _claim(docx, claim: ClaimView, doc: Document, notes: _Footnotes, style: str | None) -> None:
    paragraph = docx.add_paragraph(style=style)
    badge = {"hypothesis": "hypothesis", "gap": "gap", "contradiction": "contradiction"}
    if claim.kind in badge:
        paragraph.add_run(words(doc.language)[badge[claim.kind]] + ": ").bold = True
    paragraph.add_run(_clean(claim.text))
    for _, group in claim.by_node():
        _reference(paragraph, notes.add(citation_text(group, doc.language, doc.reference_year)))


def prd_docx(doc: Document) -> bytes:
    """The version as a Word document, every citation a footnote holding its quote."""
    w = words(doc.language)
    docx = DocxDocument()
    notes = _Footnotes()
    docx.add_heading(_clean(f"{w['prd']} — {doc.project_name}"), level=0)
    if doc.version:
        docx.add_paragraph(
            f"{w['version']} {doc.version} · {format_date(doc.created_at, doc.language, 0)}"
        )
    for section in doc.sections:
        docx.add_heading(section.title, level=1)
        if not section.claims:
            docx.add_paragraph(
                w["empty_non_goals"] if section.key == Section.NON_GOALS else w["empty"]
            )
        ranked = ranked_claims(doc, section.claims) if section.key == Section.REQUIREMENTS else {}
        if ranked:
            docx.add_paragraph().add_run(w["formula"]).italic = True
        for i, claim in enumerate(section.claims):
            style = None if section.key == Section.PROBLEM else "List Bullet"
            _claim(docx, claim, doc, notes, style)
            if i in ranked:
                line = docx.add_paragraph(style="List Bullet 2")
                line.add_run(
                    priority_text(ranked[i], doc.language, doc.reference_year)
                ).italic = True
        if more := more_text(doc, section.key):
            docx.add_paragraph(more)
    for key, claims in (
        (Section.DECISIONS, doc.decisions),
        (Section.OPEN_QUESTIONS, doc.open_questions),
    ):
        if key == Section.DECISIONS and not claims:
            continue
        docx.add_heading(title(key, doc.language), level=1)
        if not claims:
            docx.add_paragraph(w["no_questions"])
        for claim in claims:
            _claim(docx, claim, doc, notes, "List Bullet")
    part = Part(
        PackURI("/word/footnotes.xml"), CONTENT_TYPE.WML_FOOTNOTES, notes.xml(), docx.part.package
    )
    docx.part.relate_to(part, RELATIONSHIP_TYPE.FOOTNOTES)
    out = io.BytesIO()
    docx.save(out)
    return out.getvalue()


# --- the requirements as CSV ---------------------------------------------------------------


def _cell(value: object) -> str:
    """A spreadsheet reads a cell starting with = + - @ as a formula: such text is quoted."""
    text = _UNSAFE.sub("", str(value))
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def jira_priority(rank: int) -> str:
    if rank <= 3:
        return "Highest"
    if rank <= 6:
        return "High"
    if rank <= 10:
        return "Medium"
    return "Low"


def _label(text: str) -> str:
    return re.sub(r"\s+", "-", text.strip())


def _quotes_for(doc: Document, node: int) -> list[str]:
    """The quotes the requirements section cites for the node, each once, with its message."""
    section = next((s for s in doc.sections if s.key == Section.REQUIREMENTS), None)
    found: dict[tuple[int, str], str] = {}
    for claim in section.claims if section else ():
        for c in claim.citations:
            if c.node == node:
                date = format_date(c.date, doc.language, doc.reference_year)
                found.setdefault(
                    (c.episode, c.quote),
                    f'"{_clean(c.quote)}" ({words(doc.language)["message"]} #{c.episode}, {date})',
                )
    return list(found.values())


def requirements_csv(doc: Document) -> str:
    """One row per ranked requirement, best first, in REQUIREMENT_COLUMNS."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(REQUIREMENT_COLUMNS)
    ranked: list[Priority] = sorted(doc.priorities.values(), key=lambda p: p.rank)
    for p in ranked:
        description = "\n".join(
            [priority_text(p, doc.language, doc.reference_year), *_quotes_for(doc, p.node)]
        )
        writer.writerow(
            [
                _cell(_clean(p.label)),
                "Story",
                jira_priority(p.rank),
                f"{p.score:g}",
                p.rank,
                _cell(" ".join(_label(s.label) for s in p.segments)),
                _cell(description),
                p.node,
            ]
        )
    return out.getvalue()
