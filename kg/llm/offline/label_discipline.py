"""Label discipline: what no finding's label may be, whatever rule proposed it.

Every other rule proposes findings from the words of its own concern; these checks run last on
each sentence's findings (`disciplined`) and hold for every genre and both languages, each for a
general reason stated beside it rather than for a set's items:
- a redaction mask ("XXXX", "***", «***»), a date or a web address names nothing: it is cut out
  of a label with the preposition that leads it ("a letter from XXXX" → "a letter"), and a label
  left without a phrase is dropped (`unmasked`); a metric whose only numbers are dates counts
  nothing;
- a feature is a noun phrase with its modifier or a verb phrase: a bare generic noun ("mode",
  "settings", «режим») takes back the modifier it had in the sentence ("dark mode") or is no
  feature (`_modified`);
- a verb phrase done with another tool ("tracks arrivals in a paper notebook") is the person's
  job, told with its workaround, not a capability asked of the product (`_workaround_job`);
- what "we" or "the team" of a study did ("we revised our journey map", «мы подготовили
  отчёт») is the study's own work, no finding about the people it studied (`_researchers_work`);
- thanks or a welcome for joining ("thank you all for coming in") and a citation of law
  ("under 15 U.S.C. 1681", «по ст. 16 Закона о защите прав потребителей») state nothing about
  the product: no finding comes from such a sentence (`_courtesy`, `_cites_law`).
Example: "Drivers want a dark mode for night shifts; today they squint at a paper map" keeps
the feature "dark mode", not "mode".
"""

from __future__ import annotations

import re
from dataclasses import replace

from kg.language import analyse, lemma
from kg.llm.offline.reading import _wordset, listed
from kg.llm.offline.sentences import Finding, Sentence

_GENERIC_HEADS = _wordset(listed("generic_heads"))
_RESEARCH_WORK = _wordset(listed("research_work"))
_RESEARCH_ARTEFACTS = _wordset(listed("research_artefacts"))
_LISTENER_ACTS = _wordset(listed("listener_acts"))

# A redaction: "XXXX", "XX/XX/XXXX", "***", «***», "[redacted]".
_MASK = r"(?:\b[Xx]{2,}(?:[/.-][Xx]{2,})*\b|\*{3,}|«\s*\*+\s*»|\[\s*(?:redacted|removed)\s*\])"
_DAY = r"(?:0?[1-9]|[12]\d|3[01])"
_MONTH = r"(?:0?[1-9]|1[0-2])"
_MONTHS = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_RU_MONTHS = r"(?:январ|феврал|март|апрел|ма[йяе]|июн|июл|август|сентябр|октябр|ноябр|декабр)\w*"
_DATE = (
    # a day and a month in range, so that a version ("2.53.17") is none
    rf"(?:(?<![\d.]){_DAY}(?P<sep>[/.]){_MONTH}(?P=sep)(?:\d{{4}}|\d{{2}})(?![\d.])"
    rf"|(?<![\d./]){_MONTH}/{_DAY}/(?:\d{{4}}|\d{{2}})(?![\d/])"
    rf"|\b\d{{4}}-\d{{2}}-\d{{2}}\b"
    rf"|\b{_MONTHS}\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?\b"
    rf"|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTHS}(?:,?\s+\d{{4}})?\b"
    rf"|\b\d{{1,2}}\s+{_RU_MONTHS}(?:\s+\d{{4}}(?:\s*г(?:ода|\.)?)?)?"
    rf"|\b{_MONTHS}\s+\d{{4}}\b|\b{_RU_MONTHS}\s+\d{{4}}(?:\s*г(?:ода|\.)?)?)"
)
# a day without its year only where a preposition says it is one ("on 03/12"): "1/2" is a share
_LED_DATE = rf"\b(?:on|since|until|by)\s+{_MONTH}/{_DAY}(?![\d/.])"
_URL = r"(?:https?://\S+|www\.\S+|\b[\w.+-]+@[\w-]+\.[\w.]+\b)"
# what leads a date, a mask or an address in a label goes with it: "from XXXX", "on 03/12/2019"
_LEAD = (
    r"(?:\b(?:on|in|at|from|to|by|since|until|of|with|the|a|an|starting|beginning|after|before|"
    r"в|во|на|от|с|со|до|к|у|по|начиная|после)\s+)*"
)
_UNNAMED = re.compile(rf"\s*{_LEAD}(?:{_MASK}|{_DATE}|{_LED_DATE}|{_URL})[\s,.;:]*", re.IGNORECASE)
_ONLY_DATES = re.compile(rf"^(?:\s*(?:{_DATE}|\b\d{{4}}\b)\s*,?)+$", re.IGNORECASE)


