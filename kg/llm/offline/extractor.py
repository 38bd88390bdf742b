"""Rule-based extraction for the offline engine, in English and Russian.

The message is split into sentences and clauses; word lists and patterns (lexicon_en,
lexicon_ru) find candidate nodes in each sentence, and relations are drawn only between nodes
of one sentence (or a sentence opening with "they" and the one before it, or a risk and the
goal or feature just before it). Every quote is a slice of the original text, so the
write-time check that quotes are verbatim always holds. Quotes are as short as still reads
as a statement, and never evidence for two nodes of one type (two tools in one clause each
get their own words).
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import cache
from types import ModuleType

from kg import language
from kg.language import (
    Token,
    analyse,
    content_lemmas,
    grammemes,
    in_the_nominative,
    is_cyrillic,
    is_english_word,
    lemma,
    may_be_a_subject,
    vectors,
)
from kg.llm.offline import ahead, lexicon_en, lexicon_ru, linguistic, report_layout, report_ru
from kg.llm.offline.similarity import CONCEPTS, concepts, same_thing
from kg.llm.prompts.extraction_models import (
    CandidateNode,
    CandidateRelation,
    ExtractionRequest,
    ExtractionResponse,
)
from kg.ontology import OntologyError, check_relation

Span = tuple[int, int]

_CYRILLIC = re.compile(r"[А-Яа-яЁё]")
_LATIN = re.compile(r"[A-Za-z]")
_SENTENCE_BREAK = re.compile(r"(?<=[.!?…])[\"»)]*\s+(?=[\"«(]?[A-ZА-ЯЁ0-9])|\s*\n\s*")
_ABBREVIATION = re.compile(
    r"(?:\b(?:e\.g|i\.e|vs|etc|approx|Mr|Mrs|Ms|Dr|St|т\.е|т\.к|т\.д|т\.п|др|напр|см|г)\.)$", re.I
)
_TOKEN = re.compile(r"\S+")
_EDGE_PUNCTUATION = ".,;:!?…\"'«»()[]—–-"
_WORD = re.compile(r"[^\s,.;:!?()\"«»—–]+(?:\.[^\s,.;:!?()\"«»—–]+)*")
_DIGITS = re.compile(r"\d+")
_BULLET = re.compile(r"(?:[-•*–—]|\d{1,2}[.)/]|[a-z]\)|\d{1,2}\s+[-–—])\s+")
_SENTENCE_OPENERS = ("", ":", ";", "(", '"', "«", "—", "–")
_NAMED_CONCEPTS = frozenset(CONCEPTS)
_SHARE = re.compile(r"%|\bper\s?cent\b|\bpercent\b|процент", re.IGNORECASE)
_COUNT_BEFORE = re.compile(r"\d\s*\+\s*$|\d\s*[–—-]\s*\d+\s*$")


@dataclass
class Sentence:
    start: int
    end: int
    clauses: list[Span]
    lex: ModuleType
    # The message's own language: an English log line quoted in a Russian bug report is read
    # with English grammar, but names no feature of the product.
    in_message_language: bool = True


@dataclass
class Finding:
    type: str
    label: str
    quote: Span
    at: int  # where the thing itself starts, for ordering
    value: str = ""
    subject: str = ""
    stance: str = ""
    origin: str = ""  # how it was found, where linking depends on it ("offered" features)
    focus: Span | None = None  # for triggers: the clause that says who is triggered
    named: Span | None = None  # for alternatives: the words that name it


@dataclass(frozen=True)
class _Referent:
    """What a following "they" may point back to: the previous sentence's findings."""

    start: int
    found: list[Finding]
    carried: tuple[int, Finding] | None


def _shown_label(found: Finding) -> str:
    """A Russian feature is named in the nominative, whatever case the request's verb put it
    in: «Добавьте тёмную тему» asks for «тёмная тема»."""
    if found.type == "feature" and is_cyrillic(found.label[:1]):
        return in_the_nominative(found.label)
    return found.label


@dataclass
class _Answer:
    """Nodes and relations being assembled, without duplicates."""

    text: str
    # character references ("&quot;") in the text: a quote never starts or ends inside one
    entities: list[Span] = field(default_factory=list)
    nodes: list[CandidateNode] = field(default_factory=list)
    relations: list[CandidateRelation] = field(default_factory=list)
    _refs: dict[tuple[str, str], str] = field(default_factory=dict)
    _links: set[tuple[str, str, str]] = field(default_factory=set)
    _quoted_in_link: set[str] = field(default_factory=set)

    def node(self, found: Finding) -> str:
        label = _shown_label(found)
        key = (found.type, label.casefold())  # «тёмную тему» and «тёмная тема» are one node
        if key not in self._refs:
            ref = f"n{len(self.nodes) + 1}"
            self._refs[key] = ref
            self.nodes.append(
                CandidateNode(
                    ref=ref,
                    type=found.type,
                    label=label,
                    quote=self._quote(found.quote),
                    value=found.value,
                    subject=found.subject,
                    stance=found.stance,
                )
            )
        return self._refs[key]

    def link(self, relation: str, source: Finding, target: Finding, quote: Span) -> None:
        try:
            check_relation(relation, source.type, target.type)
        except OntologyError:
            return  # the table below only names allowed pairs; this guards against edits
        source_ref, target_ref = self.node(source), self.node(target)
        key = (relation, source_ref, target_ref)
        if source_ref == target_ref or key in self._links:
            return
        self._links.add(key)
        self._prefer_quote(source_ref, source)
        self._prefer_quote(target_ref, target)
        self.relations.append(
            CandidateRelation(
                relation=relation,
                source=source_ref,
                target=target_ref,
                quote=self._quote(quote),
            )
        )

    def _quote(self, span: Span) -> str:
        start, end = linguistic.outside_entities(span, self.entities)
        # a line's list or quotation mark ("- ", "> ", "» ") is layout, not the words said
        marker = _LINE_MARKER.match(self.text, start, end)
        if marker is not None and marker.end() < end:
            start = marker.end()
        # a quotation mark whose close falls outside the quote opens nothing in it
        close = _CLOSING.get(self.text[start : start + 1])
        if close and close not in self.text[start + 1 : end] and start + 1 < end:
            start += 1
        return self.text[start:end]

    def _prefer_quote(self, ref: str, found: Finding) -> None:
        """A node said several times keeps the mention that backs its first relation."""
        if ref in self._quoted_in_link:
            return
        self._quoted_in_link.add(ref)
        node = self.nodes[int(ref[1:]) - 1]
        node.quote = self._quote(found.quote)
        node.value = found.value  # a metric's numbers must stay inside its quote


_LINE_MARKER = re.compile(r"\s*(?:[-*•>»]+\s+)+(?=\S)")  # "- ", "> » ", not "-1" nor "--help"
_CLOSING = {"“": "”", "«": "»", '"': '"', "„": "“"}


def load_models() -> None:
    """Load the language models and the sentiment lexicon the rules read with (once per
    process; see kg.language.load_models)."""
    language.load_models()
    linguistic.polarity("fine")
    vectors.available()  # the word vectors that tell a pain told again in other words


def extract_offline(request: ExtractionRequest) -> ExtractionResponse:
    """Candidate nodes and relations for one message, by rules only."""
    made_ahead = ahead.given_answer(request)  # by another process, for the same inputs
    if made_ahead is not None:
        return made_ahead
    text = request.text
    if not text.strip():
        return ExtractionResponse()
    answer = _Answer(text, linguistic.entity_spans(text))
    referent: _Referent | None = None
    pains: list[Finding] = []
    # the rules read quotes and apostrophes written as "&quot;" and no markup; quotes are
    # still cut from the original (answer.text) at the same offsets
    raw = linguistic.read_entities(text)
    text = linguistic.mask_markup(raw)
    # A report's template, in either language: what was expected, the environment and the
    # headings state no problem; the reproduction steps name no group of people, a workaround
    # the writer uses asks for no feature, and what actually happens is the fault.
    russian = request.language.lower().startswith("ru")
    steps = report_layout.steps(text)
    # a step's action or a part it clicks is how to get there, not a capability asked for
    # nor a measure: "wait 30 seconds" sets the fault up
    layout_drops = [(kind, s) for s in steps for kind in ("segment", "feature", "metric")]
    layout_drops += [("feature", s) for s in report_layout.workarounds(text)]
    actual = report_layout.actual_behaviour(text)
    # a ticket, said so by its import or laid out as one
    report = request.records == "bug_report" or report_layout.is_a_report(text)
    expected = _only(text, report_layout.expected_behaviour(text))
    text = report_layout.mask_layout(text, raw)
    sentences = list(_sentences(text, request.language))
    # the project's own names: its product's, and its name even when that only repeats the
    # address ("Spotify" of the project spotify), which names the project, never a rival of it
    own = {_name_key(n) for n in (request.product, request.project_name) if n.strip()}
    product = request.product.strip()
    findings = [
        _find_all(text, sentence, product, own, mentions=not report) for sentence in sentences
    ]
    if expected.strip():
        # "Expected: … Opera 102 shows the chart correctly": what should happen states no
        # fault, but a product where it does happen is a competitor all the same
        compared = [
            (sentence, _competitors(expected, sentence, own, []))
            for sentence in _sentences(expected, request.language)
        ]
        pairs = sorted(
            [*zip(sentences, findings, strict=True), *compared], key=lambda p: p[0].start
        )
        sentences, findings = [p[0] for p in pairs], [p[1] for p in pairs]
    if report:
        # a ticket names the broken part inside its pain; its features are the ones it asks for;
        # a remedy it tried that did not help tells how the fault resists, not another fault
        findings = [
            [
                f
                for f in found
                if (f.type != "feature" or f.origin == "planned")
                and not (f.type == "pain" and _TRIED_REMEDY.search(f.label))
                and not (f.type == "pain" and not russian and _names_a_task(text, f))
                # a ticket tells what goes wrong, not who its customers are nor what they are
                # after: the people it names are its writer's colleagues or its code's parts,
                # its needs and purposes are steps and work on the code
                and f.type != "segment"
                and (f.type != "job" or _the_writers_aim(text, f))
                # its way round the fault is one it tells as such; a tool or a medium it names
                # ("a spreadsheet", "Excel") is a part or a setting of the report
                and (f.type != "alternative" or f.origin == "workaround")
                # "we use Maven", «использую Docker»: a ticket's tools, no rival product
                and not (f.type == "competitor" and _a_tool_used(text, f))
                # "folders like Drafts", "including Bookmarks": an example of the report's own
                # things, no rival
                and not (f.type == "competitor" and _AN_EXAMPLE.match(text, f.quote[0]))
                # "the storage layer provides …", «X умеет …»: what a product of the report can
                # do, no rival
                # (read in the raw text: the expected results are masked in `text`)
                and not (f.type == "competitor" and _ABLE_AFTER.match(raw, f.at + len(f.label)))
            ]
            for found in findings
        ]
    findings = [
        [f for f in found if not any(f.type == t and s <= f.at < e for t, (s, e) in layout_drops)]
        for found in findings
    ]
    # «2. Запустить задачу, которая не существует»: a step's setup, not what goes wrong
    findings = [
        [
            f
            for f in found
            if f.type != "pain" or not report_layout.in_a_step_to_do(text, steps, f.at)
        ]
        for found in findings
    ]
    _judged_statements(text, sentences, findings)
    _actual_behaviour(text, sentences, findings, actual)
    # "Problem with extensions" above the report that says what goes wrong: the specific
    # statement carries the pain, the one that only names where adds nothing; in a ticket, so
    # does "Page not displaying properly" beside the words of what is wrong.
    specific = any(
        f.type == "pain" and not _says_too_little(f.label, report)
        for found in findings
        for f in found
    )
    said_again = _said_again(findings)
    # «Из-за этого я не могу работать» after the fault: its consequence, when a fault is told
    consequences = {
        id(f)
        for sentence, found in zip(sentences, findings, strict=True)
        for f in found
        if f.type == "pain"
        and russian
        and report_ru.tells_a_consequence(text, (sentence.start, sentence.end), f.quote, f.at)
    }
    if not any(f.type == "pain" and id(f) not in consequences for found in findings for f in found):
        consequences = set()
    # "Dead link to the FAQ" … "Page not found": the page a dead link opens is that one fault
    all_pains = [f for found in findings for f in found if f.type == "pain"]
    error_pages: set[int] = set()
    if any(linguistic.tells_a_dead_link(f.label) for f in all_pains):
        error_pages = {id(f) for f in all_pains if linguistic.tells_only_an_error_page(f.label)}
    vague = {id(f) for f in all_pains if specific and _says_too_little(f.label, report)}
    if report and not russian:
        # an English ticket's title states its fault, in words the rules may know no cue in
        # ("Attachments arrive renamed"): when nothing in it reads as a pain, it is the pain
        title_fault = _title_as_fault(
            text, sentences, findings, said_again | consequences | error_pages | vague
        )
        if title_fault is not None:
            index, fault = title_fault
            findings[index].append(fault)
            all_pains.append(fault)
    # a consequence restates no title, nor does the error page a dead link opens: the title
    # stays the problem's statement; a title that says too little ("Some missing items") is
    # none, the body tells the fault
    said_again |= _title_restated(
        text,
        sentences,
        findings,
        said_again | consequences | error_pages | vague,
        ticket=report and not russian,
    )
    # "Please fix it.": a request to repair naming nothing, only worth a pain when alone
    empty_fixes = {id(f) for f in all_pains if linguistic.asks_a_fix_of_nothing(f.label)}
    told_pain = any(id(f) not in empty_fixes for f in all_pains)
    for index, (sentence, candidates) in enumerate(zip(sentences, findings, strict=True)):
        found: list[Finding] = []
        for item in candidates:
            if item.type == "pain" and specific and _says_too_little(item.label, report):
                continue
            if (
                item.type == "pain"
                and sentence.lex is lexicon_ru
                and report_ru.tells_an_unnamed_error(item.label)
                and any(
                    f.type == "pain"
                    and f is not item
                    and not report_ru.tells_an_unnamed_error(f.label)
                    for other in _rest_of_paragraph(text, sentences, findings, index)
                    for f in other
                )
            ):
                continue  # «Выдаёт ошибку в коде.» before the sentence that tells which
            if (
                item.type == "pain"
                and linguistic.names_nothing(item.label)
                and any(
                    f.type == "pain" and f is not item and not linguistic.names_nothing(f.label)
                    for other in findings
                    for f in other
                )
            ):
                continue  # "Не работает" above the report that says what does not
            if (
                item.type == "pain"
                and sentence.lex is lexicon_ru
                and (
                    report_ru.tells_when_it_broke(item.label)
                    or report_ru.tells_only_the_impact(
                        item.label, text[sentence.start : sentence.end]
                    )
                )
                and any(
                    f.type == "pain"
                    and f is not item
                    and not report_ru.tells_when_it_broke(f.label)
                    for other in findings
                    for f in other
                )
            ):
                continue  # «сломалось после обновления», «это мешает» beside what broke
            if item.type == "pain" and linguistic.says_only_something_is_wrong(item.label):
                continue
            if report and item.type == "pain" and _TRIED_REMEDY.search(item.label):
                continue  # a remedy tried in vain, told in the actual results too
            if item.type == "pain" and linguistic.tells_of_the_tracker(item.label):
                continue  # "as I was about to file the bug": the ticket, not a fault
            if item.type == "pain" and linguistic.points_back_at_a_problem(item.label):
                continue  # "the same issue happens in Firefox": where again, not what
            if id(item) in error_pages:
                continue  # "Page not found" under the dead link that opens it
            if id(item) in empty_fixes and told_pain:
                continue  # "Please fix it." after the sentence that says what is broken
            if id(item) in consequences:
                continue
            if id(item) in said_again:
                continue
            if item.type == "pain":
                if _restated(text, sentence, item, pains) or _told_again(item, pains):
                    continue
                pains.append(item)
            found.append(item)
        for item in found:
            answer.node(item)
        carried = _carried_segment(text, sentence, referent)
        _link_sentence(answer, text, sentence, found, carried)
        _link_risk_to_previous(answer, sentence, found, referent)
        referent = _Referent(sentence.start, found, carried)
    return ExtractionResponse(nodes=answer.nodes, relations=answer.relations)


