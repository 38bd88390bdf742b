"""Organisations named in customer texts, by role: the product the text is about, or a rival.

A customer writes about the company they deal with ("Wells Fargo charged me twice",
«В Билайне опять списали деньги», «МТС, верните деньги») and now and then about another one
they use, compare with or moved to («перешёл в Билайн», «в Тинькофф дешевле», "switched to
Chase"). The first is the product of that research, the second a competitor
(`organisation_findings`); neither is ever a feature, and a feature whose label is only such a
name is dropped (`names_an_organisation`). When the project names its product, an organisation
complained about that is not it is a rival all the same.

Russian names come in any case («в Билайне», «Сбера», «Ростелекомом») and are recorded in the
nominative («Билайн», «Сбер», «Ростелеком»): pymorphy3's OpenCorpora dictionary tags many
organisations (grammeme Orgn) and inflects known and unknown words alike (`_nominative`).
A name is a capitalised word that is no person's name or place, or an acronym («МТС», «ВТБ»),
or a capitalised Latin word, standing where a role's grammar puts a company: after a verb of
moving («перешёл в», «ушла из»), of using or comparing («пользуюсь», «как в», «в отличие от»,
«дешевле, чем в»), as the subject of a verb («Сбербанк заблокировал карту»), as the one
addressed («МТС, верните …») or as where a service fails («в Билайне опять списали»).

Why not slovnet's NER (the natasha 1.6 wheel's NewsNERTagger over navec embeddings), measured
on the 200 Russian dev reports (the VS Code issues and the SeaMonkey reports put into Russian) on
2 shared cores: the tagger alone reads 9.5-11.7 reports a second, while the whole
rule extraction reads 53-83 (and about 30 short customer messages a second against the ≥ 100
the extraction must keep); its 121 ORG spans there are mostly the Latin product names the
competitor patterns already read («Firefox», «SeaMonkey»), with Russian words a capital opens
among them («Входящих», «Почта», «Капс лок», «Ъ»), and it tags a sentence's first word into a
name («Пользуюсь Тинькофф» as one ORG). The rules here find no false company on those reports
(a dictionary's common noun with a capital, «в Справке», takes no role without a rival's cue),
and pymorphy3 is loaded for every Russian word already: reading names costs about 5% of the
extraction's time, and the role comes from the grammar around the name either way.
Example: «Перешёл в Билайн, потому что в МТС постоянно пропадает связь» gives the competitor
«Билайн» and the product «МТС».
"""

from __future__ import annotations

import re
from dataclasses import replace

from kg.language import is_english_word
from kg.language.lemmas import russian_morphology
from kg.llm.offline import lexicon_ru
from kg.llm.offline.organisations import _UI_ELEMENT_BEFORE, _is_competitor_name, _name_key
from kg.llm.offline.sentences import Finding, Sentence

# People and places are named with capitals too: never an organisation.
_NOT_ORGANISATION = frozenset(("Name", "Surn", "Patr", "Geox"))
# Cyrillic acronyms that are common words, not companies.
_COMMON_ACRONYMS = frozenset(
    ("СМС", "SMS", "ПК", "ОС", "ИП", "ООО", "ЗАО", "ОАО", "ПАО", "АО", "РФ", "СНГ", "ЖКХ", "ТВ")
    + ("ИНН", "СНИЛС", "ПИН", "ЛК", "ДС", "МФЦ", "ГОСТ", "США", "ЕС")
)
# The kind of company a compound name ends in («Сбербанк», «Ростелеком», «Яндекс.Маркет»):
# a name whatever the dictionary says of the word.
_COMPANY_KIND_END = re.compile(r"(?:банк|телеком|маркет|страх|пэй|bank|telecom|pay)$", re.I)

# one name: a capitalised Cyrillic or Latin word (hyphens and digits inside: «Альфа-Банк»,
# «Теле2»), then up to two more capitalised words («Почта России», «Альфа Банк»)
_WORD = r"(?:[А-ЯЁA-Z][а-яёА-ЯЁa-zA-Z0-9]*(?:-[А-ЯЁа-яёA-Za-z0-9]+)*)"
_NAME = re.compile(rf"(?<![\w@-])(?P<name>{_WORD}(?:\s+(?:of\s+)?{_WORD}){{0,2}})")

