"""Real research files made by the tests with the libraries the readers use: PDFs written
with pypdf (a text layer in a standard font, an image-only page, an encrypted copy), Word
documents with python-docx, HTML pages, CSV/TSV exports and Slack workspace exports.

The public 18F FOIA research notes (Markdown) become DOCX and HTML here, so the readers
meet real research prose, headings and lists."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
import zipfile
from pathlib import Path

import docx
from pypdf import PdfReader, PdfWriter
from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject, NumberObject

from kg.realdata.suite import default_datasets

FOIA = default_datasets() / "en_user_research_18f_foia"


def pdf_bytes(pages: list[list[str]], *, image_pages: tuple[int, ...] = ()) -> bytes:
    """A PDF with one page per list of lines (Helvetica text layer); the pages numbered in
    `image_pages` (from 1) hold only an image, as a scan does."""
    writer = PdfWriter()
    font = writer._add_object(
        DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Font"),
                NameObject("/Subtype"): NameObject("/Type1"),
                NameObject("/BaseFont"): NameObject("/Helvetica"),
                NameObject("/Encoding"): NameObject("/WinAnsiEncoding"),
            }
        )
    )
    image = DecodedStreamObject()
    image.set_data(bytes(range(0, 256, 16)) * 16)  # a 16x16 grey gradient
    image.update(
        {
            NameObject("/Type"): NameObject("/XObject"),
            NameObject("/Subtype"): NameObject("/Image"),
            NameObject("/Width"): NumberObject(16),
            NameObject("/Height"): NumberObject(16),
            NameObject("/ColorSpace"): NameObject("/DeviceGray"),
            NameObject("/BitsPerComponent"): NumberObject(8),
        }
    )
    image_ref = writer._add_object(image)
    for number, lines in enumerate(pages, start=1):
        page = writer.add_blank_page(612, 792)
        if number in image_pages:
            ops = ["q 400 0 0 500 100 150 cm /Im1 Do Q"]
        else:
            ops = ["BT", "/F1 11 Tf", "14 TL", "72 720 Td"]
            for line in lines:
                escaped = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
                ops.append(f"({escaped}) Tj T*")
            ops.append("ET")
        content = DecodedStreamObject()
        content.set_data("\n".join(ops).encode("cp1252"))
        page[NameObject("/Contents")] = writer._add_object(content)
        page[NameObject("/Resources")] = DictionaryObject(
            {
                NameObject("/Font"): DictionaryObject({NameObject("/F1"): font}),
                NameObject("/XObject"): DictionaryObject({NameObject("/Im1"): image_ref}),
            }
        )
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def encrypted(raw: bytes, password: str) -> bytes:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(raw)))
    writer.encrypt(user_password=password, owner_password=password, algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


_MD_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_MD_ITEM = re.compile(r"^\s*[*\-+]\s+(.*)$")
_MD_LINK = re.compile(r"\[([^\]]+)\]\([^)]+\)")
_MD_EMPHASIS = re.compile(r"(\*\*|__|\*|_)(\S(?:.*?\S)?)\1")


def markdown_blocks(text: str) -> list[tuple[str, int, str]]:
    """('heading', level, text), ('item', 0, text) and ('para', 0, text), in order: enough
    Markdown for the 18F notes (headings, lists, paragraphs, links, emphasis)."""
    blocks: list[tuple[str, int, str]] = []
    paragraph: list[str] = []

    def plain(value: str) -> str:
        return _MD_EMPHASIS.sub(r"\2", _MD_LINK.sub(r"\1", value)).strip()

    def end_paragraph() -> None:
        if paragraph:
            blocks.append(("para", 0, plain(" ".join(paragraph))))
            paragraph.clear()

    for line in text.splitlines():
        heading, item = _MD_HEADING.match(line), _MD_ITEM.match(line)
        if heading:
            end_paragraph()
            blocks.append(("heading", len(heading.group(1)), plain(heading.group(2))))
        elif item:
            end_paragraph()
            blocks.append(("item", 0, plain(item.group(1))))
        elif not line.strip():
            end_paragraph()
        else:
            paragraph.append(line.strip())
    end_paragraph()
    return [b for b in blocks if b[2]]


def docx_from_markdown(text: str, *, page_break_before: tuple[str, ...] = ()) -> bytes:
    """The notes as a Word document: headings with Word's heading styles, list items as
    list paragraphs; a hard page break before each heading named in `page_break_before`."""
    document = docx.Document()
    for kind, level, value in markdown_blocks(text):
        if kind == "heading":
            if value in page_break_before:
                document.add_page_break()
            document.add_heading(value, level=min(level, 9))
        elif kind == "item":
            document.add_paragraph(value, style="List Bullet")
        else:
            document.add_paragraph(value)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def html_from_markdown(text: str, title: str) -> bytes:
    """The notes as a web page with a site's furniture around them: navigation, a cookie
    banner, a script, a sidebar and a footer, none of which is research."""
    body: list[str] = []
    in_list = False
    for kind, level, value in markdown_blocks(text):
        escaped = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        if kind == "item" and not in_list:
            body.append("<ul>")
            in_list = True
        if kind != "item" and in_list:
            body.append("</ul>")
            in_list = False
        if kind == "heading":
            body.append(f"<h{level}>{escaped}</h{level}>")
        elif kind == "item":
            body.append(f"<li>{escaped}</li>")
        else:
            body.append(f"<p>{escaped}</p>")
    if in_list:
        body.append("</ul>")
    return (
        "<!doctype html><html><head><meta charset='utf-8'>"
        f"<title>{title}</title><style>p {{ color: #333 }}</style>"
        "<script>window.tracking = 'TRACKING-SCRIPT-TEXT';</script></head><body>"
        "<nav><a href='/'>SITE-NAVIGATION Home</a> <a href='/blog'>Blog</a></nav>"
        "<div class='cookie-banner'>COOKIE-BANNER We use cookies.</div>"
        f"<main><article>{''.join(body)}</article></main>"
        "<aside class='sidebar'>SIDEBAR-TEXT Related posts</aside>"
        "<footer>FOOTER-TEXT Public domain</footer></body></html>"
    ).encode()


def csv_bytes(header: list[str], rows: list[list[str]], delimiter: str = ",") -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue().encode("utf-8")


def slack_export(channels: dict[str, list[dict]], users: list[dict] | None) -> bytes:
    """A workspace export zip: users.json (unless None), channels.json and one folder per
    channel of daily message files."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        if users is not None:
            archive.writestr("users.json", json.dumps(users))
        archive.writestr(
            "channels.json",
            json.dumps([{"id": f"C{i}", "name": n} for i, n in enumerate(channels)]),
        )
        for channel, messages in channels.items():
            by_day: dict[str, list[dict]] = {}
            for message in messages:
                day = _day(message["ts"])
                by_day.setdefault(day, []).append(message)
            for day, day_messages in by_day.items():
                archive.writestr(f"{channel}/{day}.json", json.dumps(day_messages))
    return out.getvalue()


def _day(ts: str) -> str:

    return dt.datetime.fromtimestamp(float(ts), tz=dt.UTC).strftime("%Y-%m-%d")


def foia(name: str) -> str:
    return Path(FOIA / name).read_text(encoding="utf-8")