def _judged_statements(text: str, sentences: list[Sentence], findings: list[list[Finding]]) -> None:
    """ "They moved the search bar to the bottom. This is really annoying.", «…, что представляет
    большую проблему»: a statement that the words after it only call trouble is a complaint,
    though it holds no cue of its own. Its pain is labelled by its own words and quoted with
    the judgement; a pain the judgement's words made alone goes, as the same complaint."""
    for index, sentence in enumerate(sentences):
        asked = text[sentence.end : sentence.end + 2].lstrip().startswith("?")
        for k, clause in enumerate(sentence.clauses):
            relative = _TOLD_OF_BEFORE.search(text, *clause)
            if relative is not None and linguistic.judges_what_came_before(
                text[relative.start("word") : clause[1]], asked=asked
            ):
                judgement = (relative.start("word"), clause[1])
                statement = _last_statement(text, (clause[0], relative.start()))
                if statement is None:
                    break
                at = index
            elif k == 0 and linguistic.judges_what_came_before(
                text[clause[0] : clause[1]], asked=asked and len(sentence.clauses) == 1
            ):
                earlier = _statement_before(text, sentences, index)
                if earlier is None:
                    break
                judgement = clause
                at, statement = earlier
            else:
                continue
            if any(f.type == "pain" and statement[0] <= f.at < statement[1] for f in findings[at]):
                break
            pain = _judged_pain(text, sentences[at], statement, (statement[0], judgement[1]))
            if pain is not None:
                findings[index] = [
                    f
                    for f in findings[index]
                    if f.type != "pain" or not judgement[0] <= f.at < judgement[1]
                ]
                findings[at].append(pain)
            break


def _actual_behaviour(
    text: str, sentences: list[Sentence], findings: list[list[Finding]], sections: list[Span]
) -> None:
    """Under "Actual results" («Фактическое поведение») the template has the writer state the
    fault: each statement of the section's first paragraph is a pain though it holds no cue
    ("The label sits on top of the icon.", "No border around the table."), unless one was
    found in it already. A later paragraph there may explain, so it keeps to the rules."""
    for body in sections:
        opening = body[1] - len(text[body[0] : body[1]].lstrip())
        gap = _PARAGRAPH_BREAK.search(text, opening, body[1])
        end = gap.start() if gap else body[1]
        for index, sentence in enumerate(sentences):
            if not body[0] <= sentence.start < end:
                continue
            if _after_a_lead_in(text, body[0], sentence.start):
                continue  # "Wrong labels:" and the lines it shows: examples of one fault
            if _inside_a_quote(text, opening, sentence.start):
                continue  # the rest of a message quoted whole: one fault, told by its start
            if any(f.type in ("pain", "metric") for f in findings[index]):
                continue  # a fault found, or a measure taken ("memory use reaches 3 GB")
            if sentence.lex is lexicon_en and not linguistic.reads_as_english(
                text[sentence.start : sentence.end]
            ):
                continue  # the page's own text, quoted in its language: what shows, not a fault
            statement = _first_statement(text, (sentence.start, sentence.end))
            if statement is None or linguistic.tells_a_workaround(text, statement):
                continue  # «Единственный способ выйти из меню — …»: the way round, told there
            told = text[statement[0] : statement[1]]
            if linguistic.says_all_is_well(told) or linguistic.says_it_works(told):
                continue  # «После перезагрузки всё в порядке», "Printing works.": no fault
            if linguistic.tells_only_since_when(text[statement[0] : statement[1]]):
                continue  # "It has been like this since May": when, of the fault told before
            phrase, label = _pain_label(text, statement, statement, sentence)
            if label and len(label.split()) > 1 and not linguistic.fragment_reason(label):
                findings[index].append(Finding("pain", label, statement, phrase[0]))


def _says_too_little(label: str, ticket: bool) -> bool:
    """A pain that names only where a problem is, or, in a ticket, gives only a vague verdict
    on the whole page."""
    vague = ticket and linguistic.gives_only_a_vague_verdict(label)
    return vague or linguistic.names_only_an_area(label)


def _inside_a_quote(text: str, start: int, at: int) -> bool:
    """A quotation opened between `start` and `at` is still open at `at`."""
    before = text[start:at]
    typographic = before.count("“") > before.count("”") or before.count("«") > before.count("»")
    return typographic or before.count('"') % 2 == 1


def _after_a_lead_in(text: str, start: int, at: int) -> bool:
    """A line of the section before `at` ends on a colon: what follows it is what it shows."""
    lines = text[start:at].split("\n")[:-1]
    return any(line.rstrip().endswith(":") for line in lines if line.strip())


def _first_statement(text: str, span: Span) -> Span | None:
    """The first piece of the span, between commas or dashes, that names something and is no
    instruction (an English piece that opens on a bare verb: "Click on Quick view …")."""
    for start, end in _pieces(text, span):
        tokens = [t for t in analyse(text[start:end]) if t.pos != "PUNCT"]
        first = tokens[0] if tokens else None
        if first and first.pos == "VERB" and first.lower.isascii() and first.lower == first.lemma:
            continue
        if any(t.pos in ("NOUN", "PROPN") for t in tokens):
            return _trim(text, start, end)
    return None


# A judging clause after a comma: "…, which is annoying", «…, что очень мешает».
_TOLD_OF_BEFORE = re.compile(r",\s*(?P<word>which|что)(?![\w-])", re.IGNORECASE)
# "Although icons exist for each type, …": a concession tells what should be, not the fault.
_CONCESSION = re.compile(r"(?:хотя|although|though|even\s+though)(?![\w-])", re.IGNORECASE)


def _statement_before(text: str, sentences: list[Sentence], index: int) -> tuple[int, Span] | None:
    """The sentence a judgement points back to (past one that concedes) and the statement in it
    that the judgement is of."""
    at = index - 1
    if at > 0 and _CONCESSION.match(text, sentences[at].start):
        at -= 1
    if at < 0 or text[sentences[at].end : sentences[at].end + 2].lstrip().startswith("?"):
        return None
    statement = _last_statement(text, (sentences[at].start, sentences[at].end))
    return None if statement is None else (at, statement)


# Where a sentence's statements part: a comma, a dash between spaces, a semicolon.
_STATEMENT_BREAK = re.compile(r",|;|\s[-–—]\s")


def _pieces(text: str, span: Span) -> list[Span]:
    """The span cut at its commas, semicolons and spaced dashes."""
    breaks = list(_STATEMENT_BREAK.finditer(text, *span))
    starts = [span[0], *(m.end() for m in breaks)]
    ends = [*(m.start() for m in breaks), span[1]]
    return list(zip(starts, ends, strict=True))


def _last_statement(text: str, span: Span) -> Span | None:
    """The last piece of the span, between commas or dashes, that says something of something:
    it holds a verb and a noun ("после обновления, кнопки выглядят иначе, мельче")."""
    for start, end in reversed(_pieces(text, span)):
        tokens = analyse(text[start:end])
        if any(t.pos in ("VERB", "AUX") for t in tokens) and any(
            t.pos in ("NOUN", "PROPN") for t in tokens
        ):
            return _trim(text, start, end)
    return None


def _judged_pain(text: str, sentence: Sentence, statement: Span, quote: Span) -> Finding | None:
    english = sentence.lex.LANG == "en"
    if linguistic.not_a_pain(text, statement, (sentence.start, sentence.end), english):
        return None  # "I never lose my notes, which is great" is no complaint either way
    phrase, label = _pain_label(text, statement, statement, sentence)
    if not label or len(label.split()) < 2 or linguistic.fragment_reason(label):
        return None
    return Finding("pain", label, quote, phrase[0])


_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")


def _rest_of_paragraph(
    text: str, sentences: list[Sentence], findings: list[list[Finding]], index: int
) -> list[list[Finding]]:
    """The findings of the sentence at index and of those after it in its paragraph."""
    rest = [findings[index]]
    for later in range(index + 1, len(sentences)):
        if _PARAGRAPH_BREAK.search(text, sentences[later - 1].end, sentences[later].start):
            break
        rest.append(findings[later])
    return rest


def _told_again(pain: Finding, earlier: list[Finding]) -> bool:
    """A Russian pain that tells a problem of the message again in other words («терминал
    зависает» … «терминал подвисает при запуске»): the first telling stands. Sameness is the
    resolution's (kg.llm.offline.similarity), which merges such mentions across messages."""
    if not _CYRILLIC.search(pain.label):
        return False
    return any(
        _CYRILLIC.search(other.label) and same_thing(pain.label, other.label, "pain")[0]
        for other in earlier
    )


# A report's title and its body state its problem, or the goal it asks how to reach («Как
# отключить подсказки?» above «Подскажите, как отключить всплывающие подсказки»), twice.
_TOLD_TWICE_TYPES = frozenset({"pain", "job"})


def _said_again(findings: list[list[Finding]]) -> set[int]:
    """Pains a message states twice (a report's title and its body: "No update button in the
    Help menu" … "no update button"): the wording whose words the other holds all of stands,
    the one with fewer words goes. Sharing some words ("doesn't work") is not enough."""
    pains = [
        (f, content_lemmas(f.label))
        for found in findings
        for f in found
        if f.type in _TOLD_TWICE_TYPES
    ]
    dropped: set[int] = set()
    for index, (pain, words) in enumerate(pains):
        for other_index, (other, other_words) in enumerate(pains):
            if other_index == index or id(other) in dropped or len(words) < 2:
                continue
            if other.type != pain.type:
                continue
            fewer = len(words) < len(other_words) or (
                len(words) == len(other_words) and other_index < index
            )
            if (fewer and words <= other_words) or (
                other_index < index and _same_but_for_ability(words, other_words)
            ):
                dropped.add(id(pain))
                break
    return dropped


# How a failure to act is put: "can't log in", "unable to log in any more", «не удаётся
# войти», «теперь не могу войти» tell the one fault.
_ABILITY = frozenset(
    {"can", "can't", "cannot", "able", "unable", "мочь", "удаваться", "получаться"}
)
# "any more", «больше не» (read as «большой»): when, not what
_NO_LONGER = frozenset({"anymore", "longer", "больше", "большой"})


def _same_but_for_ability(words: set[str], other: set[str]) -> bool:
    kept, other_kept = words - _ABILITY - _NO_LONGER, other - _ABILITY - _NO_LONGER
    return bool(kept) and kept == other_kept and bool((words ^ other) & _ABILITY)


_TITLE = re.compile(r"\A[ \t]*(?P<title>[^\n]{1,160}?)[ \t]*\n[ \t]*\n")
_TITLE_MAX_WORDS = 20


def _title(text: str) -> re.Match[str] | None:
    """A report's title: a short first line set off by a blank line."""
    title = _TITLE.match(text)
    if title is None or len(title["title"].split()) > _TITLE_MAX_WORDS:
        return None
    return title


def _title_restated(
    text: str,
    sentences: list[Sentence],
    findings: list[list[Finding]],
    dropped: set[int],
    *,
    ticket: bool,
) -> set[int]:
    """Pains a report's title and its body both state, one of each pair to drop. A title is a
    short first line set off by a blank line; it sums up the body, often in other words or
    another language. A title that says what happens, in a clause of the body's language
    ("Attachments are not saved to the drafts folder"), is the report's own summary and stands: body
    pains that say the same in no more words go (half their words the title's), and a body
    pain whose sentence only names the title's matter tells more of it and stays ("Can't sign
    in" above "I click Sign in and nothing happens"). An English ticket reports one fault:
    when its title states it in a clause, the title is the fault and every body pain goes (the
    Russian tickets at hand state several faults in their bodies). Otherwise the title gives
    way to the body, whose wording says more ("Scrolling is broken" above "after the update
    the page does not scroll with the wheel", "Terminal problem" above anything the body
    tells)."""
    title = _title(text)
    if title is None:
        return set()
    end = title.end("title")
    heading = [
        f
        for found in findings
        for f in found
        if f.type == "pain" and id(f) not in dropped and f.quote[1] <= end
    ]
    body = [
        (f, text[sentence.start : sentence.end])
        for sentence, found in zip(sentences, findings, strict=True)
        for f in found
        if f.type == "pain"
        and id(f) not in dropped
        and f.quote[0] > end
        # «… и больше ничего не происходит»: a body pain that names nothing says less
        and not linguistic.names_nothing(f.label)
    ]
    going: set[int] = set()
    if ticket and any(
        linguistic.states_a_clause(pain.label) and not _says_only_it_fails(pain.label)
        for pain in heading
    ):
        # an English ticket reports one fault, and a title that states it in a clause is its
        # statement: what else the body says wrong tells that fault's course
        return {id(f) for f, _ in body}
    for pain in heading:
        restated = [
            f
            for f, said in body
            if _same_matter(pain.label, said)
            or (_same_matter(pain.label, f.label) and _same_script(f.label, said))
        ]
        if not restated:
            continue
        close = [f for f in restated if _restates_closely(pain.label, f.label)]
        clause = linguistic.states_a_clause(pain.label) and all(
            _same_script(pain.label, f.label) for f in restated
        )
        if clause and all(
            len(content_lemmas(pain.label)) >= len(content_lemmas(f.label)) for f in close
        ):
            going |= {id(f) for f in close}
            if close or not any(_same_matter(pain.label, f.label) for f in restated):
                continue
        going.add(id(pain))
    return going


# "Shop page broken", "Site does not work properly": a title that says only that something
# fails, leaving what to the body
_VERDICT_WORDS = frozenset(
    {
        "broken",
        "break",
        "work",
        "working",
        "correctly",
        "properly",
        "wrong",
        "issue",
        "problem",
        "bug",
    }
)


# What may stand before a ticket title's words: tags ("[SM]", "[de]"), the site it is about
# ("www.example.org - "), and dashes or colons left where a web address is masked.
_TITLE_TAGS = re.compile(r"(?:\s*\[[^\]\n]{1,24}\])+")
_SITE_HEADING = re.compile(r"(?:https?://)?[\w-]+(?:\.[\w-]+)+/?\s+[-–—]\s+")
_LEADING_MARKS = re.compile(r"[\s\-–—:]*")
# the part a ticket is about, before its task: "Storage: add a retry option", "S3. Add …"
_COMPONENT_HEADING = re.compile(r"[^\s:][^:\n]{0,40}?\s?:\s+|[\w-]{1,20}\.\s+(?=[A-Z])")
# a question without its mark: "Can the sidebar keep its width", "Why does it reset", not
# "Does not upload"
_ASKS = re.compile(
    r"(?:(?:how|why|what|where|which|who)\s+)?(?:can|could|is|are|does|do|did|will|would)"
    r"\s+(?!not\b)\w",
    re.IGNORECASE,
)
# "The import should keep the folder order", "Docs need updating": what is to be, a task
_EXPECTED = re.compile(r"\b(?:should|must|needs?)\b", re.IGNORECASE)


_COURTESY_OPENERS = frozenset(("please", "pls", "plz", "kindly"))


