"""Findings beside pains and features, and the relations drawn between nodes.

An insight is a sentence of research notes that states what was learnt (`_insights`,
`_findings`); a market is a size or share quoted with its numbers (`_markets`); a metric a
measured quantity (`_metrics`; never a date); a goal what someone aims at; a risk what may go
wrong. Relations join nodes of one sentence, or a risk and the goal just before it
(`_link_sentence`, `_link_risk_to_previous`).
Example: "Retention fell to 40% after the redesign" gives the metric "retention fell to
40%".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from types import ModuleType

from kg.llm.offline.clauses import Story, clause_span
from kg.llm.offline.features import _WRITERS_TRIES
from kg.llm.offline.labels import (
    counts_a_share,
    fragment_reason,
    metric_label_problem,
    points_elsewhere,
)
from kg.llm.offline.markup import outside_entities
from kg.llm.offline.non_problems import describes_the_machine
from kg.llm.offline.pain_spans import cut_at_word_limit
from kg.llm.offline.sentences import (
    _DIGITS,
    _TOKEN,
    Finding,
    Sentence,
    Span,
    _bare,
    _cover,
    _label,
    _phrase,
    _Referent,
    _shown_label,
    _trim,
    _words_before,
)
from kg.llm.prompts.extraction_models import CandidateNode, CandidateRelation
from kg.ontology import OntologyError, check_relation


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
        start, end = outside_entities(span, self.entities)
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


def _story(text: str, sentence: Sentence, story: Story) -> list[Finding]:
    """A user story names its segment, the feature it wants and the job that feature serves."""
    found = []
    parts = [("segment", story.role, False), ("feature", story.want, False)]
    if story.benefit is not None:
        parts.append(("job", story.benefit, True))
    for kind, span, drop_subject in parts:
        words = clause_span(text, span, drop_subject=drop_subject)
        if words is None:
            continue
        label = _label(text, words, sentence)
        quote = (sentence.start, sentence.end)
        found.append(Finding(kind, label, quote, words[0], origin="planned"))
    return found


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
        stop = cut_at_word_limit(text, (start, stop), _FINDING_MAX_WORDS)
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


def _label_problem(finding: Finding) -> str:
    if finding.type == "metric":
        return metric_label_problem(finding.label)
    if finding.type in ("feature", "job", "goal") and points_elsewhere(finding.label):
        return "says what is wanted only by pointing elsewhere"
    if finding.type == "feature" and counts_a_share(finding.label):
        return "a share of the content missing, not a capability"  # «многих иконок»
    return fragment_reason(finding.label)


def _metrics(text: str, sentence: Sentence, planned_spans: list[Span]) -> list[Finding]:
    """One metric per clause with numbers; the value lists the number phrases as written."""
    lex = sentence.lex
    found: list[Finding] = []
    for clause in sentence.clauses:
        numbers = list(lex.METRIC_NUMBER.finditer(text, *clause))
        numbers = [n for n in numbers if not any(s <= n.start() < e for s, e in planned_spans)]
        if not numbers:
            continue
        if describes_the_machine(text[clause[0] : clause[1]]):
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