def unmasked(finding: Finding) -> Finding | None:
    """The finding with masks, dates and addresses cut out of its label; None when nothing
    that still reads as a phrase is left. A metric that measures only dates is none."""
    if finding.type == "metric" and finding.value and _ONLY_DATES.match(finding.value):
        return None
    if not _UNNAMED.search(finding.label):
        return finding
    if finding.type in ("competitor", "product"):
        return None  # a name masked or an address is no name
    label = " ".join(_UNNAMED.sub(" ", finding.label).split()).strip(" ,.;:-")
    words = [t for t in analyse(label) if t.pos in ("NOUN", "PROPN", "VERB", "ADJ")]
    if not words or (finding.type in ("pain", "job") and len(label.split()) < 2):
        return None
    return replace(finding, label=label)


# A modifier that completes a generic head: an adjective, a noun or a participle right before it.
_MODIFIER_POS = frozenset(("ADJ", "NOUN", "PROPN"))


def _modified(text: str, finding: Finding) -> Finding | None:
    """A feature that is a bare generic noun takes the modifier it has in the sentence ("a dark
    mode" → "dark mode"), or is none."""
    if finding.type != "feature" or " " in finding.label.strip():
        return finding
    head = finding.label.strip()
    if head.lower() not in _GENERIC_HEADS:  # the word as written: "viewing" is no "view"
        return finding
    if text[finding.at : finding.at + len(head)] == head:
        before = text[finding.quote[0] : finding.at + len(head)]  # the head where it stands
    else:
        before = text[finding.quote[0] : finding.quote[1]]
    # the last: the one nearest where the feature stands
    at = next(
        reversed(
            list(re.finditer(rf"(?<![\w-])(?:[\w-]+\s+){{1,2}}{re.escape(head)}(?![\w-])", before))
        ),
        None,
    )
    if at is None:
        return None
    tokens = analyse(at.group(0))
    modifiers: list[str] = []
    for token in reversed(tokens[:-1]):
        if token.pos not in _MODIFIER_POS or token.lower in _GENERIC_HEADS:
            break
        modifiers.insert(0, token.text)
    if not modifiers:
        return None
    return replace(finding, label=" ".join([*modifiers, head]))


# The preposition (and determiner) between what someone does and the tool they do it with.
_WITH_TOOL = re.compile(
    r"\s+(?:in|on|with|using|via|through|into|в|во|на|через|с\s+помощью)\s+"
    r"(?:(?:a|an|the|my|his|her|their|our|your|its|свою|свой|своей|своём|своем)\s+)?$",
    re.IGNORECASE,
)


def _workaround_job(text: str, finding: Finding, alternatives: list[Finding]) -> Finding:
    """A feature's verb phrase followed by the tool it is done with ("tracks courier arrivals
    in a paper notebook"): the job the workaround serves, not a requirement."""
    if finding.type != "feature" or finding.origin == "planned":
        return finding
    end = text.find(finding.label, finding.at)
    if end < 0:
        return finding
    end += len(finding.label)
    for alternative in alternatives:
        named = alternative.named or alternative.quote
        if (
            named[0] >= end
            and _WITH_TOOL.search(text[end : named[0]])
            and "\n" not in text[end : named[0]]
        ):
            return replace(finding, type="job", origin="workaround")
    return finding


# "we", "our team", "the researchers" as a subject, then up to three auxiliaries or adverbs
_RESEARCHERS = re.compile(
    r"(?<![\w-])(?:we|our\s+(?:research\s+)?team|the\s+(?:research\s+)?team|the\s+researchers|"
    r"researchers|мы|наша\s+команда|команда\s+исследования|исследователи)"
    r"(?:\s+(?:have|has|had|will|is|are|was|were|'ve|'re|'ll|'s|also|then|just|recently|already|next|"
    r"then|уже|также|тоже|сейчас|затем|недавно)){0,3}\s+(?P<verb>[\w'-]+)(?P<rest>[^.;!?\n]*)",
    re.IGNORECASE,
)
# the verbs that are research work whatever their object; the rest need a research artefact
_ONLY_RESEARCH = _wordset(
    "interview recruit synthesize synthesise survey prototype observe shadow debrief "
    "опросить опрашивать"
)