def _title_as_fault(
    text: str, sentences: list[Sentence], findings: list[list[Finding]], dropped: set[int]
) -> tuple[int, Finding] | None:
    """A ticket's title as its pain, with the index of the sentence that holds it, when no pain
    was read in it: a tracker's summary line states the fault, often in words that carry no
    cue of trouble ("Forwarded invoices arrive as plain text"). Not a title that
    names a change to make, asks a question, says what should be, only names the matter
    ("Sorting tags") or says too little ("Page not displayed properly", whose fault the body
    tells)."""
    title = _title(text)
    if title is None:
        return None
    start, end = title.span("title")
    if any(
        f.type == "pain" and id(f) not in dropped and f.quote[1] <= end
        for found in findings
        for f in found
    ):
        return None
    first = start
    for opening in (_TITLE_TAGS, _SITE_HEADING, _LEADING_MARKS):
        matched = opening.match(text, first, end)
        first = matched.end() if matched else first
    label = " ".join(text[first:end].split())  # a masked name leaves no run of spaces
    if not label or label.endswith("?") or _ASKS.match(label) or _EXPECTED.search(label):
        return None
    heading = _COMPONENT_HEADING.match(text, first, end)
    words = analyse(text[heading.end() if heading else first : end])
    opening = next((w for w in words if w.lower not in _COURTESY_OPENERS), None)
    if opening is None or opening.lower in lexicon_en.CHANGE_VERBS:
        return None  # "Add …", "Please add …": a change asked for
    # the clause's verb follows its subject: a title's first word read as a verb opens a
    # name ("Sorting tags")
    said = label if analyse(label)[0].pos != "VERB" else " ".join(label.split()[1:])
    if _says_too_little(label, True) or not linguistic.states_a_clause(said):
        return None  # "Sorting tags", "Page not displayed properly": no fault by itself
    index = next((i for i, s in enumerate(sentences) if s.start <= first < s.end), None)
    if index is None:
        return None
    return index, Finding("pain", label, (first, end), first)


def _says_only_it_fails(label: str) -> bool:
    words = content_lemmas(label)
    told = {w for w in words if w in _VERDICT_WORDS}
    return bool(told) and len(words - told) <= 2


def _restates_closely(title: str, body: str) -> bool:
    """At least half the body pain's content words are the title's, or share its roots."""
    told = content_lemmas(body)
    return bool(told) and 2 * len(_words_shared(title, body)) >= len(told)


def _words_shared(title: str, body: str) -> list[str]:
    """The body's content words that are the title's or share a root with one of them."""
    said = content_lemmas(title)
    return [b for b in content_lemmas(body) if b in said or any(_same_root(a, b) for a in said)]


def _same_script(one: str, other: str) -> bool:
    return bool(_CYRILLIC.search(one)) == bool(_CYRILLIC.search(other))


def _same_matter(title: str, body: str) -> bool:
    """A shared content word, or two languages (a report titled in one, told in another; not
    a message it quotes in another language inside a sentence of the title's). A
    Russian title often names by a noun what the body tells by a verb of the same root
    («Не работает вставка» above «текст не вставляется»): a shared root counts too."""
    if not _same_script(title, body):
        return True
    return bool(_words_shared(title, body))


_ROOT_MIN = 5  # letters: «встав-» in «вставка» and «вставляться»; «пере-» alone is a prefix
_ROOT_SHARE = 0.6  # of the shorter word
_WHOLE_ROOT_MIN = 4  # letters of a short lemma the longer one begins with


def _same_root(one: str, other: str) -> bool:
    """Two Russian lemmas that begin with the same long stem («сохранение», «сохраняться»)."""
    if not (_CYRILLIC.match(one) and _CYRILLIC.match(other)):
        return False
    shared = 0
    for a, b in zip(one, other, strict=False):
        if a != b:
            break
        shared += 1
    shorter = min(len(one), len(other))
    if shared == shorter >= _WHOLE_ROOT_MIN:
        return True  # «ввод» in «вводиться», «язык» in «языковой»: the whole shorter word
    return shared >= max(_ROOT_MIN, _ROOT_SHARE * shorter)


# ----------------------------------------------------------------------------- splitting


def _sentences(text: str, language: str) -> Iterator[Sentence]:
    start = 0
    messages = _MessageColons(text)
    quotes = _QuotedSpans(text)
    for boundary in _SENTENCE_BREAK.finditer(text):
        if _ABBREVIATION.search(text[start : boundary.start()]):
            continue  # "e.g. Excel" does not end a sentence
        if _wrapped(text, boundary) or messages.inside(boundary) or quotes.inside(boundary):
            continue
        yield from _sentence(text, start, boundary.start(), language)
        start = boundary.end()
    yield from _sentence(text, start, len(text), language)


# An error or a message quoted after a colon: "… выдаёт ошибку: Failed to fetch. Retry
# later." The message is what the error says, one statement with the words that report it.
_MESSAGE_COLON = re.compile(
    r"(?<![\w-])(?:ошибк\w*|сообщени\w*|исключени\w*|\w*error|message|\w*exception)\s*:\s",
    re.I,
)


class _MessageColons:
    """Where a text quotes a message after a colon, found once for the whole text: asked per
    sentence break, a search of the line up to each break would read a long line once per
    sentence on it."""

    def __init__(self, text: str) -> None:
        self.found = [(m.start(), m.end()) for m in _MESSAGE_COLON.finditer(text)]
        self.starts = [start for start, _ in self.found]
        self.line_ends = [m.start() for m in re.finditer("\n", text)] if self.found else []

    def inside(self, boundary: re.Match[str]) -> bool:
        """A sentence break on the line of a message quoted after a colon (the line's first
        such colon, not at the line's very start)."""
        if not self.found or "\n" in boundary.group():
            return False
        before = bisect.bisect_left(self.line_ends, boundary.start())
        line_start = self.line_ends[before - 1] + 1 if before else 0
        first = bisect.bisect_left(self.starts, line_start)
        if first == len(self.found):
            return False
        start, end = self.found[first]
        return line_start < start and end <= boundary.start()


class _QuotedSpans:
    """Where a writer's sentence quotes a message on its line ('it says "Error while fetching.
    Retry."'): a full stop inside the quote ends the quoted message's sentence, not the
    writer's. A line that is all quotation is the message itself, read sentence by sentence."""

    def __init__(self, text: str) -> None:
        quoted = '"' in text or "«" in text or "“" in text
        self.spans = [
            m.span()
            for m in (_QUOTED.finditer(text) if quoted else ())
            if any(c.isalpha() for c in text[text.rfind("\n", 0, m.start()) + 1 : m.start()])
        ]
        self.starts = [start for start, _ in self.spans]

    def inside(self, boundary: re.Match[str]) -> bool:
        """A break whose quote goes on after it: the closing mark is still to come."""
        at = bisect.bisect_right(self.starts, boundary.start()) - 1
        return at >= 0 and boundary.end() < self.spans[at][1]


_WRAPPED_LINE = 50  # characters: a line this long that stops mid-sentence was wrapped


def _wrapped(text: str, boundary: re.Match[str]) -> bool:
    """A line break inside a hard-wrapped paragraph: a long line that ends mid-sentence, and a
    next line that goes on in lower case ("… agencies often try to negotiate more finely\n
    scoped requests …"). A short line or a new capital starts a new statement."""
    if "\n" not in boundary.group() or boundary.group().count("\n") > 1:
        return False
    line_start = text.rfind("\n", 0, boundary.start()) + 1
    line = text[line_start : boundary.start()]
    following = text[boundary.end() : boundary.end() + 1]
    return (
        len(line) >= _WRAPPED_LINE
        and line[-1:] not in ".!?…:;"
        and following.isalpha()
        and following.islower()
    )


def _sentence(text: str, start: int, end: int, language: str) -> Iterator[Sentence]:
    start, end = _trim(text, start, end)
    bullet = _BULLET.match(text, start, end)
    if bullet is not None:
        start = bullet.end()  # list markers are layout, not words
    if end <= start:
        return
    lex = _lexicon(text[start:end], language)
    own = (language.lower()[:2] or lex.LANG) == lex.LANG
    yield Sentence(start, end, _clauses(text, start, end, lex), lex, own)


def _lexicon(sentence: str, language: str) -> ModuleType:
    """Russian rules for Cyrillic sentences: PM notes mix languages within one message. What
    a sentence quotes (a page's title, a message: «Мёртвая ссылка на "Getting Started"») is
    not the language it is told in."""
    told = _QUOTED.sub(" ", sentence)
    if not (_CYRILLIC.search(told) or _LATIN.search(told)):
        told = sentence
    cyrillic, latin = len(_CYRILLIC.findall(told)), len(_LATIN.findall(told))
    if cyrillic and cyrillic >= 0.3 * latin:
        return lexicon_ru
    if latin:
        return lexicon_en
    return lexicon_ru if language.lower().startswith("ru") else lexicon_en


_QUOTED = re.compile(r'"[^"\n]*"|«[^»\n]*»|“[^”\n]*”')


# «, а» after a denied phrase: what was done instead of it (linguistic.denied_before_contrast)
_BUT_RATHER = re.compile(r",\s+а\b")


def _clauses(text: str, start: int, end: int, lex: ModuleType) -> list[Span]:
    spans: list[Span] = []
    cursor = start
    # a quoted message is one piece of its clause («выдаёт ошибку "fatal: access denied"»)
    quoted = [m.span() for m in _QUOTED.finditer(text, start, end)]
    for separator in lex.CLAUSE_SEPARATOR.finditer(text, start, end):
        if any(s < separator.start() < e for s, e in quoted):
            continue
        if _MESSAGE_COLON.search(text, max(start, separator.start() - 20), separator.end()):
            continue  # «выдаёт ошибку: …»: the message belongs to its report
        if (
            lex is lexicon_ru
            and _BUT_RATHER.match(separator.group())
            and linguistic.denied_before_contrast(text[cursor : separator.start()])
        ):
            continue  # «… не у выделенного блока, а у родительского»: one statement
        spans.append(_trim(text, cursor, separator.start()))
        cursor = separator.end()
    spans.append(_trim(text, cursor, end))
    return [span for span in spans if span[1] > span[0]] or [(start, end)]


def _trim(text: str, start: int, end: int) -> Span:
    """Drop surrounding spaces and closing punctuation, keeping the span a slice of text."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in ".,;:!?…"):
        end -= 1
    return start, end


def _cover(sentence: Sentence, start: int, end: int) -> Span:
    """The clauses a span touches: the smallest quote that still reads as a statement."""
    first = next((c for c in sentence.clauses if c[1] > start), sentence.clauses[-1])
    last = next((c for c in reversed(sentence.clauses) if c[0] < end), sentence.clauses[0])
    return (min(first[0], last[0]), max(first[1], last[1]))


def _clause_end(sentence: Sentence, position: int) -> int:
    return next((c[1] for c in sentence.clauses if c[1] > position), sentence.end)


# ----------------------------------------------------------------------------- labels


def _phrase(
    text: str,
    start: int,
    end: int,
    lex: ModuleType,
    cutter: re.Pattern[str] | None = None,
    max_words: int = 8,
    *,
    clause_first: bool = False,
) -> Span:
    """A short span for a label: cut at the first cutter, without leading or trailing filler.
    Past max_words, clause_first cuts at the end of a whole first clause when there is one."""
    if cutter is not None:
        cut = next((m for m in cutter.finditer(text, start, end) if m.start() > start), None)
        if cut is not None:
            end = cut.start()
    tokens = [(m.start() + start, m.end() + start) for m in _TOKEN.finditer(text[start:end])]
    while tokens and _bare(text, tokens[0]) in lex.LEADING_STOPWORDS:
        tokens.pop(0)
    if len(tokens) > max_words:
        span = (tokens[0][0], tokens[-1][1])
        clause_end = linguistic.first_clause_end(text, span, max_words) if clause_first else None
        if clause_end is not None:
            tokens = [(s, min(e, clause_end)) for s, e in tokens if s < clause_end]
        else:
            cut = linguistic.cut_at_word_limit(text, span, max_words)
            tokens = [t for t in tokens if t[1] <= cut] or tokens[:max_words]
    while tokens and _bare(text, tokens[-1]) in lex.TRAILING_STOPWORDS:
        if _ends_a_phrasal_verb(text, tokens, lex):
            break
        tokens.pop()
    if not tokens:
        return start, start
    start, end = tokens[0][0], tokens[-1][1]
    while start < end and text[start] in _EDGE_PUNCTUATION:
        start += 1
    while end > start and text[end - 1] in _EDGE_PUNCTUATION:
        end -= 1
    return start, end


def _ends_a_phrasal_verb(text: str, tokens: list[Span], lex: ModuleType) -> bool:
    """The last token is the particle of the verb before it ("log in", "shut down")."""
    if lex is not lexicon_en or len(tokens) < 2:
        return False
    particle, verb = _bare(text, tokens[-1]), _bare(text, tokens[-2])
    return particle in lex.PHRASAL_PARTICLES and lemma(verb) in lex.PHRASAL_VERBS


def _bare(text: str, span: Span) -> str:
    return text[span[0] : span[1]].strip(_EDGE_PUNCTUATION).lower()


def _label(text: str, span: Span, sentence: Sentence) -> str:
    """Whitespace collapsed; a capital that is only there because a sentence starts is dropped."""
    words = text[span[0] : span[1]].split()
    while words and all(_a_pictograph(c) for c in words[-1]):
        words.pop()  # "blank panel 😞": the writer's feeling, no word of the label
    if words and words[0].lstrip("—–") and words[0][0] in "—–":
        words[0] = words[0].lstrip("—–")  # '—"Not found"': a list's dash, no word of the label
    if not words:
        return ""
    first = words[0]
    opener = text[sentence.start : span[0]].strip()[-1:] if span[0] > sentence.start else ""
    at_start = span[0] == sentence.start or opener in _SENTENCE_OPENERS
    if at_start and first[:1].isupper() and first[1:] == first[1:].lower():
        words[0] = first.lower()
    return " ".join(words)


def _a_pictograph(character: str) -> bool:
    return unicodedata.category(character) in ("So", "Sk") or character in "\ufe0f\u200d"


def _words_before(text: str, position: int, floor: int, lex: ModuleType, limit: int) -> int:
    """Start of the noun phrase that ends at position (the subject of "the app lags")."""
    start = position
    taken: list[int] = []
    for token in reversed(list(_TOKEN.finditer(text, floor, position))):
        word = token.group()
        bare = word.strip(_EDGE_PUNCTUATION).lower()
        if taken and linguistic.modifies_a_subject(text, (floor, position), token.start()):
            # «автодополнение в Python не работает», «плагины для Python сломаны»: the noun's
            # phrase
            start = token.start()
            taken.append(start)
            continue
        if bare in lex.SUBJECT_PREPOSITIONS and taken:
            return taken[0]  # «при запуске программа тормозит»: the noun right before the cue
        if word[-1] in ",;:—–" or bare in lex.SUBJECT_BOUNDARY:
            break
        start = token.start()
        taken.append(start)
        if word[0] in '("«':
            break
        if (
            lex is lexicon_en
            and bare in linguistic.SUBJECT_OPENERS
            and linguistic.opens_the_subject(text[floor:start])
        ):
            break  # "when I open the settings | the app crashes"
        if len(taken) >= limit and not _headless(text[start:position], lex, len(taken) - limit):
            break
    return start


_HEAD_SEARCH = 3  # words past the limit to reach the noun a Russian phrase hangs on


def _headless(phrase: str, lex: ModuleType, past: int) -> bool:
    """«[обработка] горячих клавиш в текстовых полях»: a Russian subject cut at the word limit
    holds only the words that depend on its noun, none of them nominative; it reads on to
    that noun, a few words at most."""
    if lex is not lexicon_ru or past >= _HEAD_SEARCH:
        return False
    return not any(_may_head(word) for word in phrase.split())


def _may_head(word: str) -> bool:
    """A word the phrase may hang on: a noun or pronoun likely to be nominative, or
    a name in another script ("VS Code")."""
    bare = word.strip(_EDGE_PUNCTUATION)
    if not _CYRILLIC.search(bare):
        return any(c.isalpha() for c in bare)
    return may_be_a_subject(bare)


# ----------------------------------------------------------------------------- detectors


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


def _find_all(
    text: str, sentence: Sentence, product: str, own: set[str], *, mentions: bool = True
) -> list[Finding]:
    """What one sentence says. Without `mentions` the features are only those asked for or
    offered: a ticket's parts are named inside its pains, so they are not read as features."""
    if sentence.lex is lexicon_en and not linguistic.reads_as_english(
        text[sentence.start : sentence.end]
    ):
        return []  # a page's text in Dutch quoted in the report: the rules read no other tongue
    story = linguistic.user_story(text, (sentence.start, sentence.end))
    if story is not None:
        return _story(text, sentence, story)
    goals = _goals(text, sentence)
    risks = _risks(text, sentence)
    goal_spans = [g.quote for g in goals]
    # A goal's or a risk's numbers are a target or a threshold, not a measurement.
    planned_spans = goal_spans + [r.quote for r in risks]
    alternatives = _alternatives(text, sentence, own)
    competitors = _competitors(text, sentence, own, alternatives)
    # what the sentence asks for: a feature for _features, and no job for _jobs
    requests = linguistic.request_spans(
        text, (sentence.start, sentence.end), sentence.lex.LANG == "en"
    )
    jobs = _jobs(text, sentence, [cue for cue, _ in requests])
    # a ticket names no group of customers (its segments are dropped): not read for them
    segments = _segments(text, sentence) if mentions else []
    # What a group of customers named before it needs or tries to do is its job ("night nurses
    # need to swap shifts"): its words name no feature as well.
    groups_jobs = [(j.at, j.quote[1]) for j in jobs if any(g.at < j.at for g in segments)]
    metrics = _metrics(text, sentence, planned_spans)
    # A goal's or a risk's words, and the things a share is counted of, name what is aimed
    # at or counted ("halve missed bookings", "a third of invoices are paid late"), not a
    # function of the product. A time measured may be a function's own ("needs a minute to
    # open").
    counted = planned_spans + [
        (m.at, m.at + len(m.label)) for m in metrics if _SHARE.search(m.value)
    ]
    features = [
        f
        for f in _features(
            text, sentence, requests, competitors, planned_spans, alternatives, mentions=mentions
        )
        if not any(s <= f.at < e for s, e in groups_jobs)
        and (f.origin == "planned" or not any(s <= f.at < e for s, e in counted))
        and not _names_only_the_product(f.label, own)
        # "reproduces regardless of ETP", "the following changeset": how the fault shows, or a
        # pointer to words after it, not a function of the product
        and not _REPRODUCED_EN.search(f.label)
        and not report_ru.tells_reproduction(f.label)
        and not _points_onward(text, f)
    ]
    found = [
        *_markets(text, sentence, product),
        *_insights(text, sentence),
        *_findings(text, sentence),
        *segments,
        *_pains(text, sentence, goal_spans, alternatives, competitors),
        *jobs,
        *_triggers(text, sentence),
        *alternatives,
        *competitors,
        *features,
        *metrics,
        *goals,
        *risks,
    ]
    if product and found and any(f.type in ("risk", "competitor") for f in found):
        found.extend(_product_mention(text, sentence, product, found))
    # A label must be a whole phrase: never a fragment, a web address or a table row; a
    # metric's must say what it counts.
    found = [f for f in found if not _label_problem(f)]
    # A pain or a job is a clause: one word ("startup", "load") does not say what goes wrong
    # or what someone is trying to do.
    found = [f for f in found if f.type not in ("pain", "job") or len(f.label.split()) > 1]
    return sorted(found, key=lambda f: f.at)