_TO = r"(?:перешл[аи]?|перешёл|перешел|перейду|перейти|переходим|переходить|переехал[аи]?|"
_TO += r"ушл[аи]?|ушёл|ушел|уйду|уходим|подключил(?:ся|ась|ись)?|пользуюсь|пользуемся|"
_TO += r"пользуется|использую|выбрал[аи]?)"
# the role a word before the name gives it
_RIVAL_BEFORE = re.compile(
    rf"(?<![\w-])(?:{_TO}\s+(?:в|во|на|к|ко)?|как\s+(?:в|во|у)|в\s+отличие\s+от|"
    r"по\s+сравнению\s+с|лучше|дешевле|удобнее|быстрее|"
    r"switched\s+to|moved\s+to|went\s+to|use|using|compared\s+(?:to|with)|unlike)\s*[«\"]?$",
    re.IGNORECASE,
)
# the role a word after the name gives it: «в Тинькофф дешевле», "Chase is better"
_RIVAL_AFTER = re.compile(
    r"^[»\"]?\s*(?:[—–-]\s*)?(?:[\w-]+\s+){0,4}?(?:(?:is|are|was)\s+)?"
    r"(?:(?:намного|гораздо|куда|в\s+разы|much|far)\s+)?"
    r"(?:лучше|дешевле|удобнее|быстрее|надёжнее|надежнее|better|cheaper|faster)(?![\w-])",
    re.IGNORECASE,
)
_LEFT_BEFORE = re.compile(
    r"(?<![\w-])(?:ушл[аи]?|ушёл|ушел|уйду|уходим|уходить|перешл[аи]?|перешёл|перешел|перейду|"
    r"отказал(?:ся|ась|ись))\s+(?:из|от|с|со)\s*[«\"]?$|(?<![\w-])вместо\s*[«\"]?$"
    # the one a rival is better than: «лучше, чем у Ростелекома», "better than Wells Fargo"
    r"|(?<![\w-])(?:чем|than)\s+(?:(?:в|во|у|at|with)\s+)?[«\"]?$",
    re.IGNORECASE,
)
# where the writer's trouble is: «в Билайне», «у МТС», "with Wells Fargo", or the one addressed
_COMPLAINT_BEFORE = re.compile(
    r"(?:^|[\s(])(?:в|во|у|от|из|с|со|with|from|to|called|contacted|at)\s*[«\"]?$|^\s*@?$",
    re.IGNORECASE,
)
# a verb right after a name: it is the subject («Сбербанк заблокировал», "Wells Fargo charged")
_VERB_AFTER = re.compile(
    r"^[»\"]?\s*(?:(?:не|опять|снова|уже|again|never|still|has|have)\s+)*(?P<verb>[\w-]+)"
)


# A common noun of an interface right after a capitalised word makes it that part's name.
_INTERFACE_NOUN_AFTER = re.compile(
    r"\s+(?:mode|menu|button|tab|view|screen|page|panel|option|options|settings|feature|window|"
    r"bar|field|dialog|режим\w*|меню|кнопк\w*|вкладк\w*|окн\w+|панел\w+)(?![\w-])",
    re.IGNORECASE,
)


def _grammemes(word: str) -> set[str]:
    """The grammemes of the word's likeliest reading («Тинькофф» may be a surname, but is
    read first as a noun)."""
    return set(russian_morphology().parse(word)[0].tag.grammemes)


def _nominative(name: str) -> str:
    """A Russian name in the nominative, spelt as written: «Билайне» → «Билайн», «Сбера» →
    «Сбер», «Альфа-Банке» → «Альфа-Банк», «Почте России» → «Почта России». Latin names,
    acronyms and words pymorphy cannot inflect stay as they are."""
    words = name.split()
    head = words[0]
    if not re.match(r"[А-ЯЁ]", head) or head.isupper():
        return name
    parses = russian_morphology().parse(head)
    parse = next((p for p in parses if "Orgn" in p.tag), None) or next(
        (p for p in parses if p.tag.POS == "NOUN"), None
    )
    if parse is None or parse.tag.case == "nomn":
        return name
    case = parse.tag.case
    nominative = parse.inflect({"nomn", "sing"}) or parse.inflect({"nomn"})
    if nominative is None:
        return name
    rest = []
    for word in words[1:]:
        agreeing = next((p for p in russian_morphology().parse(word) if p.tag.case == case), None)
        inflected = agreeing.inflect({"nomn"}) if agreeing is not None and case != "gent" else None
        rest.append(_spelt_as(inflected.word, word) if inflected is not None else word)
    return " ".join([_spelt_as(nominative.word, head), *rest])


def _spelt_as(word: str, original: str) -> str:
    """The inflected word with the original's capitals: each hyphen-joined part capitalised
    where it was («альфа-банк» of «Альфа-Банке» → «Альфа-Банк»)."""
    parts = word.split("-")
    shown = original.split("-")
    return "-".join(
        p[:1].upper() + p[1:] if i < len(shown) and shown[i][:1].isupper() else p
        for i, p in enumerate(parts)
    )


