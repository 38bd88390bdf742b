"""DOCX: headings, paragraphs and tables in document order; every chunk keeps its section
path and, when the document marks page breaks, its page."""

from __future__ import annotations

import io
import re

import docx
from docx.table import Table
from docx.text.paragraph import Paragraph

from kg.ledger.importing import STATEMENT_HEADING_WORDS
from kg.ledger.sources.base import ImportOptions, SourceError, SourceRead
from kg.ledger.sources.chunks import ChunkBuilder

_HEADING_STYLE = re.compile(r"^heading\s*(\d)$", re.IGNORECASE)
_EXPLICIT_BREAK = './/w:br[@w:type="page"]'
_RENDERED_BREAK = ".//w:lastRenderedPageBreak"


def read_docx(name: str, raw: bytes, options: ImportOptions) -> SourceRead:
    try:
        document = docx.Document(io.BytesIO(raw))
        blocks = list(document.iter_inner_content())
    except Exception as exc:  # python-docx raises zip, XML and key errors for damaged files
        raise SourceError(
            f"{name} is not a readable Word document (.docx): {_reason(exc)}; "
            "open it in Word and save it again"
        ) from None
    body = document.element.body
    # Word records where it last laid out each page; without those, hard page breaks count.
    breaks = _RENDERED_BREAK if body.xpath(_RENDERED_BREAK) else _EXPLICIT_BREAK
    paged = bool(body.xpath(breaks))
    read = SourceRead(unit="paragraph")
    chunks = ChunkBuilder(read)
    path: list[tuple[int, str]] = []  # (level, heading): the title, then Heading 1, 2…
    page = 1
    for block in blocks:
        read.units += 1
        names = [text for _level, text in path]
        ref = {"file": name, "format": "docx", "section": names[-1] if names else ""}
        ref["section_path"] = names
        if paged:
            ref["page"] = page
        if isinstance(block, Paragraph):
            text = block.text.strip()
            level = _heading_level(block)
            if level is not None and text:
                chunks.flush()
                path = [(lv, t) for lv, t in path if lv < level] + [(level, text)]
                if len(text.split()) >= STATEMENT_HEADING_WORDS:  # a finding, quotable
                    names = [t for _lv, t in path]
                    chunks.add(text, {**ref, "section": text, "section_path": names}, heading=True)
            else:
                chunks.add(text, ref)
            page += len(block._p.xpath(breaks))
        elif isinstance(block, Table):
            for row in _table_rows(block):
                chunks.add(row, ref)
            page += len(block._tbl.xpath(breaks))
    chunks.flush()
    if not read.items and not read.skipped:
        raise SourceError(f"{name} holds no text")
    return read


def _heading_level(paragraph: Paragraph) -> int | None:
    """0 for the document's title (above its Heading 1), N for Heading N, None for text."""
    name = (paragraph.style.name if paragraph.style is not None else "") or ""
    if name.lower() == "title":
        return 0
    match = _HEADING_STYLE.match(name.strip())
    return int(match.group(1)) if match else None


def _table_rows(table: Table) -> list[str]:
    rows = []
    for row in table.rows:
        cells: list[str] = []
        for cell in row.cells:  # a merged cell is repeated for every grid column it spans
            text = " ".join(cell.text.split())
            if text and (not cells or cells[-1] != text):
                cells.append(text)
        if cells:
            rows.append(" | ".join(cells))
    return rows


def _reason(exc: Exception) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text if len(text) <= 120 else text[:119] + "…"
