"""Organisations: the product under study and its competitors, told apart by role.

A named product or company the writer switched to, compares with or uses instead is a
competitor (`_competitors`, `_is_competitor_name`); the product the research is about, named
with nothing more ("the Netflix app"), is no feature of itself (`_names_only_the_product`);
platforms, devices and languages are never competitors (parts).
Example: "I switched to Todoist because it syncs faster" gives the competitor "Todoist".
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from types import ModuleType

from kg.language import analyse, is_english_word
from kg.llm.offline.parts import names_a_device, names_a_language, names_a_platform
from kg.llm.offline.sentences import Finding, Sentence, Span, _trim


def _name_key(name: str) -> str:
    """A name as its spellings share it: "E-Bay", "eBay" and "ebay" are one."""
    return re.sub(r"[\W_]+", "", name.casefold())


# Words around the product's name that add no part to it ("bye bye whatsapp", "my facebook");
# a preposition does ("call through whatsapp" names the calling).
_NAMES_NOTHING = frozenset(("INTJ", "DET", "PRON", "AUX", "PART", "PUNCT"))

# Nouns that, after its name, still name the whole product ("the Netflix app", "my netflix
# service").
_WHOLE_PRODUCT_NOUNS = frozenset(("app", "apps", "application", "service", "program", "software"))


def _names_only_the_product(label: str, own: set[str]) -> bool:
    """ "face book", "check Facebook", "bye bye whatsapp" in the project Facebook or WhatsApp:
    the product itself, used or left, and no part of it ("netflix service" too); "Facebook
    page" names a part."""
    if not own:
        return False
    words = analyse(label)
    for first in range(len(words)):
        for last in range(first, len(words)):
            if _name_key("".join(w.text for w in words[first : last + 1])) in own:
                if first == 1 and last == len(words) - 1:
                    return True  # a verb with the product for object (tagged a noun alone)
                rest = words[:first] + words[last + 1 :]
                return all(w.pos in _NAMES_NOTHING or w.lower in _WHOLE_PRODUCT_NOUNS for w in rest)
    return False


def _product_mention(
    text: str, sentence: Sentence, product: str, found: list[Finding]
) -> list[Finding]:
    """The product itself, when a risk or competitor sentence names it."""
    if any(f.type == "product" for f in found):
        return []
    named = re.compile(rf"(?<!\w){re.escape(product)}(?!\w)", re.IGNORECASE)
    mention = named.search(text, sentence.start, sentence.end)  # whole words: not "previews"
    if mention is None:
        return []
    return [Finding("product", product, (sentence.start, sentence.end), mention.start())]


def _competitors(
    text: str, sentence: Sentence, own: set[str], alternatives: list[Finding]
) -> list[Finding]:
    lex = sentence.lex
    workarounds = [a.named for a in alternatives if a.named is not None]
    found: list[Finding] = []
    patterns = [(p, False) for p in lex.COMPETITOR_PATTERNS]
    patterns += [(p, True) for p in lex.COMPETITOR_WHERE_IT_WORKS]
    for pattern, where_it_works in patterns:
        for match in pattern.finditer(text, sentence.start, sentence.end):
            names = list(_names(text, match.span("names"), lex))
            for index, (start, end) in enumerate(names):
                name = text[start:end]
                if not _is_competitor_name(name, own, lex):
                    continue
                if any(s <= start < e for s, e in workarounds):
                    continue  # "Google" of "Google Таблицы" is the spreadsheet, not a rival
                if "@" in (text[start - 1 : start], text[end : end + 1]):
                    continue  # "like karl.smith@example.org": an address, not a product
                if where_it_works and _a_word_opening_the_sentence(text, sentence, start, name):
                    continue  # "Menu works fine.": a capital that only opens the sentence
                if _UI_ELEMENT_BEFORE.search(text, sentence.start, start):
                    continue  # "the Run menu", «через меню Run»: a part of the program named
                if any(f.label == name for f in found):
                    continue
                quote = _competitor_quote(match, names, index)
                release = _RELEASE_AFTER.match(text, end)
                if release is not None and quote[1] <= release.end() <= sentence.end:
                    quote = (quote[0], release.end())  # "works fine in Opera 117": which one
                found.append(Finding("competitor", name, quote, start))
    return found


