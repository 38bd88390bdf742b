"""Markup and named entities: what is blanked out before any rule reads a sentence.

HTML tags and form fields, images and links, web addresses, file paths, code blocks and table
rows are blanked (`mask_markup`), every other character left where it was, so the rules read
the masked text while quotes are still cut verbatim from the original; `entity_spans` and
`read_entities` find and read character references copied from web pages ("doesn&#39;t").
Kinds of label: none; no label is made of markup.
Example: in "the <b>Save</b> button does nothing" the tags are blanked: the pain is labelled
"Save button does nothing" and its quote is the original sentence, tags and all.
"""

from __future__ import annotations

import html
import re

from kg.llm.offline.reading import Span

# Markup and machine text that carries no statement: form fields rendered as HTML ("Issue Type:
# <b>Bug</b>"), tags, images and links, web addresses, file paths, code blocks, table rows.
# The endings of the web addresses people name sites by.
_TOP_LEVEL_DOMAINS = (
    "com|org|net|edu|gov|io|dev|app|info|biz|ru|su|ua|by|kz|nl|de|fr|uk|it|es|pl|cz|eu|me|co"
    "|us|ca|au|jp|cn|in|br"
)

_MARKUP = re.compile(
    r"^[^\n:]{1,40}:[ \t]*<(\w+)>[^<\n]*</\1>[ \t]*$"
    r"|```.*?```|<!--.*?-->"
    # a JIRA ticket's code and unformatted blocks: "{code:java}…{code}", "{noformat}…{noformat}"
    r"|\{code(?::[^}\n]*)?\}.*?\{code\}|\{noformat\}.*?\{noformat\}"
    # a form's question with its short answer ("Occurs in safe mode?: Yes")
    r"|^[^\n?]{3,160}\?:[ \t]*[^\n]{0,30}$"
    r"|!?\[[^\]\n]*\]\([^)\n]*\)"
    r"|<[/!]?\w[^<>\n]{0,80}>"
    # a site's name heading the line it reports on: "shop.example.com - Button does not work",
    # with the page it names after it ("shop.example.com - checkout - Total is wrong")
    r"|^[ \t]*[A-Za-z0-9][\w-]*(?:\.[\w-]+)+"
    r"(?:[ \t]+[-–—][ \t]+[\w/-]+(?:[ \t][\w/-]+)?(?=[ \t]+[-–—][ \t]))?(?=[ \t]+[-–—][ \t])"
    r"|\bhttps?://\S+|\bwww\.\S+"
    r"|\b[a-zA-Z]:[\\/][^\s'\"]+|(?<![\w.])(?:[/\\][\w.-]+){2,}[/\\]?"
    r"|^[ \t]*\|.*\|[ \t]*$"
    # code names: dotted identifiers ("editor.formatOnSave", "python.analysis.extraPaths")
    # and percent-encoded strings
    # (not a site's name: "accounts.example.com" is what a statement is about), their
    # trailing stop or colon left to the sentence
    r"|\b(?![\w.-]+\.(?:" + _TOP_LEVEL_DOMAINS + r")\b(?![.\w/]))"
    r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*){2,}(?:\S*[^\s.,:;!?)\]])?|\b[a-z]\w*\.[a-z]\w*[A-Z]\w*"
    r"|\S*%[0-9A-Fa-f]{2}\S*"
    # log lines (a time stamp or a bracketed level first) and stack frames: machine output
    r"|^[ \t]*\[?\d{4}-\d{2}-\d{2}[ T]\d{1,2}:\d{2}[^\n]*$"
    r"|^[ \t]*\[(?:error|warn|warning|info|debug|trace)\][^\n]*$"
    r"|^[ \t]+at[ \t]+\S[^\n]*[( \t]\S*:\d+(?::\d+)?\)?[ \t]*$"
    # a traceback, its frames, an exception line below the title, a shell prompt's line,
    # and scoped codes ("net::ERR_FAILED")
    r"|^[ \t]*Traceback \(most recent call last\):?[ \t]*$"
    r"|^[ \t]*File \"[^\"\n]*\", line \d+[^\n]*$"
    r"|(?<=\n)[ \t]*(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception)\b[^\n]*$"
    r"|^[ \t]*(?:PS [A-Z]:\\[^>\n]*>|[\w.-]+@[\w.-]+:[^$\n]*\$)[^\n]*$"
    r"|\b\w+::\w+",
    re.MULTILINE | re.DOTALL,
)


def mask_markup(text: str) -> str:
    """The text with markup blanked out, every other character where it was.

    Detectors read the masked text, quotes are cut from the original at the same offsets,
    so a quote stays verbatim while no label is made of markup.
    """
    return _MARKUP.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)


# A character reference in text copied from a web page ("&quot;", "&#34;", "&#x27;", "&amp;"),
# with the rest of the word it stands in ("doesn&#39;t").
_ENTITY = re.compile(r"&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});(\w*)")


def _entity_char(found: re.Match[str]) -> str:
    """The one character a reference stands for, or "" when it is no known reference."""
    reference = found.group()[: len(found.group()) - len(found[1])]
    char = html.unescape(reference)
    return char if len(char) == 1 and char != reference else ""


def entity_spans(text: str) -> list[Span]:
    """Where the text holds character references, each with the rest of its word."""
    return [m.span() for m in _ENTITY.finditer(text) if _entity_char(m)]


def read_entities(text: str) -> str:
    """The text with each character reference read as its character, every offset kept.

    The character is padded with spaces to the reference's length, on the side away from the
    word it belongs to: an opening quote stays before its word ('    "Save'), a closing one
    after it ('Save"    '), and one inside a word joins its two halves ("doesn't    "). The
    analysis sees quotes and apostrophes where they are; quotes are still cut from the text
    as it came, widened by outside_entities.
    """

    def one(found: re.Match[str]) -> str:
        char = _entity_char(found)
        if not char:
            return found.group()
        rest = found[1]
        padding = " " * (len(found.group()) - len(rest) - 1)
        if not rest:
            return char + padding  # a closing quote, or one between spaces
        if text[found.start() - 1 : found.start()].isalnum():
            return char + rest + padding  # inside a word: "don't", "Q&A"
        return padding + char + rest  # an opening quote before its word

    return _ENTITY.sub(one, text)


def outside_entities(span: Span, entities: list[Span]) -> Span:
    """A span widened so that it neither starts nor ends inside a character reference or the
    part of a word read_entities moved."""
    start, end = span
    for first, last in entities:
        if first < start < last:
            start = first
        if first < end < last:
            end = last
    return start, end