def _is_a_name(name: str, opens_sentence: bool) -> bool:
    head = name.split()[0]
    if head in lexicon_ru.NOT_NAMES or head in _COMMON_ACRONYMS or len(head) < 2:
        return False
    if re.match(r"[A-Za-z]", head):
        # a Latin word opening a sentence may be plain English, a run of them is a name
        # ("Wells Fargo", "Bank of America")
        return not opens_sentence or len(name.split()) > 1 or not is_english_word(head)
    grammemes = _grammemes(head)
    if grammemes & _NOT_ORGANISATION:
        return False
    if head.isupper():
        return True  # «МТС», «ВТБ»
    if "Orgn" in grammemes or "Trad" in grammemes or _COMPANY_KIND_END.search(head):
        return True
    # a capital in the middle of a sentence names something; one opening it (or a line, as a
    # title does), only a word the dictionary does not know («Тинькофф»); a word the
    # dictionary knows as no noun is never a name («Мёртвая ссылка», «Портировать …»)
    known = russian_morphology().word_is_known(head.lower())
    if russian_morphology().parse(head)[0].tag.POS not in ("NOUN", None):
        return False  # (pymorphy guesses an unknown «Портировать» a verb by its ending)
    return not opens_sentence or not known


def organisation_findings(
    text: str, sentence: Sentence, own: set[str], told_before: list[Finding]
) -> list[Finding]:
    """The organisations a sentence names, each as the product or a competitor by its role;
    names the other rules found already (`told_before`) are left to them."""
    taken = {_name_key(f.label) for f in told_before if f.type in ("competitor", "product")}
    found: list[Finding] = []
    clause_starts = [c[0] for c in sentence.clauses] or [sentence.start]
    for match in _NAME.finditer(text, sentence.start, sentence.end):
        start, end = match.span("name")
        name = match["name"]
        # «В Билайне», «Пользуюсь Тинькофф»: a capitalised word opening the sentence that is
        # no name ends no name either
        while (
            " " in name
            and not re.match(r"[A-Za-z]", name)
            and not _is_a_name(name.split()[0], _opens(text, sentence, start))
        ):
            lead = name.split()[0]
            name = name[len(lead) :].lstrip()
            start = end - len(name)
        floor = max(c for c in clause_starts if c <= start) if start >= clause_starts[0] else start
        before = text[max(floor, start - 40) : start]
        after = text[end : min(sentence.end, end + 40)]
        opens = _opens(text, sentence, start)
        # a run of capitals may end in the next sentence's ordinary word: keep the first
        # word alone unless the next ones are names too («Почта России»)
        words = name.split()
        if (
            len(words) > 1
            and not re.match(r"[A-Za-z]", name)
            and not all(_is_a_name(w, False) for w in words[1:])
        ):
            name = words[0]
            end = start + len(name)
            after = text[end : min(sentence.end, end + 40)]
        if not _is_a_name(name, opens) or not _is_competitor_name(name, set(), sentence.lex):
            continue  # nor a platform, a device, a language or a workaround ("Excel")
        if _UI_ELEMENT_BEFORE.search(text, sentence.start, start):
            continue  # «в меню Справка», "the Run menu": a part of the program
        if _INTERFACE_NOUN_AFTER.match(text, end):
            continue  # "Edit mode", «меню Файл»: a part of a program named, no company
        shown = _nominative(name) if sentence.lex is lexicon_ru else name
        key = _name_key(shown)
        if key in taken or _name_key(name) in taken:
            continue
        latin = bool(re.match(r"[A-Za-z]", name))
        role = _role(before, after, opens, sentence.lex is lexicon_ru, latin)
        if role == "product" and not latin and not _surely_a_company(name.split()[0], opens):
            role = None  # «в Справке», «Предзагрузка»: a section or a title as likely as a firm
        if role is None:
            continue
        if role == "product" and own and key not in own:
            role = "competitor"  # a company complained of that is not the project's: a rival
        if key in own:
            continue  # the project's own product is named by the product rule
        taken.add(key)
        # quoted with the words that give it its role: «перешёл в Билайн», «чем у Ростелекома»
        lead = re.search(r"(?:[\w-]+[\s,]+){0,4}$", before)
        quote_start = start - len(before) + (lead.start() if lead else len(before))
        found.append(Finding(role, shown, (quote_start, end), start))
    return found


