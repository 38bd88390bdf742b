"""Jobs and alternatives: what people do to get a job done, with or without the product.

A job is a goal a person works towards (`_jobs`); an alternative is another way they do it,
by hand or with another tool ("a paper notebook", "a spreadsheet", `_alternatives`), recorded
as an alternative; a trigger says when the job comes up (`_triggers`).
Example: "She tracks arrivals in a paper notebook" gives the alternative "paper notebook".
"""

from __future__ import annotations

import re
from types import ModuleType

from kg.llm.offline import lexicon_en, lexicon_ru, report_ru
from kg.llm.offline.clauses import purpose_spans
from kg.llm.offline.organisations import _name_key
from kg.llm.offline.pains import _whole_quote
from kg.llm.offline.sentences import (
    _WORD,
    Finding,
    Sentence,
    Span,
    _clause_end,
    _cover,
    _label,
    _phrase,
)
from kg.llm.offline.uses import workaround_spans


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
    for cue, clause in purpose_spans(text, (sentence.start, sentence.end)):
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
    for cue, span in workaround_spans(text, (sentence.start, sentence.end)):
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
