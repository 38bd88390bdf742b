"""HTML: the page's main content without navigation, scripts and other boilerplate; every
chunk keeps its heading path."""

from __future__ import annotations

import re

from bs4 import BeautifulSoup, Comment, Declaration, Doctype, NavigableString, Tag

from kg.ledger.importing import STATEMENT_HEADING_WORDS
from kg.ledger.sources.base import ImportOptions, SourceError, SourceRead
from kg.ledger.sources.chunks import ChunkBuilder

_DROPPED_TAGS = [
    "script",
    "style",
    "noscript",
    "template",
    "svg",
    "canvas",
    "iframe",
    "object",
    "embed",
    "form",
    "button",
    "select",
    "input",
    "textarea",
    "nav",
    "header",
    "footer",
    "aside",
    "menu",
    "dialog",
    "head",
]
_DROPPED_ROLES = {"navigation", "banner", "contentinfo", "complementary", "search", "menu"}
# class or id words that mark a site's furniture rather than its content
_BOILERPLATE = re.compile(
    r"(^|[-_\s])(nav|navbar|menu|breadcrumbs?|sidebar|footer|masthead|cookies?|consent|"
    r"banner|share|social|subscribe|newsletter|related|comments?|advert|ads|promo|skip)"
    r"($|[-_\s])",
    re.IGNORECASE,
)
_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_BLOCKS = set(
    [
        "p",
        "div",
        "section",
        "article",
        "main",
        "li",
        "ul",
        "ol",
        "dl",
        "dt",
        "dd",
        "blockquote",
        "pre",
        "table",
        "thead",
        "tbody",
        "tfoot",
        "tr",
        "figure",
        "figcaption",
        "address",
        "details",
        "summary",
        "hr",
        "br",
    ]
)
_CELLS = {"td", "th"}


def read_html(name: str, raw: bytes, options: ImportOptions) -> SourceRead:
    try:
        soup = BeautifulSoup(raw, "html.parser")
    except Exception as exc:  # the parser is forgiving; this is a last resort
        raise SourceError(f"{name} is not readable HTML ({exc})") from None
    title = " ".join(soup.title.get_text().split()) if soup.title else ""
    main = main_content(soup)
    read = SourceRead(unit="block")
    walker = _Walker(name, title, ChunkBuilder(read), read)
    if main is not None:
        walker.walk(main)
    walker.end_block()
    walker.chunks.flush()
    if not read.items and not read.skipped:
        raise SourceError(f"{name} holds no readable text in its main content")
    return read


def main_content(soup: BeautifulSoup) -> Tag | None:
    """The element that holds the page's content, with the site's furniture removed."""
    for element in soup.find_all(_DROPPED_TAGS):
        element.decompose()
    for element in soup.find_all(True):
        if element.decomposed:
            continue
        attrs = element.attrs or {}
        role = str(attrs.get("role", "")).lower()
        marks = " ".join([*attrs.get("class", []), str(attrs.get("id", ""))])
        if role in _DROPPED_ROLES or (
            element.name not in ("body", "main", "article") and _BOILERPLATE.search(marks)
        ):
            element.decompose()
    candidates = soup.find_all("main") or soup.find_all(attrs={"role": "main"})
    if not candidates:
        candidates = soup.find_all("article")
    if candidates:
        return max(candidates, key=lambda e: len(e.get_text(" ", strip=True)))
    return soup.body or soup


class _Walker:
    """Text in reading order, one paragraph per block element, under its heading path."""

    def __init__(self, name: str, title: str, chunks: ChunkBuilder, read: SourceRead) -> None:
        self.name, self.title, self.chunks, self.read = name, title, chunks, read
        self.path: list[tuple[int, str]] = []
        self.words: list[str] = []

    def ref(self) -> dict:
        path = [text for _level, text in self.path]
        ref = {"file": self.name, "format": "html", "section": path[-1] if path else ""}
        ref["section_path"] = path
        if self.title:
            ref["title"] = self.title
        return ref

    def end_block(self) -> None:
        text = " ".join("".join(self.words).split())
        self.words = []
        if text:
            self.read.units += 1
            self.chunks.add(text, self.ref())

    def walk(self, node: Tag) -> None:
        for child in node.children:
            if isinstance(child, (Comment, Declaration, Doctype)):
                continue
            if isinstance(child, NavigableString):
                self.words.append(str(child))
                continue
            if not isinstance(child, Tag):
                continue
            if child.name in _HEADINGS:
                self.end_block()
                self.chunks.flush()
                level, text = _HEADINGS[child.name], " ".join(child.get_text(" ").split())
                if text:
                    self.path = [(lv, t) for lv, t in self.path if lv < level] + [(level, text)]
                    if len(text.split()) >= STATEMENT_HEADING_WORDS:  # a finding, quotable
                        self.read.units += 1
                        self.chunks.add(text, self.ref(), heading=True)
            elif child.name in _CELLS:
                self.words.append(" ")
                self.walk(child)
                self.words.append(" | ")
            elif child.name in _BLOCKS:
                self.end_block()
                self.walk(child)
                if child.name == "tr" and self.words and self.words[-1] == " | ":
                    self.words.pop()
                self.end_block()
            else:
                self.walk(child)
