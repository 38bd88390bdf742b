"""Speakers: a pain belongs to the segment of the person who has it, not to whoever it names.

Research notes tell who speaks in three ways, each read here for a general reason:
- a header over an interview's notes ("Interview 3 — restaurant owner", «Интервью 2: курьер»,
  "Participant 4 (clinic manager)") or a speaker's label opening a line ("Restaurant owner:
  couriers arrive too early"): what follows, up to the next header, is that person's account,
  so its pains are theirs, whoever they are about (`turns`);
- an interviewer's or a moderator's line ("Interviewer: …", «Модератор: …», "Q: …") is the
  study's question, no finding about the people studied;
- a reporting verb after a segment ("Restaurant owners told us couriers arrive too early",
  «Курьеры говорят, что …») makes that segment the speaker of the rest of the sentence
  (`reported`): the people named after it are what is told about, and the pain's label starts
  after the reporting words.
Example: under "Interview 3 — restaurant owner", "Couriers arrive too early and wait at the
counter." gives the pain "couriers arrive too early and wait at the counter", experienced by
"restaurant owners", not by "couriers".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from kg.llm.offline.sentences import Finding, Sentence, Span

# A line that heads an interview's or a participant's notes.
_HEADER = re.compile(
    r"^[ \t#*>-]*(?:interview|session|participant|respondent|speaker|p\d+|интервью|сессия|"
    r"участни(?:к|ца)|респондент)\b[^\n]{0,100}$",
    re.IGNORECASE | re.MULTILINE,
)
# A line opened by who speaks: "Restaurant owner: …", «Курьер: …» (a few words, then a colon).
_SPEAKER_LABEL = re.compile(r"^[ \t*>-]*(?P<who>[^\W\d_][\w ()-]{1,40}?)\s*:[ \t]+", re.MULTILINE)
# The study's side of a conversation.
_RESEARCHER_LABEL = re.compile(
    r"^[ \t*>-]*(?:interviewer|moderator|researcher|facilitator|q|интервьюер|модератор|"
    r"исследователь|вопрос)\s*:",
    re.IGNORECASE | re.MULTILINE,
)
# A participant's label with no segment of its own: the header's person goes on speaking.
_PARTICIPANT_LABEL = re.compile(
    r"^[ \t*>-]*(?:participant|respondent|p\d+|a|участник|участница|респондент|ответ)\b"
    r"[^:\n]{0,20}:",
    re.IGNORECASE | re.MULTILINE,
)

_REPORTING = re.compile(
    r"(?<![\w-])(?:say|says|said|tell|tells|told|mention|mentions|mentioned|complain|complains|"
    r"complained|report|reports|reported|explain|explains|explained|note|notes|noted|"
    r"говор(?:ит|ят|или?)|сказал[аи]?|рассказ(?:ал[аи]?|ывают|ывает)|жалуются|жалуется|"
    r"жаловал(?:ся|ась|ись)|отмеча(?:ют|ет|ли))(?![\w-])"
    r"(?:\s+(?:us|me|them|that|нам|мне|что))*[\s,:]*",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Turn:
    """Who speaks in a sentence: a segment named above it (`start`: where it is named), or the
    study itself (`researcher`)."""

    start: int
    segment: Finding | None
    researcher: bool = False


def turns(text: str, sentences: list[Sentence], findings: list[list[Finding]]) -> list[Turn | None]:
    """The speaker of each sentence, from headers and speakers' labels above or at its line."""
    segments = [f for found in findings for f in found if f.type == "segment"]
    speaker: Turn | None = None
    result: list[Turn | None] = []
    for sentence in sentences:
        line_start = text.rfind("\n", 0, sentence.start) + 1
        line_end = text.find("\n", sentence.start)
        line_end = len(text) if line_end < 0 else line_end
        header = _HEADER.match(text, line_start, line_end)
        if header is not None and sentence.start < line_start + len(header.group()):
            named = [f for f in segments if line_start <= f.at < line_end]
            speaker = Turn(line_start, named[0]) if named else None
            result.append(None)  # the header itself says nothing
            continue
        if _RESEARCHER_LABEL.match(text, line_start, line_end):
            result.append(Turn(line_start, None, researcher=True))
            continue
        label = _SPEAKER_LABEL.match(text, line_start, line_end)
        if label is not None and not _PARTICIPANT_LABEL.match(text, line_start, line_end):
            named = [f for f in segments if label.start("who") <= f.at < label.end("who")]
            if named:
                result.append(Turn(line_start, named[0]))
                continue
        result.append(speaker)
    return result


def reported(text: str, sentence: Sentence, found: list[Finding]) -> tuple[Finding, Span] | None:
    """The segment that reports the rest of the sentence ("Restaurant owners told us …"), and
    where its reporting words are."""
    for segment in (f for f in found if f.type == "segment"):
        head_end = segment.at + len(segment.label)
        cue = _REPORTING.search(text, head_end - 1, min(sentence.end, head_end + 40))
        if cue is None or not cue.start() - head_end + 1 >= 0:
            continue
        between = text[head_end : cue.start()]
        if len(between.split()) <= 3 and not re.search(r"[,;:]", between):
            return segment, cue.span()
    return None


def without_the_report(text: str, cue: Span, found: list[Finding]) -> list[Finding]:
    """The findings of a reported sentence: a pain labelled from after the reporting words
    ("couriers arrive too early", not "restaurant owners told us couriers arrive …")."""
    kept: list[Finding] = []
    for finding in found:
        if finding.type == "pain" and finding.at <= cue[0] < finding.quote[1]:
            told = text[cue[1] : finding.quote[1]].strip(" ,.")
            if len(told.split()) > 1:
                finding = replace(finding, label=told[:1].lower() + told[1:], at=cue[1])
        kept.append(finding)
    return kept


def actors_of(turn: Turn | None, speaker: Finding | None, found: list[Finding]) -> list[Finding]:
    """The findings as the linking rules should see them: in a speaker's turn or after a
    reporting segment, no other segment is an actor of the sentence's pains."""
    if speaker is not None:
        return [f for f in found if f.type != "segment" or f is speaker or f.at < speaker.at]
    if turn is not None and turn.segment is not None:
        return [f for f in found if f.type != "segment"]
    return found
