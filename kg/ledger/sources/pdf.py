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
    blank, pictured = 0, 0
    for number in range(1, count + 1):
        try:
            text = pages[number - 1].extract_text() or ""
        except Exception as exc:  # a damaged page is reported; the other pages go on
            read.skipped.append(f"page {number}: unreadable ({exc})")
            continue
        if not text.strip():
            if _draws_pictures(pages[number - 1]):
                pictured += 1
                read.skipped.append(f"page {number}: no text, only images (a scan?)")
            else:
                blank += 1
                read.skipped.append(f"page {number}: blank (no text, no images)")
            continue
        ref = {"file": name, "format": "pdf", "page": number}
        for paragraph in _PARAGRAPH_BREAK.split(text):
            chunks.add(
                "\n".join(_SPACES.sub(" ", line).strip() for line in paragraph.splitlines()), ref
            )
    chunks.flush()
    if count and blank + pictured == count:
        raise SourceError(_no_text(name, blank, pictured))
    return read


def _pages(n: int) -> str:
    return f"{n:,} page{'' if n == 1 else 's'}"


def _no_text(name: str, blank: int, pictured: int) -> str:
    """Why a PDF gave nothing: blank pages, pages of images (a scan, for OCR), or both."""
    if not pictured:
        pages = "its page is" if blank == 1 else f"all {blank:,} of its pages are"
        return f"{name} has no text: {pages} blank"
    ocr = "run it through OCR (text recognition) and upload the result"
    if not blank:
        only = "its page is an image" if pictured == 1 else f"its {pictured:,} pages are images"
        return f"{name} has no text layer: {only} (a scan?); {ocr}"
    return (
        f"{name} has no text: {_pages(blank)} blank and {_pages(pictured)} of images only "
        f"(a scan?); {ocr}"
    )


def _draws_pictures(page) -> bool:
    """Whether the page's content paints an image (or a form, which may hold one): a page
    without text that does is a scan; one that paints nothing is blank. A page's resources
    may list images it never paints, so the drawing operators are read, not the list."""
    try:
        contents = page.get_contents()
        operations = contents.operations if contents is not None else []
    except Exception:  # unreadable drawing: say images rather than call the page blank
        return True
    return any(op in (b"Do", b"INLINE IMAGE", b"BI") for _operands, op in operations)


def _opens_without_password(reader: PdfReader) -> bool:
    """Many PDFs are encrypted with an empty user password (only printing or copying is
    restricted): those open; one that needs a password does not."""
    try:
        return bool(reader.decrypt(""))
    except Exception:  # an unsupported cipher is as closed as a password
        return False