def _story(text: str, sentence: Sentence, story: linguistic.Story) -> list[Finding]:
    """A user story names its segment, the feature it wants and the job that feature serves."""
    found = []
    parts = [("segment", story.role, False), ("feature", story.want, False)]
    if story.benefit is not None:
        parts.append(("job", story.benefit, True))
    for kind, span, drop_subject in parts:
        words = linguistic.clause_span(text, span, drop_subject=drop_subject)
        if words is None:
            continue
        label = _label(text, words, sentence)
        quote = (sentence.start, sentence.end)
        found.append(Finding(kind, label, quote, words[0], origin="planned"))
    return found


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


def _markets(text: str, sentence: Sentence, product: str) -> list[Finding]:
    lex = sentence.lex
    found: list[Finding] = []
    for pattern in lex.MARKET_PATTERNS:
        for match in pattern.finditer(text, sentence.start, sentence.end):
            label = _market_label(match["m"], lex)
            if not label or any(f.label == label for f in found):
                continue
            quote = (sentence.start, sentence.end)
            found.append(Finding("market", label, quote, match.start("m")))
    if found and product and _numbers_quoted(product, text[sentence.start : sentence.end]):
        # "we are moving to B2B": the team speaks of its own product without naming it; the
        # market's time line needs the product node, the PRD names it only from a quote that does
        found.append(Finding("product", product, (sentence.start, sentence.end), sentence.start))
    return found


def _numbers_quoted(label: str, quote: str) -> bool:
    """A label's numbers must be in its quote ("Route66" needs a sentence that says 66)."""
    return all(number in quote for number in _DIGITS.findall(label))


def _market_label(raw: str, lex: ModuleType) -> str:
    token = re.match(lex.MARKET_NAME, raw, re.I)
    if token is not None:
        name = token.group()
        if re.fullmatch(r"[A-Z0-9]+s", name):
            name = name[:-1]  # "SMBs" is the market "SMB"
        name = name.upper() if re.fullmatch(r"[a-z0-9]+", name, re.I) and len(name) <= 5 else name
        name = name.lower() if name.lower() in ("enterprise", "mid-market") else name
        tail = raw[token.end() :].split()
        if tail and tail[0].lower() not in lex.MARKET_TAIL_STOP:
            return f"{name} {tail[0].lower()}"
        return name
    words = raw.lower().split()
    while words and words[-1] in lex.MARKET_TAIL_STOP:
        words.pop()
    return " ".join(words[:3])


@cache
def _insight_patterns(lex: ModuleType) -> list[tuple[re.Pattern[str], str]]:
    return [
        (re.compile(rf"(?<![\w-]){subject}(?![\w-])", re.I), key) for subject, key in lex.CRITERIA
    ]


@cache
def _verdict_after(lex: ModuleType, pattern: re.Pattern[str]) -> re.Pattern[str]:
    return re.compile(rf"(?P<gap>{lex.INSIGHT_GAP}){pattern.pattern}", re.I)


def _insights(text: str, sentence: Sentence) -> list[Finding]:
    """Opinions about a buying criterion: the subject key and stance find contradictions later."""
    lex = sentence.lex
    found: list[Finding] = []
    for subject_pattern, key in _insight_patterns(lex):
        for subject in subject_pattern.finditer(text, sentence.start, sentence.end):
            verdict = _verdict(text, sentence, subject, lex)
            if verdict is None:
                continue
            label, stance, span = verdict
            found.append(
                Finding(
                    "insight",
                    label,
                    _cover(sentence, *span),
                    subject.start(),
                    subject=key,
                    stance=stance,
                )
            )
    return found


_FINDING_MAX_WORDS = 20
_FINDING_MIN_WORDS = 4  # "some users agreed" says too little to stand alone


def _findings(text: str, sentence: Sentence) -> list[Finding]:
    """What a share of the people studied did or said ("Most testers skipped the tour"): a
    research write-up's observation, kept whole as an insight. It is no opinion about a
    buying criterion, so it has no subject or stance to contradict."""
    lex = sentence.lex
    found: list[Finding] = []
    for start, end in sentence.clauses:
        share = lex.FINDING_SHARE.match(text, start, end)
        if share is None:
            continue
        words = list(_TOKEN.finditer(text, share.end(), end))
        head = next(
            (
                i
                for i, w in enumerate(words[:3])
                if lex.SEGMENT_HEAD.fullmatch(_bare(text, w.span()))
            ),
            None,
        )
        if head is None or head + 1 >= len(words):
            continue
        noun, verb = _bare(text, words[head].span()), _bare(text, words[head + 1].span())
        if not lex.FINDING_PLURAL_HEAD.fullmatch(noun) or verb in lex.FINDING_NOT_VERB:
            continue
        if text[words[head].start() : words[head].end()][-1:] in ",;:":
            continue  # "some users, …": the noun closes a phrase, no verb follows
        stop = _finding_end(text, words[head + 1].start(), end, lex)
        stop = linguistic.cut_at_word_limit(text, (start, stop), _FINDING_MAX_WORDS)
        span = _trim(text, start, stop)
        label = _label(text, span, sentence)
        if len(label.split()) < _FINDING_MIN_WORDS:
            continue
        found.append(Finding("insight", label, _cover(sentence, *span), start))
    return found


def _finding_end(text: str, start: int, end: int, lex: ModuleType) -> int:
    """The first comma that ends the statement (one inside a list, "broad, vague, or long",
    does not), or an aside in brackets."""
    for mark in re.finditer(r"[,(]", text[start:end]):
        if mark.group() == "(" or not lex.LIST_GOES_ON.match(text, start + mark.end(), end):
            return start + mark.start()
    return end


def _verdict(
    text: str, sentence: Sentence, subject: re.Match[str], lex: ModuleType
) -> tuple[str, str, Span] | None:
    name = re.sub(r"^(?:the)\s+", "", subject.group().lower())
    # Negative first: "not the main factor" contains "the main factor".
    for pattern, stance in (
        (lex.INSIGHT_NEGATIVE_AFTER, "negative"),
        (lex.INSIGHT_POSITIVE_AFTER, "positive"),
    ):
        verdict = _verdict_after(lex, pattern).match(text, subject.end(), sentence.end)
        if verdict is not None:
            said = " ".join(text[verdict.end("gap") : verdict.end("p")].split())
            return f"{name} {said}".lower(), stance, (subject.start(), verdict.end("p"))
    before = text[sentence.start : subject.start()]
    for pattern, stance in (
        (lex.INSIGHT_NEGATIVE_BEFORE, "negative"),
        (lex.INSIGHT_POSITIVE_BEFORE, "positive"),
    ):
        verdict = pattern.search(before)
        if verdict is not None:
            start = sentence.start + verdict.start("p")
            said = " ".join(verdict["p"].split())
            return f"{said} {name}".lower(), stance, (start, subject.end())
    return None


def _segments(text: str, sentence: Sentence) -> list[Finding]:
    lex = sentence.lex
    heads = list(lex.SEGMENT_HEAD.finditer(text, sentence.start, sentence.end))
    found: list[Finding] = []
    consumed_until = sentence.start
    for index, head in enumerate(heads):
        if head.start() < consumed_until:
            continue
        described = lex.segment_head(head)
        if described is None:
            continue
        label, needs_modifier = described
        if _inside_a_name(text, head.start(), head.end(), sentence.start):
            continue  # "Microsoft Teams Rooms": a head word inside a product's name
        if _GLUED.match(text, head.start()):
            continue  # "parseHeaders": a name in code, not people
        following = heads[index + 1] if index + 1 < len(heads) else None
        if (
            lex.NOUN_COMPOUNDS
            and following is not None
            and not text[head.end() : following.start()].strip()
        ):
            continue  # "shop owners": this head is the next one's modifier
        if lex is lexicon_en and linguistic.modifies_the_next_noun(text, head.end(), sentence.end):
            continue  # "user interface", "user friendly", "the family app": a compound's first word
        start, modifiers = _modifiers(text, sentence, head.start(), lex)
        if needs_modifier and not modifiers:
            continue
        if (
            lex is lexicon_en
            and head["head"].lower() in lexicon_en.DEVICE_PERSON_NOUNS
            and any(m.lower() in lexicon_en.DEVICE_MODIFIERS for m in modifiers)
        ):
            continue  # "DVD players", "crappy speakers": devices
        before = _word_before(text, sentence.start, start)
        if before in lex.NOT_SEGMENT_AFTER or lex.graded_adjective(head["head"], before):
            continue
        lead = text[sentence.start : start]
        if lex is lexicon_en and _SAID_OF_A_THING.search(lead):
            continue  # "this app is a life saver", "it's my record keeper": the app, described
        if _COUNT_BEFORE.search(lead):
            continue  # "fleets of 20+ drivers", "по 50–200 преподавателей": a size, not a group
        if lex.names_one(head["head"], lead):
            continue  # "a courier at a mid-size delivery firm": one person or company
        if lex.COMPOSITION_BEFORE.search(lead):
            continue  # "сеть из трёх салонов", "a chain of 12 stores": what a business is made of
        end = head.end()
        tail = lex.segment_tail(label, text[end : sentence.end])
        if tail is not None:
            word = tail.group(1)
            # a name in Latin letters keeps its case («пользователи Windows»)
            label = f"{label} {word if word.isascii() and word[:1].isupper() else word.lower()}"
            end += tail.end()
            consumed_until = end
        if linguistic.addressed(text, (sentence.start, sentence.end), start, end):
            continue  # "Dear developers, please fix …": the reader addressed, not a segment
        if (
            lex is lexicon_ru
            and not modifiers
            and report_ru.names_the_makers(text, (sentence.start, sentence.end), label)
        ):
            continue  # «Спасибо разработчикам», «разработчики исправят»: the makers
        full = " ".join([*modifiers, label])
        role = "oblique" if before in lex.OBLIQUE_BEFORE else ""
        found.append(
            Finding(
                "segment",
                full,
                _cover(sentence, start, end),
                start,
                origin=role,
                named=(start, end),
            )
        )
    # "users", "clients" name nobody in particular: the people of a segment, or its customers.
    found = [f for f in found if f.label not in lex.GENERIC_SEGMENTS]
    return _share_clauses(text, found)


# A person noun said of a thing, as what the thing is: "it is a life saver", "this app is a
# real time saver", "which is my record keeper".
_SAID_OF_A_THING = re.compile(
    r"\b(?:it|this|that|which|app|application|program|software|tool|product)"
    r"(?:\s+(?:is|was|has\s+been|becomes?|became)|['’]s)\s+"
    r"(?:(?:a|an|my|our|the|such|real|really|truly|true|absolute|total|huge|great|big)\s+)+$",
    re.IGNORECASE,
)


def _inside_a_name(text: str, start: int, end: int, floor: int) -> bool:
    """A capitalised word, not opening its sentence, followed by another capitalised word
    ("Teams Rooms"), or inside a quoted title (the show "Mad Men")."""
    if not text[start : start + 1].isupper() or not text[floor:start].strip():
        return False
    if _quoted_at(text, floor, start):
        return True
    following = _WORD.match(text, end + 1) if text[end : end + 1] == " " else None
    return following is not None and following.group()[:1].isupper()


def _quoted_at(text: str, floor: int, position: int) -> bool:
    """Inside quotation marks opened since `floor` and not yet closed."""
    before = text[floor:position]
    return before.count('"') % 2 == 1 or before.count("“") > before.count("”")