def _only(text: str, spans: list[Span]) -> str:
    """The text with everything outside `spans` blanked, every character where it was."""
    kept = [" " if c != "\n" else c for c in text]
    for start, end in spans:
        kept[start:end] = text[start:end]
    return "".join(kept)


def _a_word_opening_the_sentence(text: str, sentence: Sentence, start: int, name: str) -> bool:
    """A one-word name that opens its sentence and is a word of the dictionary: the capital is
    the sentence's, not a name's ("Menu works fine", but "Vivaldi works fine"). A version
    number after it makes it a name ("Opera 102 plays it")."""
    opening = not text[sentence.start : start].strip(" \t\n\"'«(*>-")
    if _VERSION_AFTER.match(text, start + len(name)):
        return False
    return opening and " " not in name and name[1:].islower() and is_english_word(name)


_VERSION_AFTER = re.compile(r"\s+v?\d+(?:\.\d+)+\b")  # " 102.0", " v3.1": dotted, not a count

# A release right after a product's name: " 115", " 102.0", " v3.1", " 96.2b4".
_RELEASE_AFTER = re.compile(r"[ \t]+v?\d+(?:\.\d+)*(?:[a-z]+\d*)?\b")


def _competitor_quote(match: re.Match[str], names: list[Span], index: int) -> Span:
    """The words that make it a competitor: "Competitors like Circuit", "switched from Onfleet",
    "Lightspeed offers". In a list, only the first name takes the cue along, so that no quote
    is evidence for two rivals."""
    start, end = names[index]
    if index == 0 and match.start("names") > match.start():
        start = match.start()
    if index == len(names) - 1 and match.end() > match.end("names"):
        end = match.end()
    return start, end


def _names(text: str, span: Span, lex: ModuleType) -> Iterator[Span]:
    cursor = span[0]
    for separator in lex.NAME_SPLIT.finditer(text, span[0], span[1]):
        yield _name_span(text, cursor, separator.start())
        cursor = separator.end()
    yield _name_span(text, cursor, span[1])


def _name_span(text: str, start: int, end: int) -> Span:
    # "Netflix.BETTER THAN ANY": a sentence's end with its space left out ends the name too
    joined = _SENTENCE_JOINED.search(text, start, end)
    if joined is not None:
        end = joined.start()
    if text[start:end].endswith(("'s", "’s")):
        end -= 2
    return _trim(text, start, end)


_SENTENCE_JOINED = re.compile(r"[.!?](?=[A-Z])")

_GLUED = re.compile(r"([a-z]{3,})[A-Z]")  # "loadConf", "capabilitiesEver": code or run-on


# A word that names a part of a program's interface right before a name: the name is that
# part's ("the menu Run", «кнопка Commit», «пункт Settings»), not another product.
_UI_ELEMENT_BEFORE = re.compile(
    r"(?<![\w-])(?:menu|button|tab|panel|command|меню|кнопк\w*|вкладк\w*|панел\w*|пункт\w*"
    r"|команд\w*)\s*[«\"'“]?$",
    re.I,
)

_KEY_COMBINATION = re.compile(
    r"(?:ctrl|control|shift|alt|option|cmd|command|meta|win|super|fn)\s*\+|f\d{1,2}$", re.I
)


def _is_competitor_name(name: str, own: set[str], lex: ModuleType) -> bool:
    if len(name) < 2 or name.split()[0] in lex.NOT_NAMES:
        return False
    if name.split("+")[0] in lex.NOT_NAMES or _KEY_COMBINATION.match(name):
        return False  # "Ctrl+K works": a key combination, no product (in any language)
    if _name_key(name) in own:
        return False  # the project's own product, however it is spelled
    if names_a_platform(name) or names_a_device(name):
        return False  # "I use Windows 11", "switched from my Galaxy S5": where it runs, no rival
    if names_a_language(name):
        return False  # "works fine in German": the locale, no rival
    if " " not in name and name.isupper() and len(name) > 3 and is_english_word(name):
        return False  # "pay for PREMIUM": a word shouted, not a name
    glued = _GLUED.match(name)
    if glued is not None and is_english_word(glued.group(1)):
        return False  # "capabilitiesEverEPub": words run together, not a name ("eBay" is one)
    # Spreadsheets, paper and messengers are workarounds, not competitors.
    return not any(pattern.search(name) for pattern, _, _ in lex.ALTERNATIVES)