# English: the company the writer dealt with, called or that did something to them
_DEALT_WITH_BEFORE = re.compile(
    # "I called X", not "a playlist called X"
    r"(?<![\w-])(?:(?:i|we|he|she|they)\s+(?:(?:then|also|have|had|just|finally|already)\s+)?(?:called|phoned)|contacted|complained\s+to|wrote\s+to|emailed|disputed\s+(?:\w+\s+){0,2}with|"
    r"account\s+(?:with|at)|loan\s+(?:with|from)|card\s+(?:with|from))\s*$",
    re.IGNORECASE,
)
_HARMED_AFTER = re.compile(
    r"^\s*(?:(?:has|have|had|then|again|still|also)\s+)*(?:charged|denied|refused|closed|froze|"
    r"blocked|reported|ignored|cancell?ed|debited|withdrew|keeps|kept|won't|will\s+not|did\s+not|"
    r"didn't|never|failed|lost|sent\s+me|told\s+me|put\s+a)(?![\w-])",
    re.IGNORECASE,
)


def _surely_a_company(head: str, opens: bool) -> bool:
    """A Cyrillic name that names a company whatever its place: the dictionary tags it an
    organisation or a trademark («Билайн», «МТС»), it is an acronym, it ends in a company's kind
    («Сбербанк», «Ростелеком»), or the dictionary does not know it and it stands inside a
    sentence («Тинькофф»). A dictionary's common noun with a capital («Справка», «Параметры»)
    is as often a section of a program or a title: it takes a role only from a rival's cue."""
    grammemes = _grammemes(head)
    if head.isupper() or "Orgn" in grammemes or "Trad" in grammemes:
        return True
    if _COMPANY_KIND_END.search(head):
        return True
    return not opens and not russian_morphology().word_is_known(head.lower())


def _opens(text: str, sentence: Sentence, start: int) -> bool:
    """The word opens its sentence, its line (a title, a list's item) or what follows a title's
    dash or colon ("www.example.com - Меню не работает")."""
    line = max(sentence.start, text.rfind("\n", 0, start) + 1)
    after_a_break = re.search(r"\s[-—–:]\s*$|:\s*$", text[line:start]) is not None
    return after_a_break or _OPENING.fullmatch(text, line, start) is not None


# what may stand before a line's first word: quotes, brackets, list marks, heading marks
_OPENING = re.compile(r"[\s\"'«(*>\-—#\[\d.)]*")


def _role(before: str, after: str, opens: bool, russian: bool, latin: bool) -> str | None:
    if _RIVAL_BEFORE.search(before) or _RIVAL_AFTER.match(after):
        return "competitor"
    if russian and latin:
        return None  # «VPN не подключается», «с Docker»: a Russian text's Latin words are its
        # tools and parts more often than the company it deals with
    if not russian:
        dealt = _DEALT_WITH_BEFORE.search(before) or _HARMED_AFTER.match(after)
        return "product" if dealt else None
    if _LEFT_BEFORE.search(before) or _COMPLAINT_BEFORE.search(before):
        return "product"
    if after.lstrip().startswith(","):
        return "product" if opens else None  # «МТС, верните деньги»: the one addressed
    verb = _VERB_AFTER.match(after)
    if verb is None:
        return None
    if russian:
        tag = russian_morphology().parse(verb["verb"].lower())[0].tag
        return "product" if tag.POS in ("VERB",) else None
    return None


def names_an_organisation(label: str, organisations: list[Finding]) -> bool:
    """A feature that is only an organisation's name ("Wells Fargo", «Сбер»)."""
    key = _name_key(label)
    return any(key == _name_key(o.label) for o in organisations)


def pains_without_the_company(text: str, found: list[Finding]) -> list[Finding]:
    """A pain that opens on the company it happens with («в Ростелекоме третий день не
    работает интернет», "at Northwind Bank my card was declined") is labelled without it: the
    company is the product node beside it, the pain is what goes wrong."""
    companies = [f for f in found if f.type in ("product", "competitor")]
    if not companies:
        return found
    kept: list[Finding] = []
    for finding in found:
        if finding.type == "pain":
            for company in companies:
                written = text[company.at : company.quote[1]]
                lead = re.match(
                    rf"\s*(?:(?:в|во|у|с|со|на|at|with|from)\s+)?{re.escape(written)}[\s,:—-]+",
                    finding.label,
                    re.IGNORECASE,
                )
                rest = finding.label[lead.end() :] if lead else ""
                if lead and len(rest.split()) > 1:
                    finding = replace(finding, label=rest)
                    break
        kept.append(finding)
    return kept