def _share_clauses(text: str, found: list[Finding]) -> list[Finding]:
    """Segments named in one clause split its words: each quote reaches the next segment only.

    "small shop owners with one or two stores and a couple of part-time cashiers" is evidence
    for the owners up to "part-time cashiers", and for the cashiers from there.
    """
    for finding in found:
        own = finding.named or finding.quote
        start, end = finding.quote
        others = [
            f.named for f in found if f is not finding and f.named and start <= f.named[0] < end
        ]
        if any(other[1] <= own[0] for other in others):
            start = own[0]
        end = min([other[0] for other in others if other[0] >= own[1]], default=end)
        finding.quote = _trim(text, start, end)
    return found


def _word_before(text: str, floor: int, position: int) -> str:
    """The word right before position, lower-cased; empty across punctuation."""
    words = list(_WORD.finditer(text, floor, position))
    if not words or text[words[-1].end() : position].strip():
        return ""
    return words[-1].group().lower()


def _modifiers(
    text: str, sentence: Sentence, head_start: int, lex: ModuleType
) -> tuple[int, list[str]]:
    """Words before a head that name the segment ("small shop", "частным")."""
    words = list(_WORD.finditer(text, sentence.start, head_start))
    # "Walk users through …", "agencies, including vendors": a verb or a preposition before
    # the head is not part of the group's name (a participle such as "paying" may be).
    # Nor is an adverb, an auxiliary or a verb said of a subject ("very", "can", "allows",
    # "recommends" in "very user friendly", "I can shop", "allows users to …").
    not_names = {
        t.start
        for t in linguistic.read(text, (sentence.start, head_start)).tokens
        if t.pos in ("ADP", "ADV", "AUX")
        or (t.pos == "VERB" and (t.lemma == t.lower or t.lower.endswith("s")))
        or (
            lex is lexicon_en
            and t.lower.endswith("ing")
            and t.lower not in lexicon_en.PARTICIPLE_ADJECTIVES
            and t.pos == "VERB"
        )
    }
    modifiers: list[str] = []
    start = head_start
    cursor = head_start
    index = len(words) - 1
    while index >= 0 and len(modifiers) < lex.MAX_MODIFIERS:
        word = words[index]
        if text[word.end() : cursor].strip() or word.start() - sentence.start in not_names:
            break  # punctuation between words ends the phrase
        initial = not text[sentence.start : word.start()].strip()
        label = lex.modifier_label(word.group(), initial)
        joiner = word.group().lower() == lex.MODIFIER_JOINER
        if label is None and joiner and modifiers and index > 0:
            before = words[index - 1]
            initial = not text[sentence.start : before.start()].strip()
            joined = lex.modifier_label(before.group(), initial)
            if joined is None or text[before.end() : word.start()].strip():
                break
            modifiers[:0] = [joined, word.group().lower()]
            start = cursor = before.start()
            index -= 2
            continue
        if label is None:
            break
        modifiers.insert(0, label)
        start = cursor = word.start()
        index -= 1
    return start, modifiers


def _pains(
    text: str,
    sentence: Sentence,
    goal_spans: list[Span],
    alternatives: list[Finding],
    competitors: list[Finding],
) -> list[Finding]:
    """At most one pain per clause, taking the cue whose wording makes the best label.

    Not a pain of the segment: a rival's drawback ("switched from Onfleet because the pricing
    kept going up"), and work by hand that the clause only measures or says how it is done
    ("re-planning a route by hand takes 15 minutes", "отправляют вручную в WhatsApp")."""
    lex = sentence.lex
    found: list[Finding] = []
    english = lex.LANG == "en"
    if linguistic.asks_the_reader(text, (sentence.start, sentence.end)):
        return found
    if not english and report_ru.asks_the_maintainers(text[sentence.start : sentence.end]):
        return found  # «Пожалуйста, исправьте это», «Можно ли добавить …?»: a request
    if not english and lex.HOW_TO_JOB.match(text, sentence.start, sentence.end):
        return found  # «Как убрать подчёркивание ошибок?»: a way asked for, no fault told
    for clause in sentence.clauses:
        if linguistic.hard_to_say(text, clause):
            continue
        if english and linguistic.suggested(text, clause):
            continue  # "why not try to let people know …?": a suggestion, not a fault
        if not english and report_ru.tells_reproduction(text[clause[0] : clause[1]]):
            continue  # «воспроизводится на двух компьютерах»: where, not what goes wrong
        if not english and report_ru.tells_nothing_logged(text[clause[0] : clause[1]]):
            continue  # «Журнал ошибок ничего не выводит»: no error written, none told
        if english and _REPRODUCED_EN.search(text, *clause):
            continue  # "can't reproduce it now", "reproduces in safe mode": whether, not what
        if _ANOTHER_TICKET.match(text, clause[0]) or _A_CODE_TASK.match(text, clause[0]):
            continue  # "Bug 1602463 added a new agent", "Port shell changes …": work, no fault
        if _A_CODE_TASK_RU.search(text, *clause):
            continue  # «Портировать изменения из бага 123»: work on the code, no fault
        if english and _CODE_WORK_TO_DO.search(text, *clause):
            continue  # "the old parser needs to be removed": work still to do, no fault one sees
        if linguistic.tells_a_workaround(text, clause):
            continue  # "reopening it elsewhere eliminates the problem": the way round, no fault
        if linguistic.negates_the_setup(text[clause[0] : clause[1]]):
            continue  # "Antivirus is not installed", «прокси не используется»: the setup
        if not english and report_ru.about_the_report(text[clause[0] : clause[1]]):
            continue  # «Прикладываю скриншот ошибки»: the report's own business
        if not english and report_ru.states_a_task(text[clause[0] : clause[1]]):
            continue  # «Также заменить устаревший модуль»: work to do, no fault
        if not english and (
            report_ru.in_the_subjunctive(text[clause[0] : clause[1]])
            or report_ru.after_so_that(text, (sentence.start, sentence.end), clause)
        ):
            continue  # «Правильно было бы не показывать это окно», «…, чтобы оно не …»
        cue = _pain_in_clause(text, clause, lex)
        if cue is not None and not english:
            cue = report_ru.symptom_before_consequence(text, clause, cue)
        if cue is not None and linguistic.denies_a_problem(text, cue[0], clause):
            cue = None  # "nothing happens, no errors in the log": the grammar finds which
        if cue is not None and linguistic.not_a_pain(
            text, clause, (sentence.start, sentence.end), english
        ):
            continue  # negated, hypothetical or praise: the pattern's words, not a problem
        if cue is None:
            grammar = linguistic.pain_span(text, clause) or linguistic.against_expectation(
                text, clause, (sentence.start, sentence.end)
            )
            if grammar is None:
                continue
            cue = grammar, False
        span, manual = cue
        if any(g[0] <= span[0] < g[1] for g in goal_spans):
            continue
        if not english and report_ru.tells_how_it_was_before(text, clause, span[0]):
            continue  # «в прошлой версии окно не закрывалось»: before the fault
        # an English clause may run on past its problem without a comma ("it used to crash
        # but now it runs fine"): what is said after the problem's own words counts
        told = (clause[0], span[1]) if english else clause
        if linguistic.resolved_later(text, told, (sentence.start, sentence.end)):
            continue  # «раньше не открывался, но теперь всё работает»: over
        if english and linguistic.outgrown(text, span, (sentence.start, sentence.end)):
            continue  # "didn't like it at first, but now …": a first impression, gone
        if any(
            c.at < span[0] and lex.DRAWBACK_LINK.search(text, c.at, span[0]) for c in competitors
        ):
            continue
        if manual and (
            lex.METRIC_NUMBER.search(text, *clause) is not None
            or any(clause[0] <= a.at < clause[1] for a in alternatives)
            or _ORDERED.match(text, clause[0])
            or _OFFERED.match(text, clause[0])
        ):
            continue  # "Try it by hand", "You can update it manually": the reader's to do
        phrase, label = _pain_label(text, span, clause, sentence)
        lone = english and len(label.split()) == 1  # "it makes my phone lag": a word alone
        if label and (linguistic.fragment_reason(label) or lone):
            # the pattern's words cut the clause mid-phrase ("… doesn't work at all"): the
            # grammar's reading of the same clause may still make a whole statement
            grammar = linguistic.pain_span(text, clause)
            if grammar is not None and grammar != span:
                other_phrase, other = _pain_label(text, grammar, clause, sentence)
                if other and not linguistic.fragment_reason(other):
                    phrase, label = other_phrase, other
        if label and linguistic.names_only_an_area(label) and _defined(text, phrase):
            continue  # a rating scale's term ("Minor issue: fix when there is time")
        if label and english and linguistic.names_a_record_of_problems(label):
            continue  # "Crash Logs": a heading or a tool, no problem that happens
        if label:
            found.append(Finding("pain", label, clause, phrase[0]))
    return found


_THE_BEFORE = re.compile(r"(?<![\w-])the\s+$", re.IGNORECASE)


def _points_onward(text: str, finding: Finding) -> bool:
    """ "the following changeset", «следующий файл»: a pointer to words after it. A bare
    "following" may be a function (following people), so English needs its "the"."""
    label = finding.label.lower()
    if label.startswith("следующ"):
        return True
    start = max(0, finding.at - 6)
    return label.startswith("following") and _THE_BEFORE.search(text, start, finding.at) is not None


_REPRODUCED_EN = re.compile(r"(?<![\w-])(?:reproduc\w*|repro)(?![\w-])", re.IGNORECASE)
# A clause that opens on another ticket by its number: "Bug 1602463 …", "Issue #12 …", «Баг 123».
_ANOTHER_TICKET = re.compile(
    r"(?:(?:in\s+|в\s+)?(?:port\s+)?(?:bug|issue|ticket|баг\w*|задач\w*|тикет\w*)\s*#?\d+"
    r"|#\d+)(?![\w-])",
    re.IGNORECASE,
)


# A clause that opens on a maintainer's verb for work on the code: a task, not a fault one sees
# ("Port shell changes …", "We need to port the new flag", "This patch backports …"); the
# ticket telling its own history ("This bug was initially created as a clone of …", "This bug
# will track the changes").
_A_CODE_TASK = re.compile(
    r"(?:\+\+\+\s*)?(?:this\s+(?:patch\s+|change\s+|changeset\s+)?(?:ports|backports|refactors|"
    r"bumps|uplifts)\s|(?:we\s+(?:(?:need|have|ought)\s+to|should|must)\s+)?"
    r"(?:port|backport|refactor|bump|uplift)\s+(?!is\b|are\b|was\b)"
    r"|this\s+(?:bug|issue|ticket)\s+(?:was\s+(?:initially\s+|originally\s+)?(?:created|filed|"
    r"cloned|opened|split)|will\s+(?:track|cover|be\s+used)))",
    re.IGNORECASE,
)


# A ticket's task, named by its verb: "Fix the account manager in the prefs pane", "Rename the
# build flags", "Stop using the old keys", "Add missing headers to the build".
_A_TASK = re.compile(
    r"\W*(?:(?P<fix>fix|correct)|rename|stop\s+using|clean\s+up|add\s+(?:the\s+)?missing)\s+"
    r"(?!is\b|are\b|was\b|it\b|this\b|that\b)",
    re.IGNORECASE,
)


def _names_a_task(text: str, pain: Finding) -> bool:
    """A ticket's statement that opens on the verb of a task on the code and names no fault,
    only the part to work on: the task's name. "Fix the crash on save" names one."""
    task = _A_TASK.match(text, pain.quote[0], pain.quote[1])
    if task is None:
        return False
    if not task["fix"]:
        return True
    problems = linguistic.PROBLEM_LEMMAS
    rest = analyse(text[task.end() : pain.quote[1]])
    return not any(t.lemma in problems or t.lower in problems for t in rest)


_USE = r"(?:use[sd]?|using|использу\w*|пользу\w*)"
_A_TOOL_USED = re.compile(rf"{_USE}\s", re.IGNORECASE)
# the later names of a list the use cue opens: "use Jira, Confluence and Slack"
_IN_A_LIST_USED = re.compile(
    rf"(?<![\w-]){_USE}\s+(?:[\w.+-]+(?:\s+[\w.+-]+)?\s*(?:,|\band\b|\bor\b|&|и)\s*)+$",
    re.IGNORECASE,
)


_AN_EXAMPLE = re.compile(r"(?:like|such\s+as|e\.g\.|including)\s", re.IGNORECASE)


_ABLE_AFTER = re.compile(
    r"\s+(?:(?:already|уже)\s+)?(?:can|provides|offers|supports|allows|lets|умеет|позволяет"
    r"|поддерживает|предлагает)(?![\w-])",
    re.IGNORECASE,
)


def _a_tool_used(text: str, competitor: Finding) -> bool:
    start = competitor.quote[0]
    return bool(
        _A_TOOL_USED.match(text, start) or _IN_A_LIST_USED.search(text, max(0, start - 120), start)
    )


# "Clearing the cache does not help", "turning off the plugins did not change anything",
# «Переустановка не помогла», «очистка кэша ничего не изменила»
# A clause that opens on an order: "Try it manually", «Попробуйте вручную».
_ORDERED = re.compile(
    r"\W*(?:try|do|check|test|repeat|run|попробуйте|попробовать|сделайте|проверьте|проверить)"
    r"(?![\w-])",
    re.IGNORECASE,
)
# A clause that offers the reader a way: "You can update it manually", «Вы можете …».
_OFFERED = re.compile(
    r"\W*(?:you\s+(?:can|may|could)|(?<![\w-])вы\s+(?:можете|могли\s+бы))(?![\w-])",
    re.IGNORECASE,
)
_TRIED_REMEDY = re.compile(
    r"\b(?:does\s+not|doesn't|did\s+not|didn't|won't|will\s+not)\s+(?:help|change\s+(?:anything|"
    r"the\s+behaviou?r|a\s+thing)|make\s+(?:any\s+|a\s+)?difference)\b"
    r"|(?<![\w-])не\s+(?:помога\w*|помог\w*|изменил\w*|меняет)(?![\w-])"
    r"|(?<![\w-])ничего\s+не\s+(?:да[её]т|дал[оа]?|изменил\w*)(?![\w-])",
    re.IGNORECASE,
)
# "so that I can …", "in order to …", «чтобы я мог …», «для того чтобы …»: the writer's own
# aim, right before the job it opens; a bare «чтобы» or "to" is what a step is for
_WRITERS_AIM = re.compile(
    r"(?:so\s+that\s+(?:I|we)\s+(?:can|could|will)|in\s+order\s+to"
    r"|(?<![\w-])для\s+того,?\s+чтобы|(?<![\w-])чтобы\s+(?:я|мы)(?:\s+мог\w*)?)\s+$",
    re.IGNORECASE,
)


def _the_writers_aim(text: str, job: Finding) -> bool:
    """A ticket's job: what its writer asks how to do («Как вернуть старую панель?») or says
    they were after."""
    if job.origin == "asked":
        return True
    return job.origin == "aim" and bool(_WRITERS_AIM.search(text, max(0, job.at - 40), job.at))


_A_CODE_TASK_RU = re.compile(r"(?<![\w-])(?:портир|бэкпорт)\w*", re.IGNORECASE)
# Work still to do on the code: "the old parser needs to be removed" (not "needs to be fixed", which
# tells a fault)
_CODE_WORK_TO_DO = re.compile(
    r"\bneeds?\s+to\s+be\s+(?:removed|changed|updated|ported|adapted|rewritten|renamed|"
    r"migrated|converted|replaced)\b",
    re.IGNORECASE,
)


