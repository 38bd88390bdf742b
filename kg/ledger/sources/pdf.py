"""PDF: the text layer, page by page; every chunk keeps its page number."""

from __future__ import annotations

import io
import re

from pypdf import PdfReader
from pypdf.errors import PdfReadError, PyPdfError

from kg.ledger.sources.base import MAX_PAGES, ImportOptions, SourceError, SourceRead
from kg.ledger.sources.chunks import ChunkBuilder

_SPACES = re.compile(r"[ \t\u00a0]+")
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")


def read_pdf(name: str, raw: bytes, options: ImportOptions) -> SourceRead:
    try:
        reader = PdfReader(io.BytesIO(raw))
        locked = reader.is_encrypted and not _opens_without_password(reader)
        count = 0 if locked else len(reader.pages)
    except (PdfReadError, PyPdfError, ValueError, KeyError, TypeError) as exc:
        raise SourceError(f"{name} is not a readable PDF ({exc})") from None
    if locked:
        raise SourceError(
            f"{name} is encrypted (password-protected): save a copy without the password "
            "and upload that"
        )
    pages = reader.pages
    if count > MAX_PAGES:
        raise SourceError(f"{name} has {count:,} pages; the limit is {MAX_PAGES:,} (split it)")
    read = SourceRead(units=count, unit="page")
    chunks = ChunkBuilder(read)
    without_text = 0
    for number in range(1, count + 1):
        try:
            text = pages[number - 1].extract_text() or ""
        except Exception as exc:  # a damaged page is reported; the other pages go on
            read.skipped.append(f"page {number}: unreadable ({exc})")
            continue
        if not text.strip():
            without_text += 1
            read.skipped.append(f"page {number}: no text layer (a scanned image?)")
            continue
        ref = {"file": name, "format": "pdf", "page": number}
        for paragraph in _PARAGRAPH_BREAK.split(text):
            chunks.add(
                "\n".join(_SPACES.sub(" ", line).strip() for line in paragraph.splitlines()), ref
            )
    chunks.flush()
    if count and without_text == count:
        raise SourceError(
            f"{name} has no text layer: its {count} page(s) are images (a scan?); "
            "run it through OCR and upload the result"
        )
    return read


def _opens_without_password(reader: PdfReader) -> bool:
    """Many PDFs are encrypted with an empty user password (only printing or copying is
    restricted): those open; one that needs a password does not."""
    try:
        return bool(reader.decrypt(""))
    except Exception:  # an unsupported cipher is as closed as a password
        return False
