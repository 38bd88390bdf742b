"""Operation `extraction`: one call per episode returns candidate nodes and relations.

Each candidate must carry a verbatim quote from the episode; the system checks every quote,
type, relation and metric number at write time (kg.pipeline.extract).

The model is told what every node type and relation means, with an example of each and a
counter-example for the usual traps (negations, praise, hypotheticals, boilerplate, requests,
groups of people, fragment labels). The answer's shape goes out as a strict JSON schema whose
type, relation and stance are enums from the ontology; the answer is still parsed with the
lenient models below, so an out-of-ontology value reaches the write-time checks and is sent
back with a reason instead of failing the whole answer.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from kg.llm.gateway import StructuredOperation
from kg.llm.offline.extractor import extract_offline
from kg.llm.prompts.extraction_models import ExtractionRequest, ExtractionResponse, KnownNode
from kg.ontology import RELATIONS, NodeType

# The prompt lists at most this many of the project's opinion subjects.
MAX_KNOWN_SUBJECTS = 50
# ... and at most this many existing nodes the message most likely speaks about.
MAX_KNOWN_NODES = 12


# --- the schema sent to the model: the same shape with the ontology as enums -------------------


class Stance(StrEnum):
    POSITIVE = "positive"
    NEGATIVE = "negative"
    NONE = ""


# Generated from the ontology so a new relation reaches the schema without an edit here.
RelationName = StrEnum("RelationName", {name.upper(): name for name in RELATIONS})  # type: ignore[misc]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SchemaNode(_Strict):
    ref: str = Field(description="A local id such as n1, used by relations in this answer.")
    type: NodeType
    label: str = Field(description="A whole phrase: see the label form of the type.")
    quote: str = Field(description="The exact words of the message that state it, verbatim.")
    value: str = Field(description="For metrics: the value with its numbers; else empty.")
    subject: str = Field(description="What an opinion is about; else empty.")
    stance: Stance
    aliases: list[str]
    same_as: int | None = Field(description="The number of the known node it is, else null.")


class SchemaRelation(_Strict):
    relation: RelationName  # type: ignore[valid-type]
    source: str = Field(description="ref of the source node, or #number of a known node")
    target: str = Field(description="ref of the target node, or #number of a known node")
    quote: str = Field(description="The exact words that state the relation, verbatim.")


# Sent as response_format; the answer itself is parsed with ExtractionResponse.
class ExtractionSchema(_Strict):
    nodes: list[SchemaNode]
    relations: list[SchemaRelation]


# --- what the model is told: definitions with examples -----------------------------------------


class LabelForm(StrEnum):
    NOUN_PHRASE = "a noun phrase"
    CLAUSE = "a clause"


@dataclass(frozen=True)
class Example:
    said: str  # words as a message might say them
    reading: str  # what to extract from them, or why not this


@dataclass(frozen=True)
class TypeDefinition:
    meaning: str
    label: LabelForm
    examples: tuple[Example, ...]
    counterexamples: tuple[Example, ...]


@dataclass(frozen=True)
class RelationDefinition:
    meaning: str
    example: Example
    counterexample: Example


NODE_TYPE_DEFINITIONS: dict[NodeType, TypeDefinition] = {
    NodeType.PRODUCT: TypeDefinition(
        meaning="a product or service the message itself talks about as the one being built "
        "or researched, labelled as the message names it",
        label=LabelForm.NOUN_PHRASE,
        examples=(
            Example(
                "Our booking app forgets the last address every time",
                'product "booking app"',
            ),
        ),
        counterexamples=(
            Example(
                "Project: Harbor. Message: Teachers still grade essays on paper.",
                "no product node: the message does not talk about a product; the project's "
                "name is context, not evidence",
            ),
        ),
    ),
    NodeType.MARKET: TypeDefinition(
        meaning="an industry, region or kind of business the product is sold into, as a whole",
        label=LabelForm.NOUN_PHRASE,
        examples=(
            Example(
                "We are going after independent pharmacies in Poland",
                'market "independent pharmacies in Poland"',
            ),
        ),
        counterexamples=(
            Example(
                "Two pharmacists asked about stock counts",
                "not a market: people who asked are a segment",
            ),
        ),
    ),
    NodeType.SEGMENT: TypeDefinition(
        meaning="a group of people or organisations named by role, situation or trait: users, "
        "buyers, staff, customers. Roles and groups are always segments, never pains or features",
        label=LabelForm.NOUN_PHRASE,
        examples=(
            Example(
                "Night-shift nurses hand over patients by phone",
                'segment "night-shift nurses"',
            ),
            Example(
                "Approvers in the finance team sign off every invoice",
                'segment "finance team approvers"',
            ),
            Example(
                "Бухгалтеры на аутсорсе сводят выписки вручную",
                "segment «бухгалтеры на аутсорсе»",
            ),
        ),
        counterexamples=(
            Example(
                "Maria said the sign-up form is long",
                "not a segment: one named person is a source, not a group",
            ),
        ),
    ),
    NodeType.PAIN: TypeDefinition(
        meaning="a problem, cost or frustration that someone has now, stated as a fact",
        label=LabelForm.CLAUSE,
        examples=(
            Example(
                "Exports time out whenever the file is over a few megabytes",
                'pain "exports time out on large files"',
            ),
            Example(
                "Отчёт собирается полчаса, и всё это время нельзя работать",
                "pain «отчёт собирается полчаса»",
            ),
        ),
        counterexamples=(
            Example(
                "Nothing freezes any more since the update",
                "not a pain: the statement denies the problem",
            ),
            Example(
                "Больше ничего не зависает",
                "not a pain: negated («ничего не …» says the problem is absent)",
            ),
            Example(
                "I really like the calendar view",
                "not a pain: praise (at most an insight with a positive stance)",
            ),
            Example(
                "If the sync ever failed we would lose a day of work",
                "not a pain: a hypothetical that has not happened",
            ),
            Example(
                "Please add a dark theme",
                "not a pain: a requested capability is a feature",
            ),
        ),
    ),
    NodeType.JOB: TypeDefinition(
        meaning="what someone is trying to get done, whatever tool they use",
        label=LabelForm.CLAUSE,
        examples=(
            Example(
                "Every Friday I match card payments against the bank statement",
                'job "match card payments against the bank statement"',
            ),
        ),
        counterexamples=(
            Example(
                "The match button is grey",
                "not a job: a detail of the interface",
            ),
        ),
    ),
    NodeType.TRIGGER: TypeDefinition(
        meaning="the event or moment that makes a segment hit the pain or start looking for "
        "a solution",
        label=LabelForm.CLAUSE,
        examples=(
            Example(
                "When a new hire starts, the office manager sets up six accounts",
                'trigger "a new hire starts"',
            ),
        ),
        counterexamples=(
            Example(
                "Office managers set up accounts",
                "not a trigger: a routine with no event (a job)",
            ),
        ),
    ),
    NodeType.ALTERNATIVE: TypeDefinition(
        meaning="a workaround or non-product means people use today: spreadsheets, paper, "
        "phone calls, a generic tool, hiring someone",
        label=LabelForm.NOUN_PHRASE,
        examples=(
            Example(
                "We keep the rota in a shared spreadsheet",
                'alternative "shared spreadsheet"',
            ),
        ),
        counterexamples=(
            Example(
                "A spreadsheet export would help",
                "not an alternative: a requested capability is a feature",
            ),
        ),
    ),
    NodeType.COMPETITOR: TypeDefinition(
        meaning="a named company or product offering a solution to the same problem",
        label=LabelForm.NOUN_PHRASE,
        examples=(
            Example(
                "Half of them already pay for Rotaly",
                'competitor "Rotaly"',
            ),
        ),
        counterexamples=(
            Example(
                "Compared with our old version, the editor is faster",
                "not a competitor: an earlier version of the same product",
            ),
        ),
    ),
    NodeType.FEATURE: TypeDefinition(
        meaning="a capability of a product, existing or requested. A request is a feature: "
        '"please add", "I wish it had", "it would help if", «добавьте», «хотелось бы», '
        "«не хватает»",
        label=LabelForm.NOUN_PHRASE,
        examples=(
            Example("I wish it had a way to export to PDF", 'feature "export to PDF"'),
            Example(
                "Добавьте, пожалуйста, напоминания по SMS",
                "feature «напоминания по SMS»",
            ),
        ),
        counterexamples=(
            Example(
                "Export is slow",
                "not a feature: a problem with a capability is a pain",
            ),
        ),
    ),
    NodeType.METRIC: TypeDefinition(
        meaning="a measured or counted quantity; its numbers go in value and must be in the quote",
        label=LabelForm.NOUN_PHRASE,
        examples=(
            Example(
                "About 30% of trials convert to paid",
                'metric "trial-to-paid conversion", value "30%"',
            ),
        ),
        counterexamples=(
            Example(
                "Lots of people drop off",
                "not a metric: no number",
            ),
        ),
    ),
    NodeType.GOAL: TypeDefinition(
        meaning="an objective the product team or business sets for itself",
        label=LabelForm.CLAUSE,
        examples=(
            Example(
                "This quarter we want to cut onboarding to one day",
                'goal "cut onboarding to one day"',
            ),
        ),
        counterexamples=(
            Example(
                "Users want onboarding to be faster",
                "not a goal: a user's wish is a pain, job or feature",
            ),
        ),
    ),
    NodeType.RISK: TypeDefinition(
        meaning="something that may go wrong for the product or business: legal, technical, market",
        label=LabelForm.CLAUSE,
        examples=(
            Example(
                "New data-residency rules could stop us storing records abroad",
                'risk "data-residency rules could stop storing records abroad"',
            ),
        ),
        counterexamples=(
            Example(
                "The server went down yesterday",
                "not a risk: it happened (a pain if people were affected)",
            ),
        ),
    ),
    NodeType.INSIGHT: TypeDefinition(
        meaning="a finding about what people value, believe or prefer, including an opinion "
        "on a buying criterion; set subject and stance",
        label=LabelForm.CLAUSE,
        examples=(
            Example(
                "For small clinics, reliability matters more than price",
                'insight "reliability matters more than price", subject "reliability", '
                'stance "positive"',
            ),
        ),
        counterexamples=(
            Example(
                "The plan costs 20 euros a month",
                "not an insight: a plain fact with no opinion",
            ),
        ),
    ),
}


RELATION_DEFINITIONS: dict[str, RelationDefinition] = {
    "targets_market": RelationDefinition(
        "the product is aimed at this market (one market at a time)",
        Example(
            "We are building the booking app for dental clinics in Spain",
            "booking app targets_market dental clinics in Spain",
        ),
        Example(
            "A dentist from Spain also wrote to us",
            "no targets_market: interest from someone is not the chosen market",
        ),
    ),
    "serves": RelationDefinition(
        "the product is used by or built for this segment",
        Example("Warehouse pickers use our app on every shift", "app serves warehouse pickers"),
        Example(
            "Warehouse pickers work from paper lists",
            "no serves: they use an alternative (uses)",
        ),
    ),
    "has_feature": RelationDefinition(
        "the product has or is asked to have this capability",
        Example("Our app already sends SMS reminders", "app has_feature SMS reminders"),
        Example(
            "Rotaly sends SMS reminders",
            "no has_feature for our product: a competitor's capability is offers",
        ),
    ),
    "experiences": RelationDefinition(
        "the segment has the pain",
        Example(
            "Freelance translators lose hours matching invoices to payments",
            "freelance translators experiences losing hours matching invoices",
        ),
        Example(
            "Freelance translators say invoicing is fine now",
            "no experiences: no pain is stated",
        ),
    ),
    "has_job": RelationDefinition(
        "the segment is trying to get the job done",
        Example(
            "Site managers need to order materials before 8 am",
            "site managers has_job order materials before 8 am",
        ),
        Example(
            "Site managers hate the ordering form",
            "no has_job: a complaint is a pain (experiences)",
        ),
    ),
    "triggered_by": RelationDefinition(
        "the segment acts or hits the pain when the trigger happens",
        Example(
            "Landlords start looking for a tool when a tenant moves out",
            "landlords triggered_by a tenant moves out",
        ),
        Example("Landlords collect rent monthly", "no triggered_by: a routine, not an event"),
    ),
    "uses": RelationDefinition(
        "the segment uses this alternative or competitor today",
        Example("Small bakeries track orders on paper", "small bakeries uses paper"),
        Example(
            "Small bakeries tried Rotaly once and dropped it",
            "no uses: they stopped using it",
        ),
    ),
    "blocks": RelationDefinition(
        "the pain stops or slows the job",
        Example(
            "Because the scanner app crashes, drivers cannot confirm deliveries",
            "scanner app crashes blocks confirm deliveries",
        ),
        Example(
            "The scanner app crashes; drivers also confirm deliveries by phone",
            "no blocks: the message does not say one prevents the other",
        ),
    ),
    "caused_by": RelationDefinition(
        "the trigger happens because of the pain",
        Example(
            "After reminders failed to arrive twice, the clinic started looking for a new tool",
            "the clinic started looking for a new tool caused_by reminders failed to arrive",
        ),
        Example(
            "Reminders fail to arrive; separately, the clinic renewed its lease",
            "no caused_by: no cause is stated",
        ),
    ),
    "addresses": RelationDefinition(
        "the alternative or competitor is how people get around the pain",
        Example(
            "Drivers use a group chat to make up for the missing status updates",
            "group chat addresses missing status updates",
        ),
        Example(
            "Drivers have a group chat, and status updates are missing",
            "no addresses: the message does not link them",
        ),
    ),
    "offers": RelationDefinition(
        "the competitor has this capability",
        Example("Rotaly has an offline mode", "Rotaly offers offline mode"),
        Example(
            "We should build an offline mode",
            "no offers: no competitor is named (a feature of our product)",
        ),
    ),
    "competes_with": RelationDefinition(
        "the competitor is a rival to the product",
        Example(
            "Shops compare our app with Rotaly before buying",
            "Rotaly competes_with our app",
        ),
        Example(
            "We take payments through Rotaly",
            "no competes_with: a partner, not a rival",
        ),
    ),
    "targets": RelationDefinition(
        "the competitor aims at this segment",
        Example("Rotaly markets itself to hotel chains", "Rotaly targets hotel chains"),
        Example(
            "A hotel chain once asked us about Rotaly",
            "no targets: the message does not say Rotaly aims at them",
        ),
    ),
    "solves": RelationDefinition(
        "the feature removes or reduces the pain",
        Example(
            "Bulk import would end retyping every order by hand",
            "bulk import solves retyping every order by hand",
        ),
        Example(
            "We added bulk import, but retyping is still a problem",
            "no solves: the message says it does not fix it",
        ),
    ),
    "supports": RelationDefinition(
        "the feature helps get the job done",
        Example(
            "Calendar sync lets tutors plan the week in one place",
            "calendar sync supports plan the week in one place",
        ),
        Example(
            "Tutors plan the week on Sundays; calendar sync is new",
            "no supports: the message does not link them",
        ),
    ),
    "measured_by": RelationDefinition(
        "the goal or pain is measured by the metric",
        Example(
            "We want to cut churn; monthly churn is 6%",
            "cut churn measured_by monthly churn (value 6%)",
        ),
        Example(
            "Churn worries us, and the team grew to 12 people",
            "no measured_by: team size does not measure churn",
        ),
    ),
    "threatens": RelationDefinition(
        "the risk endangers the goal, product or feature",
        Example(
            "A ban on marketing texts would kill our reminder feature",
            "a ban on marketing texts threatens reminder feature",
        ),
        Example(
            "Text messages got more expensive last year",
            "no threatens: a past fact is not a risk",
        ),
    ),
    "values": RelationDefinition(
        "the segment holds the insight",
        Example(
            "For small clinics, reliability matters more than price",
            "small clinics values reliability matters more than price",
        ),
        Example(
            "Reliability matters more than price",
            "no values: no segment is named (the insight alone)",
        ),
    ),
}


GENERAL_RULES: tuple[str, ...] = (
    "Extract only what the message states. Negated, hypothetical or conditional statements "
    "are not findings of what they deny or imagine.",
    "Repeated legal or boilerplate text (confidentiality notices, licence headers, "
    "signatures, cookie or terms-of-service text, templates) is never a finding.",
    "A label is a whole phrase in the message's language: a noun phrase or a clause as each "
    "type says. Never a fragment cut mid-phrase, a URL, a file path, a table row or code.",
    "The project's name is context only. Never create a product node because of it; create "
    "one only for a product the message talks about, labelled as the message names it.",
    "Every quote is copied word for word from the message: the shortest span that still "
    "states the fact. Every number in a metric's value or label appears in its quote.",
    "subject (for opinions, mostly insights): a short lowercase English noun phrase naming "
    'what the opinion is about ("price", "ease of use"), whatever the message\'s language. '
    "When one of the known subjects means the same thing, copy it exactly: contradictions are "
    "found by equal subjects. stance: positive when the message says the subject matters or "
    "is good, negative when it does not matter or is bad; empty for everything else.",
    "Use only the node types and relations below, each relation only between its listed "
    "types. Do not invent facts.",
)


def _example(example: Example) -> str:
    return f'"{example.said}" → {example.reading}'


def render_definitions() -> str:
    lines = ["Node types:"]
    for node_type in NodeType:
        definition = NODE_TYPE_DEFINITIONS[node_type]
        lines.append(f"- {node_type.value}: {definition.meaning}. Label: {definition.label}.")
        lines += [f"  Yes: {_example(e)}" for e in definition.examples]
        lines += [f"  No: {_example(e)}" for e in definition.counterexamples]
    lines.append("Relations (source type → target type):")
    for name, relation in RELATIONS.items():
        definition = RELATION_DEFINITIONS[name]
        pairs = ", ".join(sorted(f"{s.value} → {t.value}" for s, t in relation.pairs))
        lines.append(f"- {name} ({pairs}): {definition.meaning}.")
        lines.append(f"  Yes: {_example(definition.example)}")
        lines.append(f"  No: {_example(definition.counterexample)}")
    return "\n".join(lines)


SYSTEM_HEAD = """You extract product-research facts from one message of a product manager's notes.
Answer with one JSON object: {"nodes": [...], "relations": [...]}.
Node: {"ref": "n1", "type": <node type>, "label": <whole phrase>, "quote": <verbatim words>,
"value": <metric value with numbers, else "">, "subject": <what an opinion is about, else "">,
"stance": "positive"|"negative"|"", "aliases": [], "same_as": <known node number or null>}.
Relation: {"relation": <name>, "source": <ref>, "target": <ref>, "quote": <verbatim words>}.
Known nodes are facts the project already holds, each with its number. When the message states
one of them again (in any words), still extract it with its own quote and set "same_as" to its
number; leave "same_as" null for anything new. A relation may name a known node as "#<number>"
in place of a ref, when the message itself states the relation."""


# How a message is read when its import said what it is (ExtractionRequest.records).
RECORD_READINGS: dict[str, str] = {
    "bug_report": "a bug report from an issue tracker. A part of the product it names is where "
    "the fault is: name that part inside the pain, not as a feature. A feature is only one the "
    "report asks for.",
}


def record_reading(records: str) -> str:
    """The line that tells the model what a message is, or "" when its import did not say."""
    reading = RECORD_READINGS.get(records)
    return f"The message is {reading}" if reading else ""


def extraction_messages(
    head: str,
    *,
    product: str,
    language: str,
    known_subjects: list[str],
    known_nodes: list[KnownNode],
    text: str,
    records: str = "",
) -> list[dict[str, str]]:
    """The chat messages of an extraction: `head` (one message or a batch), the rules and the
    definitions; then what the project already knows, what the message is when its import
    said so (`records`), and `text`, the message(s) to read."""
    rules = "\n".join(f"- {rule}" for rule in GENERAL_RULES)
    subjects = known_subjects[:MAX_KNOWN_SUBJECTS]
    known = json.dumps(subjects, ensure_ascii=False) if subjects else "none yet"
    lines = [
        f"Project name (context only, not a product by itself): {product}"
        if product.strip()
        else "",
        f"Language: {language}",
        f"Known subjects: {known}",
        "Known nodes:\n" + "\n".join(_known_node(n) for n in known_nodes)
        if known_nodes
        else "Known nodes: none",
        record_reading(records),
        text,
    ]
    return [
        {"role": "system", "content": f"{head}\nRules:\n{rules}\n{render_definitions()}"},
        {"role": "user", "content": "\n".join(line for line in lines if line)},
    ]


def build_messages(request: ExtractionRequest) -> list[dict[str, str]]:
    return extraction_messages(
        SYSTEM_HEAD,
        product=request.product,
        language=request.language,
        known_subjects=request.known_subjects,
        known_nodes=request.known_nodes[:MAX_KNOWN_NODES],
        text=f"Message:\n{request.text}",
        records=request.records,
    )


def _known_node(node: KnownNode) -> str:
    aliases = f" (also: {'; '.join(node.aliases)})" if node.aliases else ""
    return f"#{node.number} {node.type}: {node.label}{aliases}"


def repair_message(reasons: list[str]) -> dict[str, str]:
    """Sent after the first answer when some items were rejected."""
    listed = "\n".join(f"- {reason}" for reason in reasons)
    return {
        "role": "user",
        "content": "Some items were rejected:\n" + listed + "\nAnswer again with the whole "
        "corrected JSON object. Copy quotes word for word from the message; drop what the "
        "message does not say.",
    }


OPERATION: StructuredOperation[ExtractionRequest, ExtractionResponse] = StructuredOperation(
    name="extraction",
    response_model=ExtractionResponse,
    build_messages=build_messages,
    offline_answer=extract_offline,
    schema_model=ExtractionSchema,
)

RELATION_NAMES = tuple(RELATIONS)