def _pain_label(text: str, span: Span, clause: Span, sentence: Sentence) -> tuple[Span, str]:
    """The words of a pain cut to a statement, and its label."""
    lex = sentence.lex
    opening = _WHEN_CLAUSE.match(text, span[0], span[1]) if lex.LANG == "en" else None
    if opening is not None and len(text[opening.end() : span[1]].split()) > 1:
        span = (opening.end(), span[1])  # "When I press F5, nothing happens": what happens
    # "instead of the page, it shows markup": the comma is inside the statement
    cutter = None if linguistic.holds_its_comma(text, span) else lex.PAIN_CUTTER
    if cutter is not None and lex.LANG == "en" and linguistic.good_until(text, clause):
        cutter = lex.PAIN_CUTTER_KEEPING_UNTIL  # "worked fine until the update"
    phrase = _phrase(text, *span, lex, cutter, lex.PAIN_MAX_WORDS, clause_first=True)
    if lex.LANG == "en" and cutter is not None and len(text[phrase[0] : phrase[1]].split()) < 2:
        phrase = _past_a_lone_word(text, span, lex, cutter) or phrase
    phrase = _with_negator(text, linguistic.without_courtesy(text, phrase), clause[0])
    phrase = linguistic.with_preposition(text, phrase, clause)
    phrase = _whole_quote(text, phrase, clause)
    phrase = _with_the_message_said(text, phrase, clause)
    phrase = _with_pronoun_subject(text, phrase, clause[0])
    phrase = _with_antecedent(text, phrase, sentence, lex)
    if lex is lexicon_ru:
        phrase = _past_a_cut_preposition(text, phrase, clause[0])
        phrase = _with_what_it_qualifies(text, phrase, clause, lex)
        phrase = _with_what_came_instead(text, phrase, clause, lex)
    if text[phrase[1] : phrase[1] + 1] == "%" and text[phrase[1] - 1 : phrase[1]].isdigit():
        phrase = (phrase[0], phrase[1] + 1)  # "на 100%": the sign is the number's own
    dangling = _OPENS_A_CLAUSE_AFTER.search(text, phrase[0], phrase[1])
    if dangling is None and _CLAUSE_IT_POINTS_TO.match(text, phrase[1]):
        dangling = _POINTING_END.search(text, phrase[0], phrase[1])
    if dangling is not None and len(text[phrase[0] : dangling.start()].split()) > 1:
        phrase = (phrase[0], dangling.start())
    return phrase, _label(text, phrase, sentence)


# «окно зависает вместо того[, чтобы открыться]»: the words that open the clause after the
# comma, left at the end of a label the comma cut
_OPENS_A_CLAUSE_AFTER = re.compile(
    r"\s+(?:вместо|для|после|до|из-за|перед|кроме)\s+того\s*$", re.IGNORECASE
)
# «подчёркивает ошибки там[, где их нет]»: a pointing word whose clause the comma cut off
_POINTING_END = re.compile(r"\s+(?:там|тогда|туда|оттуда|так)\s*$", re.IGNORECASE)
_CLAUSE_IT_POINTS_TO = re.compile(
    r"\s*,\s*(?:где|когда|куда|откуда|что|как|чтобы)(?![\w-])", re.IGNORECASE
)


# A clause of when or on what condition, set off by its comma, before the statement.
_WHEN_CLAUSE = re.compile(
    r"\s*(?:when|whenever|if|once|after|as\s+soon\s+as)\s[^,;:.!?]{1,80},\s*", re.IGNORECASE
)


_RELATIVE_OPENING = re.compile(r"(?:котор\w+|which|who)(?![\w-])", re.IGNORECASE)
_COMMA_BEFORE = re.compile(r",\s*$")


def _with_antecedent(text: str, phrase: Span, sentence: Sentence, lex: ModuleType) -> Span:
    """«…серая полоса, которая закрывает кнопки»: a label that opens on a relative
    pronoun takes in the noun phrase it stands for."""
    if not _RELATIVE_OPENING.match(text, phrase[0], phrase[1]):
        return phrase
    comma = _COMMA_BEFORE.search(text, sentence.start, phrase[0])
    if comma is None:
        return phrase
    start = _words_before(text, comma.start(), sentence.start, lex, 3)
    return (start, phrase[1]) if start < comma.start() else phrase


_DENIED_WORD = re.compile(r"(?<![\w-])не\s+(\w+)", re.IGNORECASE)
_INSTEAD_AFTER = re.compile(r",\s+а\s+(?!не(?![\w-]))[^,.;:!?]+", re.IGNORECASE)


def _with_what_came_instead(text: str, phrase: Span, clause: Span, lex: ModuleType) -> Span:
    """«выделяется не слово[, а вся строка]»: a label that denies what was meant (a thing or
    a place, not a verb) takes in what happened instead, told after «, а», when it fits."""
    denied = list(_DENIED_WORD.finditer(text, phrase[0], phrase[1]))
    if not denied or analyse(denied[-1].group(1))[0].pos == "VERB":
        return phrase  # «не работает, а …»: a denied verb ends its own statement
    instead = _INSTEAD_AFTER.match(text, phrase[1], clause[1] + 1)
    if instead is None:
        return phrase
    end = _trim(text, instead.start(), instead.end())[1]
    if len(text[phrase[0] : end].split()) > lex.PAIN_MAX_WORDS:
        return phrase
    return phrase[0], end


def _with_what_it_qualifies(text: str, phrase: Span, clause: Span, lex: ModuleType) -> Span:
    """«[символы появляются] с задержкой», «[файл открывается] около минуты»: a Russian label
    that is only a circumstance, a preposition and its noun with no verb, takes in the clause
    it qualifies, when that fits in a label."""
    tokens = analyse(text[phrase[0] : phrase[1]])
    if not tokens or tokens[0].pos != "ADP" or any(t.pos == "VERB" for t in tokens):
        return phrase
    start = _trim(text, clause[0], phrase[0])[0]
    if start >= phrase[0] or len(text[start : phrase[1]].split()) > lex.PAIN_MAX_WORDS:
        return phrase
    if not any(_tells_what_happens(t) for t in analyse(text[start : phrase[0]])):
        return phrase  # «потом скопировать … в письмо»: steps to take, not what happens
    return start, phrase[1]


def _tells_what_happens(token: Token) -> bool:
    """A finite verb: «появляются», not the infinitive of a step to take («скопировать»)."""
    return token.pos == "VERB" and "INFN" not in grammemes(token.text)


def _past_a_cut_preposition(text: str, phrase: Span, floor: int) -> Span:
    """«[после обновления] до версии 1.60 терминал не открывается»: a label that starts on the
    tail of a phrase cut before it starts past that tail (a preposition, its noun and any
    number), so it opens on the statement, not on a piece of its circumstances."""
    if phrase[0] <= floor or not text[floor : phrase[0]].strip():
        return phrase  # the clause's own start: a whole phrase
    if not text[: phrase[0]].rstrip()[-1:].isalpha():
        return phrase  # after a comma or a quote: nothing was cut
    tokens = analyse(text[phrase[0] : phrase[1]])
    if len(tokens) < 4 or tokens[0].pos != "ADP" or tokens[1].pos != "NOUN":
        return phrase
    k = 2
    while k < len(tokens) and tokens[k].pos in ("NUM", "X"):
        k += 1
    rest = tokens[k:]
    if not any(t.pos == "VERB" for t in rest):
        return phrase  # the statement would lose its verb
    return (phrase[0] + tokens[k].start, phrase[1])


def _past_a_lone_word(
    text: str, span: Span, lex: ModuleType, cutter: re.Pattern[str]
) -> Span | None:
    """A cut that left one word: after a comma or "but" the problem is told after the cut
    ("… on my tablet, almost unreadable", "… all the time but was horrified"); after a time
    ("stops after ten seconds") the word needs its adjunct to say anything."""
    cuts = [m for m in cutter.finditer(text, *span) if m.start() > span[0]]
    if not cuts:
        return None
    if cuts[0].group().strip().lower() in (",", "but"):
        if len(text[cuts[0].end() : span[1]].split()) < 2:
            return None
        return _phrase(text, cuts[0].end(), span[1], lex, cutter, lex.PAIN_MAX_WORDS)
    end = cuts[1].start() if len(cuts) > 1 else span[1]
    return _phrase(text, span[0], end, lex, None, lex.PAIN_MAX_WORDS)


_BE = frozenset(("is", "are", "was", "were", "'s"))
# Predicates a pain may open on besides "be": "it has lots of pop-ups", "it used to sync".
_PREDICATE_OPENERS = _BE | frozenset(("has", "have", "had", "used", "keeps", "kept", "been"))
# "its" before "been" is "it's" typed without its apostrophe ("its been glitching all week")
_PRONOUN_SUBJECTS = frozenset(("it", "this", "that", "they", "he", "she", "there", "its"))


def _with_pronoun_subject(text: str, phrase: Span, floor: int) -> Span:
    """ "it is a very bad update", not "is a very bad update"; "it has lots of pop-ups": a
    predicate keeps the pronoun it is said of, or it reads as a fragment."""
    first = _TOKEN.match(text, phrase[0])
    before = list(_TOKEN.finditer(text, floor, phrase[0]))
    if first is None or first.group().lower() not in _PREDICATE_OPENERS or not before:
        return phrase
    if before[-1].group().lower() in _PRONOUN_SUBJECTS:
        return before[-1].start(), phrase[1]
    return phrase


_SHORT_QUOTE = 8  # words: a message or a name, not a passage
_CLOSED_AFTER_STOP = re.compile(r"[.!?…]*[\"”»]")


def _whole_quote(text: str, phrase: Span, clause: Span) -> Span:
    """A label never holds half a quotation: one that ends inside the quote takes it to its
    close, one that starts inside it takes the word the quote names ('error "Access denied"
    when saving', not 'denied" when saving')."""
    start, end = phrase
    # a message that ends its sentence closes after the stop: 'says "Upload failed."'
    closing = _CLOSED_AFTER_STOP.match(text, clause[1])
    stop = closing.end() if closing else clause[1]
    for opened in _QUOTED.finditer(text, clause[0], stop):
        quote_start, quote_end = opened.span()
        if not (start < quote_end and quote_start < end) or (
            start < quote_start and quote_end <= end
        ):
            continue  # apart from the quote, or holding all of it
        if start > quote_start and end < quote_end and len(opened.group().split()) > _SHORT_QUOTE:
            continue  # told inside a passage it quotes: the passage is no label
        if start >= quote_start:
            # «сообщение "Не получается открыть файл"»: the label takes the word the quote names
            before = list(_TOKEN.finditer(text, clause[0], quote_start))
            start = before[-1].start() if before else quote_start
        end = max(end, quote_end)
    return start, end


# A verb that says a message joined to a label's statement at its end: «не запускается и
# пишет», "fails and says" (alone, «ничего не показывает» is the statement itself).
_SAYS_AT_END = re.compile(
    r"\s+(?:и|а|and)\s+(?:пишет|выда[её]т|показывает|сообщает|говорит|ругается|says|shows"
    r"|reports|displays|prints|throws)\s*:?\s*$",
    re.IGNORECASE,
)
_MESSAGE_AFTER = re.compile(r"\s*:?\s*(?:\"[^\"\n]{1,80}\"|«[^»\n]{1,80}»|“[^”\n]{1,80}”)")


def _with_the_message_said(text: str, phrase: Span, clause: Span) -> Span:
    """A label that ends on a verb of saying takes the message said right after it, in
    quotes: «отладчик не запускается и пишет "Cannot find module"»; with no message there,
    the verb is left out, not left hanging («… не запускается»)."""
    says = _SAYS_AT_END.search(text, phrase[0], phrase[1])
    if says is None:
        return phrase
    message = _MESSAGE_AFTER.match(text, phrase[1], clause[1] + 1)
    if message is not None:
        return phrase[0], message.end()
    if len(text[phrase[0] : says.start()].split()) >= 2:
        return phrase[0], says.start()
    return phrase


def _defined(text: str, phrase: Span) -> bool:
    """The phrase is a term a colon goes on to explain, as in a legend or a glossary."""
    return text[phrase[1] : phrase[1] + 3].lstrip(" *_").startswith(":")


def _with_negator(text: str, phrase: Span, floor: int) -> Span:
    """A pain's words keep the negation right before them: «не могу», "can't", and one a
    degree adverb stands after: "doesn't even launch"."""
    before = list(_TOKEN.finditer(text, floor, phrase[0]))
    words = [b.group().lower().strip(_EDGE_PUNCTUATION) for b in before]
    at = len(words) - 1
    if at > 0 and words[at] in _NEGATED_DEGREE and words[at - 1].isascii():
        at -= 1
    word = words[at] if at >= 0 else ""
    if word in linguistic.NEGATORS or word.endswith(("n't", "n’t")):  # "didn't like"
        return before[at].start(), phrase[1]
    return phrase


# Adverbs that stand between a negation and its verb: "won't even open", "doesn't really work".
_NEGATED_DEGREE = frozenset(("even", "really", "always", "ever", "actually", "quite"))


def _pain_in_clause(text: str, clause: Span, lex: ModuleType) -> tuple[Span, bool] | None:
    """The pain's words in a clause, and whether only "by hand" said it is one."""
    start, end = clause
    complement = lex.PAIN_COMPLEMENT.search(text, start, end)
    if (
        complement is not None
        and lex.LANG == "en"
        and complement.group().lower().startswith("complain")
        and linguistic.said_by_a_thing(text, start, complement.start())
    ):
        subject = _words_before(text, complement.start(), start, lex, lex.SUBJECT_MAX_WORDS)
        return (subject, end), False  # "the compiler complains about …": the tool's error
    if complement is not None and len(text[complement.end() : end].split()) > 1:
        return (complement.end(), end), False  # "hate it": the thing is named before the cue
    spans: list[Span] = []
    predicate = lex.PAIN_PREDICATE.search(text, start, end)
    if predicate is not None:
        subject = _words_before(text, predicate.start(), start, lex, lex.SUBJECT_MAX_WORDS)
        spans.append((subject, end))
    verbal = lex.PAIN_VERBAL.search(text, start, end)
    if verbal is not None:
        spans.append((verbal.start(), end))
    if spans:
        # the earlier wording carries the clause ("loses the route when …")
        return min(spans), False
    manual = lex.PAIN_MANUAL.search(text, start, end)
    if manual is not None:
        subject = _words_before(text, manual.start(), start, lex, lex.SUBJECT_MAX_WORDS)
        if subject < manual.start():
            return (subject, manual.end()), True
    noun = lex.PAIN_NOUN.search(text, start, end)
    if noun is not None:
        return (noun.start(), linguistic.noun_phrase_end(text, noun.end(), end)), False
    return None


_INSTEAD_OF_IT = re.compile(
    r"(?:вместо\s+(?:него|нее|неё|них|этого|этой|этих)|instead\s+of\s+(?:it|that|this|them))"
    r"(?![\w-])",
    re.IGNORECASE,
)


def _restated(text: str, sentence: Sentence, pain: Finding, earlier: list[Finding]) -> bool:
    """A pain told again about someone or something just named: "Owners hate counting stock by
    hand; one of them said it eats her whole evening", "Couriers say the app lags on weak
    internet. He loses the route every time the signal drops". The first wording stands."""
    if not earlier:
        return False
    lex = sentence.lex
    pronoun = _word_before(text, sentence.start, pain.at)
    if pronoun in lex.THING_PRONOUNS or _INSTEAD_OF_IT.match(pain.label):
        return True  # «вместо неё показывается …»: what replaces a thing already told of
    words = {w.lower() for w in pain.label.split()}
    if words & (lex.PERSON_PRONOUNS | lex.THING_PRONOUNS) and any(
        content_lemmas(pain.label) & content_lemmas(other.label) for other in earlier
    ):
        return True  # "the button fails … It still does not work": the same thing again
    if pronoun not in lex.PERSON_PRONOUNS:
        return False
    said = concepts(pain.label) & _NAMED_CONCEPTS
    return any(said & concepts(other.label) for other in earlier)