def _researchers_work(text: str, sentence: Sentence) -> tuple[int, int, bool] | None:
    """Where a clause tells the study's own work ("we revised our journey map", "the team
    is preparing the readout", «мы подготовили отчёт»), and whether that work is studying
    people ("we recruited six bakers": the people named are the study's segment)."""
    for match in _RESEARCHERS.finditer(text, sentence.start, sentence.end):
        verb = lemma(match["verb"].lower())
        if verb not in _RESEARCH_WORK:
            continue
        rest = [lemma(w.lower()) for w in re.findall(r"[\w-]+", match["rest"])[:5]]
        objects = {w for w in re.findall(r"[\w-]+", match["rest"].lower())[:5]} | set(rest)
        # the clause it stands in: "…, and she said couriers wait" is another statement
        end = next((e for s, e in sentence.clauses if s <= match.start() < e), sentence.end)
        if verb in _ONLY_RESEARCH:
            return match.start(), end, True
        if objects & _RESEARCH_ARTEFACTS or not rest:
            return match.start(), end, False
        named = re.match(r"\s*(?:to|with|в|на)\s+(?:the\s+)?(?P<whom>[\w-]+)", match["rest"])
        if named is not None and (named["whom"][:1].isupper() or named.group().count(" the ")):
            # "we will submit to OFA", "… to the review board": an errand, no object; "we
            # plan to add" is no errand
            return match.start(), end, False
    return None


def _names_the_act(label: str, text: str, start: int, end: int) -> bool:
    """A label made of the study's act: its first word is the clause's verb ("interviewed six
    owners")."""
    words = label.split()
    return (
        bool(words)
        and re.search(rf"(?<![\w-]){re.escape(words[0])}(?![\w-])", text[start:end], re.IGNORECASE)
        is not None
        and lemma(words[0].lower()) in _RESEARCH_WORK
    )


_COURTESY = re.compile(
    r"(?<![\w-])(?:thanks?(?:\s+you)?(?:\s+(?:so|very)\s+much)?(?:\s+all)?\s+for|welcome|"
    r"спасибо(?:\s+вам)?(?:\s*,\s*что|\s+за))\s+(?P<act>[\w-]+)",
    re.IGNORECASE,
)


def _courtesy(text: str, sentence: Sentence) -> bool:
    """Thanks or a welcome for being there: "Thank you all for coming in", «Спасибо, что
    пришли»."""
    return any(
        m["act"].lower() in _LISTENER_ACTS or lemma(m["act"].lower()) in _LISTENER_ACTS
        for m in _COURTESY.finditer(text, sentence.start, sentence.end)
    )


_LAW = re.compile(
    r"\b\d+\s+U\.?\s?S\.?\s?C\b|§\s*\d|\b(?:section|sec\.)\s+\d+\w*\s+of\s+the\b"
    r"|\b(?:pursuant\s+to|in\s+accordance\s+with|under)\s+(?:the\s+)?(?:[A-Z][\w-]+\s+){1,5}Act\b"
    r"|\bст(?:\.|ать\w+)\s*\d+|\bфедеральн\w+\s+закон\w*|\b\d+-ФЗ\b|\bГК\s+РФ\b"
    r"|\bзакон\w*\s+(?:РФ\s+)?[«\"]?о\s+защите\s+прав\s+потребителей",
    re.IGNORECASE,
)


def _cites_law(text: str, sentence: Sentence) -> bool:
    """A sentence citing a statute ("under the Fair Credit Reporting Act", "15 U.S.C. 1681",
    «ст. 16 Закона о защите прав потребителей») states a right, not an experience."""
    # the sentence cutter may end a sentence inside the citation ("15 U.S.C. 1681, they …"):
    # the citation's words just before the sentence count as its own
    paragraph = text.rfind("\n", 0, sentence.start) + 1
    return _LAW.search(text, max(paragraph, sentence.start - 40), sentence.end) is not None


# What a sentence of courtesy or law may still give: who is named in it.
_NAMES = frozenset(("competitor", "product"))
# Types a sentence of the study's own work never gives.
_STATEMENT_TYPES = frozenset(("feature", "pain", "job", "goal", "risk", "alternative", "metric"))


def disciplined(text: str, raw: str, sentence: Sentence, found: list[Finding]) -> list[Finding]:
    """The sentence's findings as no label may be otherwise (see the module's docstring).
    `raw` is the message before its markup and layout were blanked, at the same offsets."""
    if found and (_courtesy(raw, sentence) or _cites_law(raw, sentence)):
        found = [f for f in found if f.type in _NAMES]
    work = _researchers_work(text, sentence) if found else None
    if work is not None:
        start, end, studying = work
        # studying people, the people named are the study's segment and what they said its
        # findings: only the study's act itself ("interviewed six owners") goes
        dropped = {"feature", "job"} if studying else _STATEMENT_TYPES | {"segment"}
        found = [
            f
            for f in found
            if f.type not in dropped
            or not start <= f.at < end
            or (studying and not _names_the_act(f.label, text, start, end))
        ]
    alternatives = [f for f in found if f.type == "alternative"]
    kept: list[Finding] = []
    for finding in found:
        cleaned = unmasked(finding)
        if cleaned is None:
            continue
        modified = _modified(text, cleaned)
        if modified is None:
            continue
        kept.append(_workaround_job(text, modified, alternatives))
    return kept