def _jobs(text: str, sentence: Sentence, wished: list[int]) -> list[Finding]:
    """`wished`: where the sentence's requests start. «хотелось бы, чтобы я мог закреплять
    вкладки», "I wish I could pin tabs": what a wish asks for is a feature, not a job."""
    lex = sentence.lex
    found: list[Finding] = []
    for pattern in lex.JOB_PATTERNS:
        for match in pattern.finditer(text, sentence.start, sentence.end):
            if lex.JOB_EXCLUDED_BEFORE.search(text, sentence.start, match.start()):
                continue  # "we want to", "нам нужно": the team's plan, not the customer's job
            if lex is lexicon_en and _no_attempt_of_theirs(text, sentence.start, match.start()):
                continue
            if any(cue <= match.start() for cue in wished):
                continue  # (the wish may open on the job's own cue: «Хотелось бы иметь …»)
            first_verb = match["j"].split()[0].lower()
            if first_verb in lex.JOB_EXCLUDED_VERBS:
                continue
            end = _clause_end(sentence, match.start("j"))
            clause = next((c for c in sentence.clauses if c[0] <= match.start() < c[1]), None)
            if (
                lex is lexicon_ru
                and clause is not None
                and report_ru.tells_what_should_happen(text, clause, match.start())
            ):
                continue  # «терминал должен открываться»: how a thing ought to behave
            phrase = _phrase(text, match.start("j"), end, lex, lex.JOB_CUTTER, lex.JOB_MAX_WORDS)
            label = _label(text, phrase, sentence)
            if label:
                quote = _cover(sentence, match.start(), phrase[1])
                found.append(Finding("job", label, quote, match.start()))
    if lex is lexicon_ru:
        found += _how_to(text, sentence)
    for cue, clause in linguistic.purpose_spans(text, (sentence.start, sentence.end)):
        label = _label(text, clause, sentence)
        if any(c < cue for c in wished):
            continue
        if label and not any(label in f.label or f.label in label for f in found):
            quote = _cover(sentence, cue, clause[1])
            found.append(Finding("job", label, quote, clause[0], origin="aim"))
    return found


def _no_attempt_of_theirs(text: str, floor: int, at: int) -> bool:
    """An attempt ordered ("Try to sort the list", a step) or denied ("I have not tried to
    reinstall it"): no goal the writer has."""
    cue = lexicon_en.JOB_ATTEMPT.match(text, at)
    if cue is None:
        return False
    ordered = at == floor and cue.group().lower() in ("try", "attempt")
    return ordered or lexicon_en.JOB_DENIED_BEFORE.search(text, floor, at) is not None


def _how_to(text: str, sentence: Sentence) -> list[Finding]:
    """«Как вернуть старую панель?» at a sentence's start: what the writer is trying to do."""
    lex = sentence.lex
    match = lex.HOW_TO_JOB.match(text, sentence.start, sentence.end)
    if match is None or _WORD.match(match["j"])[0].lower() in lex.HOW_TO_EXCLUDED_VERBS:
        return []
    end = _clause_end(sentence, match.start("j"))
    phrase = _phrase(text, match.start("j"), end, lex, lex.JOB_CUTTER, lex.JOB_MAX_WORDS)
    label = _label(text, phrase, sentence)
    if not label:
        return []
    quote = _cover(sentence, match.start(), phrase[1])
    return [Finding("job", label, quote, match.start("j"), origin="asked")]


def _triggers(text: str, sentence: Sentence) -> list[Finding]:
    lex = sentence.lex
    # Matched on the sentence alone: the patterns anchor at its start ("When …, they …").
    own = text[sentence.start : sentence.end]
    offset = sentence.start
    for pattern in lex.TRIGGER_PATTERNS:
        match = pattern.search(own)
        if match is None:
            continue
        main = (match.start("main") + offset, match.end("main") + offset)
        if main[1] > main[0] and not lex.TRIGGER_MAIN_CUE.search(text, *main):
            continue  # "when ..." without anyone starting to look is just a condition
        trigger = (match.start("t") + offset, match.end("t") + offset)
        phrase = _phrase(text, *trigger, lex, lex.TRIGGER_CUTTER, 10)
        label = _label(text, phrase, sentence)
        if label:
            quote = (sentence.start, sentence.end)
            focus = main if main[1] > main[0] else None
            return [Finding("trigger", label, quote, trigger[0], focus=focus)]
    return []


def _alternatives(text: str, sentence: Sentence, own: set[str]) -> list[Finding]:
    lex = sentence.lex
    has_cue = lex.USAGE_CUE.search(text, sentence.start, sentence.end) is not None
    taken: list[Span] = []
    found: list[Finding] = []
    for pattern, label, needs_cue in lex.ALTERNATIVES:
        if needs_cue and not has_cue:
            continue
        for match in pattern.finditer(text, sentence.start, sentence.end):
            if any(s < match.end() and match.start() < e for s, e in taken):
                continue  # "Google Таблицы" already covers "таблицы"
            if (
                lex is lexicon_ru
                and label in lex.PART_NOUNS
                and lex.names_a_part(text, match.end())
            ):
                continue  # «таблица переменных», «блокнот Jupyter»: a part of something named
            taken.append(match.span())
            name = label or " ".join(match.group().lower().split())
            name = re.sub(r"^(?:on|pen and)\s+", "", name)
            if _name_key(name) in own:
                continue  # "WhatsApp calls drop" in WhatsApp's own reviews: the product itself
            quote = _alternative_quote(text, sentence, match.span(), lex)
            # a tool by its own name, or paper as a medium (not "a paper" one writes)
            tool = not needs_cue and (name[:1].isupper() or _paper_as_a_medium(text, match))
            lead = text[max(sentence.start, match.start() - 6) : match.start()].split()[-1:]
            tool = tool and not (lead and lead[0].lower() in _INTEGRATION_LEADS)
            found.append(
                Finding(
                    "alternative",
                    name,
                    quote,
                    match.start(),
                    named=match.span(),
                    origin="tool" if tool else "",
                )
            )
    for cue, span in linguistic.workaround_spans(text, (sentence.start, sentence.end)):
        if any(s < span[1] and span[0] < e for s, e in taken):
            continue
        span = _whole_quote(text, span, (sentence.start, sentence.end))
        label = _label(text, span, sentence)
        quote = (cue, span[1])
        found.append(Finding("alternative", label, quote, span[0], named=span, origin="workaround"))
    return found


_ONE_THING = frozenset(("a", "an", "the", "this", "that", "my", "your", "his", "her", "our"))
# "export to Excel", "syncs with Sheets", "import from Excel": the product works with the
# other tool, a function of its own.
_INTEGRATION_LEADS = frozenset(("to", "into", "with", "from"))


def _paper_as_a_medium(text: str, match: re.Match[str]) -> bool:
    """ "on paper", "paper forms": paper that work is done on, not "a paper" someone writes.
    A common noun a product may have a part of its own for ("notebooks") is no tool."""
    words = match.group().lower().split()
    if "paper" not in words:
        return False
    before = text[max(0, match.start() - 5) : match.start()].lower().split()
    return len(words) > 1 or not (before and before[-1] in _ONE_THING)


def _alternative_quote(text: str, sentence: Sentence, span: Span, lex: ModuleType) -> Span:
    """The tool's own words: its name, the verb or preposition that puts it to use ("use Excel",
    "в WhatsApp") and a word that says what it comes in ("WhatsApp groups"). A whole clause
    would be evidence for every tool it lists."""
    start, end = span
    after = re.match(r"[\s-]+([^\W\d_]+)", text[end : sentence.end])
    if after is not None and after.group(1).lower() in lex.ALTERNATIVE_CONTAINERS:
        end += after.end()
    before = list(_WORD.finditer(text, sentence.start, start))
    if before and not text[before[-1].end() : start].strip():
        word = before[-1].group()
        if word.lower() in lex.ALTERNATIVE_LEADS or lex.USAGE_CUE.fullmatch(word):
            start = before[-1].start()
    return start, end


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
    if linguistic.names_a_platform(name) or linguistic.names_a_device(name):
        return False  # "I use Windows 11", "switched from my Galaxy S5": where it runs, no rival
    if linguistic.names_a_language(name):
        return False  # "works fine in German": the locale, no rival
    if " " not in name and name.isupper() and len(name) > 3 and is_english_word(name):
        return False  # "pay for PREMIUM": a word shouted, not a name
    glued = _GLUED.match(name)
    if glued is not None and is_english_word(glued.group(1)):
        return False  # "capabilitiesEverEPub": words run together, not a name ("eBay" is one)
    # Spreadsheets, paper and messengers are workarounds, not competitors.
    return not any(pattern.search(name) for pattern, _, _ in lex.ALTERNATIVES)


def _features(
    text: str,
    sentence: Sentence,
    requests: list[tuple[int, Span]],
    competitors: list[Finding],
    planned_spans: list[Span],
    alternatives: list[Finding],
    *,
    mentions: bool = True,
) -> list[Finding]:
    lex = sentence.lex
    found: list[Finding] = []
    candidates: list[tuple[int, int, str]] = []
    for pattern in lex.FEATURE_PATTERNS:
        for match in pattern.finditer(text, sentence.start, sentence.end):
            if lex.FEATURE_EXCLUDED_BEFORE.search(text, sentence.start, match.start()):
                continue
            candidates.append((match.start(), match.start("f"), "planned"))
    whole = (sentence.start, sentence.end)
    phrases: list[tuple[int, Span, str]] = [(cue, phrase, "planned") for cue, phrase in requests]
    if lex.LANG == "en":
        phrases += [(c, p, "planned") for c, p in linguistic.advice_spans(text, whole)]
    instruction = linguistic.recommended_statement(text, whole)
    if instruction is not None and not phrases:
        label_at, statement = instruction
        label = _label(text, statement, sentence)
        if label:
            # quoted from the "Recommendation:" label on: the quote shows it is recommended
            quote = (label_at, statement[1])
            found.append(Finding("feature", label, quote, statement[0], origin="planned"))
    purposes = linguistic.purpose_spans(text, whole)
    parts: list[Span] = []
    if mentions and lex.LANG == "en" and sentence.in_message_language:
        parts += [
            span
            for clause in sentence.clauses
            for span in linguistic.problem_part_spans(text, clause, lex.SOFTWARE_PARTS)
            if not _names_people(text[span[0] : span[1]], lex)
        ]
        parts += [
            span
            for span in linguistic.part_noun_spans(text, whole, lex.SOFTWARE_PARTS)
            if not _people_reporting(text[span[0] : span[1]], lex)
        ]
        parts += [
            span
            for span in linguistic.list_item_spans(text, whole)
            if not _names_people(text[span[0] : span[1]], lex)
        ]
        phrases += [
            (c, p, "mentioned")
            for c, p in [
                *linguistic.capability_spans(text, whole),
                *[
                    (c, p)
                    for c, p in linguistic.use_spans(text, whole)
                    if not _names_people(text[p[0] : p[1]], lex)  # "great for teachers"
                ],
                *linguistic.verb_phrase_spans(text, whole),
                *linguistic.activity_spans(text, whole),
                *linguistic.wh_object_uses(text, whole),
                *linguistic.kept_in_state_uses(text, whole),
            ]
            if not any(cue <= c < clause[1] for cue, clause in purposes)
            and not any(s <= c < e for s, e in planned_spans)  # a goal's or risk's own words
            # "the player stutters on old phones": how a thing behaves, no function anyone uses
            and not linguistic.behaviour_of_a_thing(text, whole, p[0])
        ]
    if mentions and lex.LANG == "en" and sentence.in_message_language:
        # "lets you tag and archive invoices": each verb with the object they share
        for cue_start, phrase, label in linguistic.shared_object_uses(text, whole):
            quote = _cover(sentence, cue_start, phrase[1])
            found.append(Finding("feature", label, quote, phrase[0], origin="mentioned"))
    for cue_start, phrase, origin in phrases:
        if origin == "planned":
            phrase = _with_its_complement(text, phrase, _clause_end(sentence, phrase[0]), lex)
        label = _label(text, phrase, sentence)
        if label and not any(label in f.label or f.label in label for f in found):
            found.append(
                Finding(
                    "feature",
                    label,
                    _cover(sentence, cue_start, phrase[1]),
                    phrase[0],
                    origin=origin,
                )
            )
    if mentions and lex.LANG == "en" and sentence.in_message_language:
        # "enjoy comedy and drama": what is joined to a use is one more
        uses = [p for c, p, origin in phrases if origin == "mentioned"]
        for quote, label in linguistic.conjunct_uses(text, whole, uses):
            if not any(label in f.label or f.label in label for f in found):
                found.append(Finding("feature", label, quote, quote[0], origin="mentioned"))
    for competitor in competitors:
        name_end = text.find(competitor.label, competitor.at) + len(competitor.label)
        offered = lex.FEATURE_OFFERED.match(text[name_end : sentence.end])
        if offered is not None:
            candidates.append((competitor.at, name_end + offered.start("f"), "offered"))
    described: list[Span] = []  # the rest of the clause of a planned or offered feature
    for cue_start, start, origin in candidates:
        end = _clause_end(sentence, start)
        phrase = _phrase(text, start, end, lex, lex.FEATURE_CUTTER, lex.FEATURE_MAX_WORDS)
        phrase = _with_its_complement(text, phrase, end, lex)
        label = _label(text, phrase, sentence)
        if label:
            described.append((phrase[1], end))
            # "build a bedtime timer" read as a use from the plan's own words gives way to
            # what is planned
            found = [
                f
                for f in found
                if not (
                    f.origin == "mentioned" and cue_start <= f.at < phrase[0] and label in f.label
                )
            ]
        if label and not any(f.label == label or label in f.label for f in found):
            # "компиляторы" of a request whose pattern reads on to "… для всех языков", "sleep
            # reports" of "offers weekly sleep reports": the whole noun phrase is the one
            # feature
            found = [f for f in found if not (phrase[0] <= f.at < phrase[1] and f.label in label)]
            quote = _cover(sentence, cue_start, phrase[1])
            found.append(Finding("feature", label, quote, phrase[0], origin=origin))
    # The parts a sentence names come last: a plan or a request that names one says more.
    for part in parts:
        label = _label(text, part, sentence)
        # a bare word found before gives way to the part's fuller name ("shares" to "shares
        # to any folder")
        found = [
            f
            for f in found
            if not (f.origin == "mentioned" and " " not in f.label and part[0] <= f.at < part[1])
            or f.label not in label
        ]
        if label and not any(label in f.label or f.label in label for f in found):
            quote = _cover(sentence, part[0], part[1])
            found.append(Finding("feature", label, quote, part[0], origin="mentioned"))
    if mentions and lex.LANG == "en" and sentence.in_message_language:
        # An operation on the app ("install", "update") is its own feature each time it is
        # named, unless a longer label already holds that very word.
        for span in linguistic.operation_spans(text, whole):
            label = _label(text, span, sentence)
            if label and not any(_holds_word(f, span) for f in found):
                # "videos won't load": the part it is said of is in this label, not apart; a
                # label cut inside the operation's words ("let me log" of "log in") gives way
                found = [
                    f
                    for f in found
                    if not (span[0] <= f.at < span[1])
                    and not (f.at < span[0] < f.at + len(f.label) < span[1])
                ]
                quote = _cover(sentence, span[0], span[1])
                found.append(Finding("feature", label, quote, span[0], origin="mentioned"))
    # What the rest of its clause says a planned or offered feature does ("a planner that
    # suggests recipes") describes that feature, no feature of its own.
    found = [
        f for f in found if f.origin != "mentioned" or not any(s <= f.at < e for s, e in described)
    ]
    # A device the app runs on, or its connection, is where it is used, not a feature of it;
    # nor is what the app spares its user ("without printing the forms").
    spared = linguistic.spared_spans(text, whole) if lex.LANG == "en" else []
    # Another tool named in the words, or what it comes in ("paper forms", "a messenger's
    # group chats"), makes them a workaround, told already as the alternative; so does work
    # said to be done by hand.
    tools = [a.quote for a in alternatives if a.origin == "tool"]
    found = [
        f
        for f in found
        if f.origin == "planned"
        or not (
            any(s < f.at + len(f.label) and f.at < e for s, e in tools)
            # "copying receipts by hand": the manual way it is done now
            or linguistic.done_by_hand(
                text, (f.at, _clause_end(sentence, f.at)), (f.at, f.at + len(f.label))
            )
        )
    ]
    if lex.LANG == "en":
        found = [_feature_name(f) for f in _without_judgement(found, lex)]
    return [
        f
        for f in found
        if not linguistic.names_a_device(f.label)
        and not (lex.LANG == "en" and _a_group_of_people(f.label, lex))
        and not (lex.LANG == "en" and linguistic.names_a_connection(f.label))
        and not linguistic.names_no_feature(f.label)
        and not linguistic.not_a_feature_name(f.label)
        and (f.origin == "planned" or not any(s <= f.at < e for s, e in spared))
    ]


# A head that says only that something is wanted ("support", "an option") names the feature
# with its complement: "add support for dark mode", "an option for bulk export".
_BARE_FEATURE_HEADS = frozenset({"support", "option", "options", "setting", "settings"})
_COMPLEMENT = re.compile(r"\s+(?:for|of)\s+", re.IGNORECASE)


def _with_its_complement(text: str, phrase: Span, end: int, lex: ModuleType) -> Span:
    head = _bare(text, phrase).split()
    after = _COMPLEMENT.match(text, phrase[1], end)
    if not head or head[-1] not in _BARE_FEATURE_HEADS or after is None:
        return phrase
    rest = _phrase(text, after.end(), end, lex, lex.FEATURE_CUTTER, lex.FEATURE_MAX_WORDS)
    return (phrase[0], rest[1]) if rest[1] > rest[0] else phrase


def _a_group_of_people(label: str, lex: ModuleType) -> bool:
    """ "ebay users", "movie lovers": a noun phrase headed by people is a segment, not a
    feature; "pictures of my friends" and "share with the wife" name a thing and a use."""
    words = analyse(label)
    head = words[: next((k for k, w in enumerate(words) if w.pos == "ADP"), len(words))]
    return (
        bool(head) and head[0].pos != "VERB" and _names_people(" ".join(w.text for w in head), lex)
    )


def _feature_name(finding: Finding) -> Finding:
    """A feature's name as a feature is named; the quote keeps the words as written. A lone
    letter left at the end by a word cut short or texted goes ("shuffle play feature f**ks",
    "video calling n likes"), as does a texted function word ("the call feature dnt work")
    and a verb that only frames the one after it ("seem to upload my profile picture") or
    tells a feeling about it ("love movies");
    an operation named alone in the past is the operation ("I opened the app", "it updated":
    "open", "update")."""
    label = linguistic.LONE_LETTER_END.sub("", finding.label)
    label = linguistic.TEXTED_FUNCTION_END.sub("", label)
    label = linguistic.RAISING_START.sub("", label)
    label = linguistic.FEELING_START.sub("", label)
    if " " not in label and label.isascii() and label.lower().endswith("ed"):
        verb = lemma(label)
        if verb != label.lower() and is_english_word(verb):
            label = verb
    return finding if label == finding.label else replace(finding, label=label)


def _without_judgement(found: list[Finding], lex: ModuleType) -> list[Finding]:
    """Each feature named without the words that judge it or tell what went wrong with it
    ("slow checkout" is the checkout, "keeps losing my orders" the orders); one that names
    nothing else is none, and two that come to the same name are one."""
    kept: list[Finding] = []
    for f in found:
        label = linguistic.without_judgement(f.label, lex.SOFTWARE_PARTS)
        if not label or any(k.label.casefold() == label.casefold() for k in kept):
            continue
        if label != f.label:
            shift = f.label.find(label)
            f = replace(f, label=label, at=f.at + max(shift, 0))
        kept.append(f)
    return kept


# How many times the writer tried something: the writer's effort, not a measure of the fault.
_WRITERS_TRIES = re.compile(
    r"(?<![\w-])(?:пробовал\w*|попробовал\w*|пытал\w*|перезапуска\w*|перезапустил\w*|"
    r"переустанавлива\w*|переустановил\w*|tried|retried|restarted|reinstalled|rebooted)"
    r"(?![\w-])[^.;!?]{0,25}?\d+\s*(?:раз\w*|times?)(?![\w-])",
    re.IGNORECASE,
)


def _holds_word(found: Finding, span: Span) -> bool:
    """The finding's label was cut from the text around this very span."""
    return found.at <= span[0] and span[1] <= found.at + len(found.label) + 2


_RELATIVE_PRONOUNS = frozenset(
    ("who", "whom", "whose", "that", "which", "кто", "который", "которые")
)


def _names_people(phrase: str, lex: ModuleType) -> bool:
    """ "my husband", "requesters", "nurses who work nights": a person or a group of people
    (the head before a relative clause), not a part of the product."""
    words = phrase.split()
    cut = next((k for k, w in enumerate(words) if k and w.lower() in _RELATIVE_PRONOUNS), None)
    head = words[(cut or len(words)) - 1].lower()
    if head in lex.PEOPLE_NOUNS or lemma(head) in lex.PEOPLE_NOUNS:
        return True
    plural = head.endswith(("s", "men", "people"))  # "nurses", "firemen", "salespeople"
    return plural and lex.SEGMENT_HEAD.fullmatch(head) is not None


def _people_reporting(phrase: str, lex: ModuleType) -> bool:
    """ "participants report", "staff mention": people and the verb by which they report, not
    a part named "report" or "note"."""
    words = phrase.split()
    if len(words) < 2 or words[-1].lower() not in lex.REPORTING_VERBS:
        return False
    return _names_people(" ".join(words[:-1]), lex)


def _label_problem(finding: Finding) -> str:
    if finding.type == "metric":
        return linguistic.metric_label_problem(finding.label)
    if finding.type in ("feature", "job", "goal") and linguistic.points_elsewhere(finding.label):
        return "says what is wanted only by pointing elsewhere"
    if finding.type == "feature" and linguistic.counts_a_share(finding.label):
        return "a share of the content missing, not a capability"  # «многих иконок»
    return linguistic.fragment_reason(finding.label)


def _metrics(text: str, sentence: Sentence, planned_spans: list[Span]) -> list[Finding]:
    """One metric per clause with numbers; the value lists the number phrases as written."""
    lex = sentence.lex
    found: list[Finding] = []
    for clause in sentence.clauses:
        numbers = list(lex.METRIC_NUMBER.finditer(text, *clause))
        numbers = [n for n in numbers if not any(s <= n.start() < e for s, e in planned_spans)]
        if not numbers:
            continue
        if linguistic.describes_the_machine(text[clause[0] : clause[1]]):
            continue  # "16 GB RAM", «ОЗУ 8 ГБ»: the environment, not a measure of the problem
        if _WRITERS_TRIES.search(text, *clause):
            continue  # «Пробовал 3 раза», "restarted it 3 times": the writer's tries, no measure
        if text[sentence.end : sentence.end + 2].lstrip().startswith("?"):
            continue  # "Is it checking every 10 seconds?": a guess asked, nothing measured
        if lex.PRICE_EXPECTATION.search(text, *clause) and all(
            lex.MONEY.search(n.group()) for n in numbers
        ):
            continue  # "she will not pay more than $20 a month": what they would pay, an opinion
        value = ", ".join(n.group() for n in numbers)
        label = _metric_label(text, sentence, clause, numbers[0], lex)
        found.append(Finding("metric", label, clause, numbers[0].start(), value=value))
    return found


def _metric_label(
    text: str, sentence: Sentence, clause: Span, number: re.Match[str], lex: ModuleType
) -> str:
    # Start after any lead-in ("According to the survey, 20% ...").
    lead = max(
        text.rfind(",", clause[0], number.start()), text.rfind(":", clause[0], number.start())
    )
    start = lead + 1 if lead >= 0 else clause[0]
    end = clause[1]
    cut = next((m for m in lex.METRIC_CUTTER.finditer(text, number.end(), end)), None)
    if cut is not None:
        end = cut.start()
    phrase = _phrase(text, start, end, lex, None, lex.METRIC_MAX_WORDS)
    if phrase[1] < number.end():
        # The number sits beyond the word limit: centre the label on it instead.
        start = _words_before(text, number.start(), start, lex, 3)
        phrase = _phrase(text, start, end, lex, None, lex.METRIC_MAX_WORDS)
    return _label(text, phrase, sentence)


def _goals(text: str, sentence: Sentence) -> list[Finding]:
    lex = sentence.lex
    for pattern in lex.GOAL_PATTERNS:
        match = pattern.search(text, sentence.start, sentence.end)
        if match is None:
            continue
        phrase = _phrase(
            text, match.start("g"), sentence.end, lex, lex.GOAL_CUTTER, lex.GOAL_MAX_WORDS
        )
        label = _label(text, phrase, sentence)
        if label:
            quote = _trim(text, match.start(), match.end("g"))
            return [Finding("goal", label, quote, match.start())]
    return []


def _risks(text: str, sentence: Sentence) -> list[Finding]:
    lex = sentence.lex
    for pattern in lex.RISK_PATTERNS:
        match = pattern.search(text, sentence.start, sentence.end)
        if match is None:
            continue
        phrase = _phrase(
            text, match.start("r"), sentence.end, lex, lex.RISK_CUTTER, lex.RISK_MAX_WORDS
        )
        label = _label(text, phrase, sentence)
        if label:
            quote = _trim(
                text, match.start(), match.end("r")
            )  # the whole risk, with its "and then"
            return [Finding("risk", label, quote, match.start())]
    return []


# ----------------------------------------------------------------------------- relations


@dataclass(frozen=True)
class _Scope:
    """What a linking condition may look at: one sentence and everything found in it."""

    text: str
    sentence: Sentence
    found: list[Finding]


Condition = Callable[[_Scope, Finding, Finding], bool]


def _always(scope: _Scope, source: Finding, target: Finding) -> bool:
    return True


def _weighs_criterion(scope: _Scope, source: Finding, target: Finding) -> bool:
    """A segment values what it has an opinion about (price, speed); a study's finding about
    the segment says what it did, not what it values."""
    return bool(target.subject)


def _uses_competitor(scope: _Scope, source: Finding, target: Finding) -> bool:
    """A competitor named near a segment is only 'used' when the sentence says so."""
    cue = scope.sentence.lex.COMPETITOR_USAGE_CUE
    return cue.search(scope.text, scope.sentence.start, scope.sentence.end) is not None


def _offered(scope: _Scope, source: Finding, target: Finding) -> bool:
    return target.origin == "offered"


def _planned(scope: _Scope, source: Finding, target: Finding) -> bool:
    """Our own feature answers a pain or job; a rival's feature is only recorded as offered."""
    return source.origin == "planned"


def _same_clause(scope: _Scope, source: Finding, target: Finding) -> bool:
    """A number measures a pain said in its own clause ("45% forget to mark the payment"), not
    one the sentence adds as a cause ("25% stop using the app, and the top reason is …")."""
    return source.quote[0] < target.quote[1] and target.quote[0] < source.quote[1]


def _triggered(scope: _Scope, source: Finding, target: Finding) -> bool:
    """The segment in the 'they start looking' clause, else any segment of the sentence."""
    focus = target.focus
    if focus is None or focus[0] <= source.at < focus[1]:
        return True
    return not any(f.type == "segment" and focus[0] <= f.at < focus[1] for f in scope.found)


# (relation, source type, target type, condition); only pairs the ontology allows.
_LINKS: tuple[tuple[str, str, str, Condition], ...] = (
    ("targets_market", "product", "market", _always),
    ("experiences", "segment", "pain", _always),
    ("has_job", "segment", "job", _always),
    ("triggered_by", "segment", "trigger", _triggered),
    ("uses", "segment", "alternative", _always),
    ("uses", "segment", "competitor", _uses_competitor),
    ("values", "segment", "insight", _weighs_criterion),
    ("solves", "feature", "pain", _planned),
    ("supports", "feature", "job", _planned),
    ("offers", "competitor", "feature", _offered),
    ("measured_by", "pain", "metric", _same_clause),
    ("measured_by", "goal", "metric", _always),
    ("threatens", "risk", "feature", _always),
    ("threatens", "risk", "goal", _always),
    ("threatens", "risk", "product", _always),
    ("competes_with", "competitor", "product", _always),
)


def _link_sentence(
    answer: _Answer,
    text: str,
    sentence: Sentence,
    found: list[Finding],
    carried: tuple[int, Finding] | None,
) -> None:
    scope = _Scope(text, sentence, found)
    whole = (sentence.start, sentence.end)
    for relation, source_type, target_type, condition in _LINKS:
        for target in (f for f in found if f.type == target_type):
            if source_type == "segment" and relation != "triggered_by":
                pairs = _actors(found, target, whole, carried)
            else:
                pairs = [(f, whole) for f in found if f.type == source_type]
            for source, quote in pairs:
                if condition(scope, source, target):
                    answer.link(relation, source, target, quote)


_THREATENED = ("goal", "feature", "product")


def _link_risk_to_previous(
    answer: _Answer, sentence: Sentence, found: list[Finding], previous: _Referent | None
) -> None:
    """A risk stated without its target, right after a goal or a planned feature, threatens
    that: "Our goal is to reduce … to 30 minutes. The risk is that cashiers will not adopt it"."""
    if previous is None or any(f.type in _THREATENED for f in found):
        return
    targets = [f for f in previous.found if f.type in ("goal", "feature") and f.origin != "offered"]
    for risk in (f for f in found if f.type == "risk"):
        for target in targets:
            answer.link("threatens", risk, target, (previous.start, sentence.end))


def _actors(
    found: list[Finding], target: Finding, whole: Span, carried: tuple[int, Finding] | None
) -> list[tuple[Finding, Span]]:
    """The segments that feel, use or value the target: named before it, and not as an object
    ("we sell to couriers"); failing that, the segment a leading "they" refers to; failing that,
    one named after it in the same clause ("price does not matter to enterprise buyers")."""
    segments = [f for f in found if f.type == "segment"]
    before = [f for f in segments if f.at <= target.at]
    acting = [f for f in before if f.origin != "oblique"] or before
    if acting:
        return [(f, whole) for f in acting]
    if carried is not None:
        return [(carried[1], (carried[0], whole[1]))]  # quote both: the pronoun and its referent
    return [(f, whole) for f in segments if target.quote[0] <= f.at < target.quote[1]]


def _carried_segment(
    text: str, sentence: Sentence, referent: _Referent | None
) -> tuple[int, Finding] | None:
    """'They said …' after a sentence about exactly one segment is about that segment; a run of
    such sentences keeps pointing at it. Returns where the referent's sentence starts, too."""
    if referent is None:
        return None
    if not sentence.lex.PRONOUN_START.match(text, sentence.start, sentence.end):
        return None
    earlier = [f for f in referent.found if f.type == "segment"]
    if len(earlier) == 1:
        return referent.start, earlier[0]
    return referent.carried if not earlier else None
