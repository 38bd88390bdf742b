"""PRD generation: context → writer → system checks → one repair round → (reviewer) → version.

generate_prd is the one entry point (command, task, API, pages all call it). The model, or the
offline template engine, only proposes claims that cite node numbers; the system checks each
claim (artifacts.checks), builds every citation from the context itself, generates the open
questions and the evidence appendix, and freezes the result as a new version. The context's
org insights (what other projects of the organization hold too) are frozen with the version's
report and rendered apart from the claims: they cite nothing and are not this project's evidence.

Each section shows the highest-priority items within a length budget and says how many more
the research view holds (artifacts.prd_selection); the context is read bounded from the graph.

Two keys decide whether anything has to be written. The revision key — the project's graph
revision (kg.pipeline.revision), for the org insights the organization's project revisions and
org memory stamp, and the generation parameters (as_of, engine, model, review, budget) —
answers an unchanged regeneration without reading the graph. When it differs, the bounded
context is read and hashed (sorted JSON, plus the writer model): the same hash still returns
the latest version, and no model is called.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
import time
import uuid
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field

from django.apps import apps
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, Max
from django.utils import timezone

from artifacts.checks import (
    CheckedClaim,
    ContextIndex,
    Draft,
    FailedClaim,
    check_claim,
    claim_key,
    evidence_order,
)
from artifacts.decisions import Decision
from artifacts.editing import edits_not_kept
from artifacts.models import (
    Artifact,
    ArtifactKind,
    ArtifactVersion,
    Citation,
    Claim,
    ClaimKind,
    Section,
    Stage,
    VersionStatus,
)
from artifacts.prd_selection import (
    left_out,
    section_budget,
    select_context,
    within_budget,
)
from artifacts.prompts import prd_reviewer, prd_writer
from artifacts.sections import INSTRUCTIONS, WRITER_SECTIONS, title, words
from artifacts.versions import complete_versions, latest_version, version_by_number
from kg.commands import queue_task
from kg.llm import LLMOutputError, call_llm, call_llm_repairing_json
from kg.llm.engines import OfflineEngine, OpenAIEngine, current_engine
from kg.models import Project, ProjectRevision
from kg.read_models import (
    ArtifactContext,
    ContextNode,
    EvidenceView,
    locate_quote,
    normalise,
    numbers_in,
    numbers_missing,
    project_revision,
)
from kg.tenancy import product_name

logger = logging.getLogger("groundwork.artifacts")

# Part of the context hash: bump when the prompt, the checks or the offline engine change, so
# an unchanged graph still gets a new version written by the new code.
WRITER_REVISION = "prd-writer-4"

ProgressCallback = Callable[[str], None]


class GenerationError(RuntimeError):
    """The writer gave no usable answer, even after one repair request."""


# --- inputs ---------------------------------------------------------------------------------


def parse_as_of(text: str | None) -> dt.datetime | None:
    """ISO-8601 date or time; a date alone means the end of that day (UTC)."""
    if text is None or not str(text).strip():
        return None
    value = str(text).strip()
    try:
        if len(value) == 10:
            day = dt.date.fromisoformat(value)
            return dt.datetime.combine(day, dt.time.max, tzinfo=dt.UTC)
        moment = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(
            f"{value!r} is not an ISO-8601 date or time (e.g. 2026-03-05 or 2026-03-05T12:00:00Z)"
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)


def revision_key(
    project: Project,
    as_of: dt.datetime | None,
    engine: OpenAIEngine | OfflineEngine,
    review: bool,
    budget: int,
) -> str:
    """What an unchanged regeneration is recognised by, read from SQL only (two small queries).

    Without as_of the PRD also shows org insights, which other projects' graphs feed: their
    revisions are part of the key then."""
    organization: list[list[int]] = []
    if as_of is None:
        organization = [
            [project_id, revision]
            for project_id, revision in ProjectRevision.objects.filter(
                project__organization_id=project.organization_id
            )
            .order_by("project_id")
            .values_list("project_id", "revision")
        ]
    payload = {
        "revision": project_revision(project),
        "organization": organization,
        "org_memory": org_memory_stamp(project) if as_of is None else None,
        "as_of": as_of.astimezone(dt.UTC).isoformat() if as_of else None,
        "language": project.language,
        "product": product_name(project),
        "engine": engine.name,
        "writer_model": engine.model,
        "review": review,
        "budget": budget,
        "writer_revision": WRITER_REVISION,
    }
    encoded = json.dumps(payload, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(encoded).hexdigest()


def org_memory_stamp(project: Project) -> list:
    """How many org insights the organization holds and when one last changed.

    Promotion writes them after the graph changed (and without changing any graph), so the
    graph revisions alone would keep a PRD's org block stale. The org memory reaches the
    context only through a registered provider (kg.reading.context); it is read here by app
    label, so artifacts imports none of its code. Without the app, there is nothing to watch."""
    if not apps.is_installed("orgmemory"):
        return []
    insights = apps.get_model("orgmemory", "OrgInsight").objects
    found = insights.filter(organization_id=project.organization_id).aggregate(
        count=Count("pk"), changed=Max("updated_at")
    )
    changed = found["changed"]
    return [found["count"], changed.isoformat() if changed else None]


def context_hash(
    context: ArtifactContext, writer_model: str, review: bool, selection: dict | None = None
) -> str:
    """Stable over list order: nodes, evidence, edges, gaps and contradictions are sorted."""
    data = context.model_dump(mode="json")
    for node in data["nodes"]:
        node["aliases"] = sorted(node["aliases"])
        node["evidence"] = sorted(
            node["evidence"], key=lambda e: (e["date"], e["episode_number"], e["start"])
        )
    data["nodes"] = sorted(data["nodes"], key=lambda n: n["number"])
    for edge in data["edges"]:
        edge["quotes"] = sorted(edge["quotes"])
    data["edges"] = sorted(data["edges"], key=lambda e: e["uid"])
    data["gaps"] = sorted(data["gaps"], key=lambda g: (g["rule"], g["node"] or 0))
    data["contradictions"] = sorted(data["contradictions"], key=lambda c: c["uid"])
    # Org insights are hashed too: a new one (or one gone) makes a new version to show it.
    data["org_insights"] = sorted(
        data["org_insights"], key=lambda i: (i["node_type"], i["label"], i["local_nodes"])
    )
    payload = {
        "context": data,
        "writer_model": writer_model,
        "revision": WRITER_REVISION,
        "review": review,
        "selection": selection or {},
    }
    encoded = json.dumps(payload, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(encoded).hexdigest()


# --- queries --------------------------------------------------------------------------------


def prd_artifact(project: Project) -> Artifact:
    artifact, _ = Artifact.objects.get_or_create(project=project, kind=ArtifactKind.PRD)
    return artifact


def run_for_project(project: Project, run_id: int) -> ArtifactVersion:
    """A generation run (any status) of this project; raises ArtifactVersion.DoesNotExist."""
    return ArtifactVersion.objects.select_related("same_as").get(
        pk=run_id, artifact__project=project
    )


@dataclass(frozen=True)
class PrdPage:
    """What the PRD page shows: one version, the others to choose from, runs in progress."""

    version: ArtifactVersion | None
    versions: list[ArtifactVersion]
    runs: list[ArtifactVersion]


def prd_page(project: Project, number: int | None = None) -> PrdPage:
    """Raises ArtifactVersion.DoesNotExist for a version number the project does not have."""
    versions = list(complete_versions(project).defer("markdown", "report"))
    version = latest_version(project) if number is None else version_by_number(project, number)
    runs = list(
        ArtifactVersion.objects.filter(
            artifact__project=project,
            status__in=[VersionStatus.PENDING, VersionStatus.RUNNING],
        )
        .defer("markdown", "report")
        .order_by("-created_at")[:5]
    )
    return PrdPage(version=version, versions=versions, runs=runs)


def shown_version(run: ArtifactVersion) -> ArtifactVersion | None:
    """The complete version a run ended in (itself, or the one it reused)."""
    if run.status == VersionStatus.COMPLETE:
        return run
    if run.status == VersionStatus.REUSED:
        return run.same_as
    return None


# --- starting a run in the background -------------------------------------------------------


def start_prd_generation(project: Project, as_of: dt.datetime | None = None) -> ArtifactVersion:
    """Record a pending run and queue the task once the transaction commits."""
    task_id = str(uuid.uuid4())
    run = ArtifactVersion.objects.create(
        artifact=prd_artifact(project),
        language=project.language,
        as_of=as_of,
        status=VersionStatus.PENDING,
        stage=Stage.QUEUED,
        task_id=task_id,
    )
    kwargs = {
        "project_id": project.pk,
        "as_of_iso": as_of.isoformat() if as_of else None,
        "version_id": run.pk,
    }
    transaction.on_commit(
        lambda: queue_task("artifacts.generate_prd", kwargs=kwargs, task_id=task_id)
    )
    return run


# --- the generation pipeline ----------------------------------------------------------------


@dataclass
class _Slot:
    """One claim position: the writer's draft and what the checks made of it."""

    draft: Draft
    result: CheckedClaim | FailedClaim


@dataclass
class _Outcome:
    claims: list[CheckedClaim] = field(default_factory=list)
    dropped: list[dict] = field(default_factory=list)
    repaired: int = 0
    reviewer: dict = field(default_factory=dict)


class _Progress:
    """Reports the stage to the caller and, once the run has a row, stores it there."""

    def __init__(self, callback: ProgressCallback | None) -> None:
        self.callback = callback
        self.run: ArtifactVersion | None = None

    def __call__(self, stage: str) -> None:
        if self.run is not None:
            self.run.stage = stage
            ArtifactVersion.objects.filter(pk=self.run.pk).update(
                stage=stage, status=VersionStatus.RUNNING
            )
        if self.callback is not None:
            self.callback(stage)


def _review_enabled(review: bool | None, engine: OpenAIEngine | OfflineEngine) -> bool:
    if engine.name != "openai":
        return False  # the offline engine has nothing to add to its own templates
    return getattr(settings, "PRD_REVIEW", True) if review is None else review


def generate_prd(
    project: Project,
    as_of: dt.datetime | None = None,
    progress: ProgressCallback | None = None,
    *,
    version: ArtifactVersion | None = None,
    review: bool | None = None,
) -> ArtifactVersion:
    """Generate (or reuse) the project's PRD and return the complete version.

    `version` is a pending run made by start_prd_generation; without it a run row is created
    only when something new has to be written. `review` defaults to settings.PRD_REVIEW (on)
    and applies with a real model only.
    """
    if version is not None and version.status in (VersionStatus.COMPLETE, VersionStatus.REUSED):
        return shown_version(version) or version  # a retried task: the work is done
    report = _Progress(progress)
    report.run = version
    try:
        return _generate(project, as_of, report, version, review)
    except Exception as exc:
        if report.run is not None:
            ArtifactVersion.objects.filter(pk=report.run.pk).exclude(
                status=VersionStatus.COMPLETE
            ).update(status=VersionStatus.FAILED, error=f"{type(exc).__name__}: {exc}"[:4000])
        raise


def _reusable(artifact: Artifact, key: str) -> ArtifactVersion | None:
    """The latest complete version, when it was made — or last reused — at this revision key."""
    latest = artifact.versions.complete().order_by("-number").first()
    if latest is None:
        return None
    if latest.revision_key == key:
        return latest
    reused_here = ArtifactVersion.objects.filter(
        artifact=artifact, status=VersionStatus.REUSED, same_as=latest, revision_key=key
    )
    return latest if reused_here.exists() else None


def _reuse(
    artifact: Artifact,
    latest: ArtifactVersion,
    run: ArtifactVersion | None,
    key: str,
    progress: _Progress,
    record: bool,
) -> ArtifactVersion:
    """Answer with the latest version. `record`: remember the revision key on a reused run, so
    the next regeneration at this revision is answered without reading the graph."""
    if run is None and record:
        run = ArtifactVersion.objects.create(
            artifact=artifact, language=latest.language, as_of=latest.as_of
        )
    if run is not None:
        ArtifactVersion.objects.filter(pk=run.pk).update(
            status=VersionStatus.REUSED, stage=Stage.DONE, same_as=latest, revision_key=key
        )
    if progress.callback is not None:
        progress.callback(Stage.DONE)
    return latest


def _generate(
    project: Project,
    as_of: dt.datetime | None,
    progress: _Progress,
    run: ArtifactVersion | None,
    review: bool | None,
) -> ArtifactVersion:
    started = time.monotonic()
    engine = current_engine()
    reviewing = _review_enabled(review, engine)
    budget = section_budget()
    artifact = prd_artifact(project)
    key = revision_key(project, as_of, engine, reviewing, budget)
    latest = _reusable(artifact, key)
    if latest is not None:
        return _reuse(artifact, latest, run, key, progress, record=False)

    progress(Stage.CONTEXT)
    selection = select_context(project, as_of, budget)
    context = selection.context
    digest = context_hash(context, engine.model, reviewing, selection.fingerprint())
    latest = artifact.versions.complete().order_by("-number").first()
    if latest is not None and latest.context_hash == digest:
        return _reuse(artifact, latest, run, key, progress, record=True)

    if run is None:
        run = ArtifactVersion.objects.create(artifact=artifact, language=project.language)
    run.language = context.language
    run.as_of = as_of
    run.context_hash = digest
    run.revision_key = key
    run.engine = engine.name
    run.writer_model = engine.model
    run.status = VersionStatus.RUNNING
    run.error = ""
    run.save()
    progress.run = run
    timings = {"context_ms": _ms(started)}

    relations = selection.edge_evidence
    index = ContextIndex.of(context, relations)
    outcome = _Outcome()
    if context.nodes:
        request = writer_request(project, context, relations, withheld=selection.disputed)
        outcome = _write_and_check(project, request, index, progress, engine, reviewing)
        outcome.claims = _undisputed(outcome, selection.disputed)
    timings["writing_ms"] = _ms(started) - timings["context_ms"]

    progress(Stage.RENDERING)
    kept, over_budget = within_budget(outcome.claims, index, budget, selection.priorities)
    plan = _plan_claims(context, index, kept, budget, selection.decisions)
    questions = sum(p.section == Section.OPEN_QUESTIONS for p in plan)
    report = {
        "engine": engine.name,
        "writer_model": engine.model,
        "dropped": outcome.dropped,
        "repaired": outcome.repaired,
        "reviewer": outcome.reviewer,
        "context": {
            "nodes": len(context.nodes),
            "edges": len(context.edges),
            "gaps": len(context.gaps),
            "contradictions": len(context.contradictions),
            "average_confidence": context.average_confidence,
            "project_nodes": sum(selection.totals.values()),
        },
        "budget": budget,
        "over_budget": len(over_budget),
        # Counts only: the pointer's words and its link are made when the PRD is shown.
        "more": left_out(selection, index, kept, questions).as_report(),
        "counts": _counts(plan),
        # The quotes of each node the appendix leaves out (shown on the node's page).
        "appendix_more": appendix_left_out(plan, index),
        # The requirements' scores and their parts, best first (artifacts.priorities): the
        # requirements section shows each one's rank and why.
        "priorities": [p.as_report() for p in selection.priorities],
        # Frozen with the version; shown apart from the claims (never evidence of this project).
        "org_insights": [i.model_dump(mode="json") for i in context.org_insights],
    }
    # Edits people made to the latest version that this one does not hold: shown, not lost.
    written = {(p.section, p.text) for p in plan}
    report["edits_not_kept"] = edits_not_kept(latest, written)
    _persist(run, plan, report, timings, started)
    progress.run = None  # frozen now: the stage was stored with the version
    progress(Stage.DONE)
    return run


def _ms(started: float) -> int:
    return int((time.monotonic() - started) * 1000)


def _undisputed(outcome: _Outcome, disputed: frozenset[int]) -> list[CheckedClaim]:
    """The checked claims that state no side of an open contradiction; the others are listed
    as dropped (the writer was not shown those nodes, but a model may cite them anyway)."""
    kept = []
    for claim in outcome.claims:
        contested = sorted(set(claim.nodes) & disputed)
        if not contested:
            kept.append(claim)
            continue
        listed = ", ".join(f"#{n}" for n in contested)
        draft = Draft(section=claim.section, text=claim.text, nodes=claim.nodes)
        reason = f"node(s) {listed} are in an open contradiction: asked under open questions"
        outcome.dropped.append(_dropped(draft, reason))
    return kept


def writer_request(
    project: Project,
    context: ArtifactContext,
    relations: dict[str, list[EvidenceView]] | None = None,
    withheld: Collection[int] = (),
) -> prd_writer.WriterRequest:
    """`relations` (edge_evidence) gives the edges' quotes as of the context's moment.

    `withheld` node numbers (the sides of open contradictions) are not sent: the PRD asks about
    them under open questions and must not state either side as a fact."""

    def edge_quotes(uid: str, quotes: list[str]) -> list[str]:
        if relations is not None:
            quotes = [e.quote for e in evidence_order(relations.get(uid, []))]
        return list(dict.fromkeys(quotes))[: prd_writer.MAX_QUOTES_PER_NODE]

    nodes = [
        prd_writer.NodeLine(
            number=n.number,
            type=n.type,
            label=n.label,
            aliases=n.aliases,
            confidence=n.confidence,
            value=n.value,
            evidence_count=len(n.episode_numbers),
            quotes=[e.quote for e in n.evidence[: prd_writer.MAX_QUOTES_PER_NODE]],
        )
        for n in sorted(context.nodes, key=lambda n: n.number)
        if n.number not in withheld
    ]
    edges = [
        prd_writer.EdgeLine(
            relation=e.relation,
            source=e.source,
            target=e.target,
            quotes=edge_quotes(e.uid, e.quotes),
        )
        for e in sorted(context.edges, key=lambda e: (e.source, e.relation, e.target))
        if e.source not in withheld and e.target not in withheld
    ]
    sections = [
        prd_writer.SectionSpec(
            key=key, title=title(key, context.language), instruction=INSTRUCTIONS[key]
        )
        for key in WRITER_SECTIONS
    ]
    return prd_writer.WriterRequest(
        product=product_name(project),
        language=context.language,
        as_of=context.as_of,
        sections=sections,
        nodes=nodes,
        edges=edges,
    )


def _ask_writer(
    project: Project,
    request: prd_writer.WriterRequest,
    extra: list[dict[str, str]],
    engine: OpenAIEngine | OfflineEngine,
) -> tuple[prd_writer.WriterResponse, str]:
    """The writer's answer and its raw text; a broken answer is sent back once."""
    try:
        result = call_llm_repairing_json(
            prd_writer.OPERATION, request, project=project, extra_messages=extra, engine=engine
        )
    except LLMOutputError as error:
        raise GenerationError(f"the writer gave no usable answer: {error}") from None
    return result.value, result.call.raw_output


def _drafts(answer: prd_writer.WriterResponse) -> list[Draft]:
    return [
        Draft(section=s.key, text=c.text, nodes=tuple(c.nodes))
        for s in answer.sections
        for c in s.claims
    ]


def _dropped(draft: Draft, reason: str) -> dict:
    return {
        "section": draft.section,
        "text": draft.text,
        "nodes": list(draft.nodes),
        "reason": reason,
    }


def _positional(
    pending: list[int], slots: list[_Slot], answer: prd_writer.WriterResponse
) -> dict[int, Draft]:
    """Match an answer's claims to the slots sent back: i-th claim of a section ↔ i-th slot."""
    by_section: dict[str, list[int]] = {}
    for i in pending:
        by_section.setdefault(slots[i].draft.section, []).append(i)
    matched: dict[int, Draft] = {}
    for section in answer.sections:
        targets = by_section.get(section.key, [])
        for i, claim in zip(targets, section.claims, strict=False):
            matched[i] = Draft(section=section.key, text=claim.text, nodes=tuple(claim.nodes))
    return matched


def _write_and_check(
    project: Project,
    request: prd_writer.WriterRequest,
    index: ContextIndex,
    progress: _Progress,
    engine: OpenAIEngine | OfflineEngine,
    reviewing: bool,
) -> _Outcome:
    outcome = _Outcome()
    progress(Stage.WRITING)
    answer, raw = _ask_writer(project, request, [], engine)

    progress(Stage.CHECKING)
    known = set(WRITER_SECTIONS)
    slots: list[_Slot] = []
    for draft in _drafts(answer):
        if draft.section not in known:
            outcome.dropped.append(_dropped(draft, f"unknown section {draft.section!r}"))
            continue
        slots.append(_Slot(draft=draft, result=check_claim(draft, index)))

    failing = {i: s.result for i, s in enumerate(slots) if isinstance(s.result, FailedClaim)}
    if failing and engine.name != "openai":
        # The offline engine answers the same request the same way: asking again would only
        # pair the failed claims with other claims of the answer.
        for i, failed in failing.items():
            outcome.dropped.append(_dropped(slots[i].draft, failed.reason))
    elif failing:
        progress(Stage.REPAIR)
        message = prd_writer.repair_message(
            [
                (slots[i].draft.section, slots[i].draft.text, list(slots[i].draft.nodes), f.reason)
                for i, f in failing.items()
            ]
        )
        extra = [{"role": "assistant", "content": raw}, message]
        repair_answer, _ = _ask_writer(project, request, extra, engine)
        matched = _positional(list(failing), slots, repair_answer)
        for i, failed in failing.items():
            fix = matched.get(i)
            if fix is None:
                outcome.dropped.append(_dropped(slots[i].draft, failed.reason + " (not repaired)"))
            elif not fix.text.strip():
                outcome.dropped.append(_dropped(slots[i].draft, failed.reason + " (given up)"))
            else:
                result = check_claim(fix, index)
                if isinstance(result, FailedClaim):
                    outcome.dropped.append(_dropped(fix, "after repair: " + result.reason))
                else:
                    slots[i] = _Slot(draft=fix, result=result)
                    outcome.repaired += 1

    accepted = [i for i, s in enumerate(slots) if isinstance(s.result, CheckedClaim)]
    if reviewing and accepted:
        progress(Stage.REVIEW)
        outcome.reviewer = _review(project, request, raw, slots, accepted, index, engine, outcome)

    seen: set[tuple[str, str]] = set()
    for slot in slots:
        if not isinstance(slot.result, CheckedClaim):
            continue
        key = claim_key(slot.result.section, slot.result.text)
        if key in seen:
            outcome.dropped.append(_dropped(slot.draft, "duplicate of an earlier claim"))
            continue
        seen.add(key)
        outcome.claims.append(slot.result)
    return outcome


def _review(
    project: Project,
    request: prd_writer.WriterRequest,
    raw: str,
    slots: list[_Slot],
    accepted: list[int],
    index: ContextIndex,
    engine: OpenAIEngine | OfflineEngine,
    outcome: _Outcome,
) -> dict:
    """Reviewer remarks → validated → one writer round for the claims remarked on."""
    claims = [c for c in (slots[i].result for i in accepted) if isinstance(c, CheckedClaim)]
    cited = sorted({n for c in claims for n in c.nodes})
    review_request = prd_reviewer.ReviewRequest(
        language=request.language,
        claims=[
            prd_reviewer.ReviewedClaim(section=c.section, text=c.text, nodes=list(c.nodes))
            for c in claims
        ],
        nodes=[
            prd_reviewer.ReviewedNode(
                number=n,
                type=index.nodes[n].type,
                label=index.nodes[n].label,
                confidence=index.nodes[n].confidence,
                quotes=[e.quote for e in index.nodes[n].evidence[: prd_writer.MAX_QUOTES_PER_NODE]],
            )
            for n in cited
        ],
    )
    try:
        answer = call_llm(
            prd_reviewer.OPERATION, review_request, project=project, engine=engine
        ).value
    except LLMOutputError as exc:
        return {"remarks": [], "ignored": [], "error": f"reviewer answer unusable: {exc}"[:500]}

    remarks: list[dict] = []
    ignored: list[dict] = []
    remarked: dict[int, list[str]] = {}
    for remark in answer.remarks:
        entry = {"quote": remark.quote, "nodes": remark.nodes, "remark": remark.remark}
        targets = [
            i
            for i in accepted
            if remark.quote.strip() and locate_quote(remark.quote, slots[i].draft.text)
        ]
        unknown = [n for n in remark.nodes if n not in index.nodes]
        if not targets:
            ignored.append(entry | {"reason": "the quote is not in the PRD"})
        elif not remark.nodes or unknown:
            reason = (
                "names no node"
                if not remark.nodes
                else "names nodes that do not exist: " + ", ".join(f"#{n}" for n in unknown)
            )
            ignored.append(entry | {"reason": reason})
        else:
            remarks.append(entry | {"claims": [slots[i].draft.text for i in targets]})
            for i in targets:
                remarked.setdefault(i, []).append(remark.remark)
    if not remarked:
        return {"remarks": remarks, "ignored": ignored}

    pending = sorted(remarked)
    message = prd_reviewer.review_repair_message(
        [
            (
                slots[i].draft.section,
                slots[i].draft.text,
                list(slots[i].draft.nodes),
                " / ".join(remarked[i]),
            )
            for i in pending
        ]
    )
    extra = [{"role": "assistant", "content": raw}, message]
    rewrite, _ = _ask_writer(project, request, extra, engine)
    matched = _positional(pending, slots, rewrite)
    outcomes: dict[str, str] = {}
    for i in pending:
        original = slots[i]
        fix = matched.get(i)
        if fix is None:
            outcomes[original.draft.text] = "kept: the writer did not rewrite it"
        elif not fix.text.strip():
            outcome.dropped.append(
                _dropped(original.draft, "withdrawn after a reviewer remark: " + remarked[i][0])
            )
            slots[i] = _Slot(
                draft=original.draft, result=FailedClaim(original.draft, ("withdrawn",))
            )
            outcomes[original.draft.text] = "withdrawn"
        else:
            result = check_claim(fix, index)
            if isinstance(result, FailedClaim):
                outcomes[original.draft.text] = "kept: the rewrite failed the checks: " + (
                    result.reason
                )
            else:
                slots[i] = _Slot(draft=fix, result=result)
                outcomes[original.draft.text] = "rewritten"
    for entry in remarks:
        entry["outcome"] = "; ".join(sorted({outcomes.get(t, "") for t in entry["claims"]}))
    return {"remarks": remarks, "ignored": ignored}


# --- from checked claims to rows ------------------------------------------------------------


@dataclass
class _CitationPlan:
    node: ContextNode
    evidence: EvidenceView
    confirmed_in: list[int]


@dataclass
class _ClaimPlan:
    section: str
    text: str
    kind: str
    nodes: list[int]
    citations: list[_CitationPlan]


def _evidence_order(node: ContextNode) -> list[EvidenceView]:
    return evidence_order(node.evidence)


def _covered(text_numbers: list[str], text: str, quote: str) -> set[str]:
    missing = set(numbers_missing(text, quote))
    return {n for n in text_numbers if n not in missing}


def cite(
    node: ContextNode,
    text: str = "",
    prefer_quote: str = "",
    anchors: tuple[EvidenceView, ...] = (),
) -> list[_CitationPlan]:
    """Which quotes of a node to show for a claim; the node's other episodes are 'confirmed in'.

    The first quotes shown are the anchors the checks grounded the node in (its own quote, or
    the quote of a relation the claim states); without them, the quote holding most of the
    claim's numbers (else `prefer_quote`, else the earliest). Further quotes are added only for
    numbers still not shown.
    """
    evidence = _evidence_order(node)
    if not evidence and not anchors:
        return []
    wanted = numbers_in(text)
    shown: list[EvidenceView] = list(anchors)
    remaining = set(wanted)
    for anchor in anchors:
        remaining -= _covered(sorted(remaining), text, anchor.quote)
    preferred = normalise(prefer_quote) if prefer_quote else ""
    while True:
        best, best_cover = None, set()
        for e in evidence:
            if e in shown:
                continue
            cover = _covered(sorted(remaining), text, e.quote) if remaining else set()
            if len(cover) > len(best_cover):
                best, best_cover = e, cover
        if best is None:
            break
        shown.append(best)
        remaining -= best_cover
        if not remaining:
            break
    if not shown:
        match = next((e for e in evidence if preferred and normalise(e.quote) == preferred), None)
        shown.append(match or evidence[0])
    shown_episodes = {e.episode_number for e in shown}
    confirmed = sorted({e.episode_number for e in evidence} - shown_episodes)
    return [_CitationPlan(node=node, evidence=e, confirmed_in=confirmed) for e in shown]


def _plan_claims(
    context: ArtifactContext,
    index: ContextIndex,
    claims: list[CheckedClaim],
    budget: int,
    decisions: Sequence[Decision] = (),
) -> list[_ClaimPlan]:
    """`claims` in document order (within_budget); what answers decided, then open questions
    cut at the budget."""
    plans: list[_ClaimPlan] = []
    for claim in claims:
        citations = [
            c
            for n in claim.nodes
            for c in cite(index.nodes[n], claim.text, anchors=claim.anchors.get(n, ()))
        ]
        plans.append(
            _ClaimPlan(claim.section, claim.text, claim.kind, list(claim.nodes), citations)
        )
    plans.extend(_decisions(context, index, decisions))
    plans.extend(_open_questions(context, index)[:budget])
    cited = sorted({n for p in plans for n in p.nodes})
    plans.extend(_appendix([index.nodes[n] for n in cited], context.language, plans))
    return plans


# The most quotes of one node the appendix shows; the rest are counted ("and 140 more quotes",
# report["appendix_more"]) and read on the node's page.
APPENDIX_QUOTES_PER_NODE = 3


def _source(e: EvidenceView) -> str:
    """Where a quote comes from, for telling sources apart: its file, else its author, else its
    message."""
    return f"file:{e.file}" if e.file else f"author:{e.author}" if e.author else e.episode_uid


def appendix_quotes(
    node: ContextNode, cited: Sequence[EvidenceView] = (), limit: int = APPENDIX_QUOTES_PER_NODE
) -> list[EvidenceView]:
    """The node's quotes the appendix shows, at most `limit`, in order: those the document's
    claims cite, then from sources (file, author) not shown yet, then from messages not shown
    yet, each pass oldest first."""
    evidence = _evidence_order(node)
    chosen: list[EvidenceView] = []
    for e in evidence:
        if e in cited and e not in chosen and len(chosen) < limit:
            chosen.append(e)
    for distinct in (_source, lambda e: e.episode_uid):
        seen = {_source(e) for e in chosen} | {e.episode_uid for e in chosen}
        for e in evidence:
            if len(chosen) == limit:
                break
            if e not in chosen and distinct(e) not in seen and e.episode_uid not in seen:
                chosen.append(e)
                seen |= {_source(e), e.episode_uid}
    return evidence_order(chosen)


def appendix_left_out(plans: Sequence[_ClaimPlan], index: ContextIndex) -> dict[str, int]:
    """How many quotes of each node in the appendix it leaves out, by node number."""
    shown: dict[int, int] = {}
    for plan in plans:
        if plan.section == Section.APPENDIX:
            for c in plan.citations:
                shown[c.node.number] = shown.get(c.node.number, 0) + 1
    more = {n: len(index.nodes[n].evidence) - count for n, count in sorted(shown.items())}
    return {str(n): count for n, count in more.items() if count > 0}


def _appendix(
    nodes: Sequence[ContextNode], language: str, plans: Sequence[_ClaimPlan] = ()
) -> list[_ClaimPlan]:
    """The cited nodes' quotes by message, oldest first, at most APPENDIX_QUOTES_PER_NODE of a
    node (`appendix_quotes`, those its claims cite first): each quoted span once, with every
    node it supports (one citation row per node, rendered as one quote)."""
    cited: dict[int, list[EvidenceView]] = {}
    for plan in plans:
        for c in plan.citations:
            cited.setdefault(c.node.number, []).append(c.evidence)
    by_message: dict[str, list[_CitationPlan]] = {}
    for node in nodes:
        for e in appendix_quotes(node, cited.get(node.number, ())):
            by_message.setdefault(e.episode_uid, []).append(
                _CitationPlan(node=node, evidence=e, confirmed_in=[])
            )
    plans = []
    messages = sorted(
        by_message.values(), key=lambda c: (c[0].evidence.date, c[0].evidence.episode_number)
    )
    for citations in messages:
        # A quote's nodes stay together, quotes in the order the message says them.
        citations.sort(key=lambda c: (c.evidence.start, c.evidence.end, c.node.number))
        first = citations[0].evidence
        text = f"{words(language)['message']} #{first.episode_number}"
        numbers = list(dict.fromkeys(c.node.number for c in citations))
        plans.append(_ClaimPlan(Section.APPENDIX, text, ClaimKind.EVIDENCE, numbers, citations))
    return plans


def _decisions(
    context: ArtifactContext, index: ContextIndex, decisions: Sequence[Decision]
) -> list[_ClaimPlan]:
    """Each answered contradiction: the statement kept, cited with the answer's words."""
    plans = []
    by_uid = {n.uid: n for n in index.nodes.values()}
    for decision in decisions:
        node = by_uid.get(decision.kept_uid)
        if node is None:
            continue
        citation = _CitationPlan(node=node, evidence=decision.answer, confirmed_in=[])
        plans.append(
            _ClaimPlan(
                Section.DECISIONS,
                decision.text(context.language),
                ClaimKind.DECISION,
                [node.number],
                [citation],
            )
        )
        if decision.non_goal:
            # What was decided against, with the decision's citation (the answer's words).
            plans.append(
                _ClaimPlan(
                    Section.NON_GOALS,
                    decision.non_goal_text(context.language),
                    ClaimKind.DECISION,
                    [node.number],
                    [_CitationPlan(node=node, evidence=decision.answer, confirmed_in=[])],
                )
            )
    return plans


def _open_questions(context: ArtifactContext, index: ContextIndex) -> list[_ClaimPlan]:
    plans = []
    for c in sorted(context.contradictions, key=lambda c: (c.a, c.b, c.uid)):
        citations = (
            cite(index.nodes[c.a], prefer_quote=c.quote_a)[:1]
            + cite(index.nodes[c.b], prefer_quote=c.quote_b)[:1]
        )
        plans.append(
            _ClaimPlan(
                Section.OPEN_QUESTIONS, c.question, ClaimKind.CONTRADICTION, [c.a, c.b], citations
            )
        )
    for gap in context.gaps:
        nodes = [gap.node] if gap.node is not None and gap.node in index.nodes else []
        citations = [c for n in nodes for c in cite(index.nodes[n])]
        plans.append(
            _ClaimPlan(Section.OPEN_QUESTIONS, gap.question, ClaimKind.GAP, nodes, citations)
        )
    return plans


def _counts(plans: list[_ClaimPlan]) -> dict[str, int]:
    written = [p for p in plans if p.section in WRITER_SECTIONS]
    return {
        "claims": len(written),
        "facts": sum(p.kind == ClaimKind.FACT for p in written),
        "hypotheses": sum(p.kind == ClaimKind.HYPOTHESIS for p in written),
        "open_questions": sum(p.section == Section.OPEN_QUESTIONS for p in plans),
        "cited_nodes": len({n for p in plans if p.section == Section.APPENDIX for n in p.nodes}),
        "evidence_messages": sum(p.section == Section.APPENDIX for p in plans),
        "citations": sum(len(p.citations) for p in plans if p.section != Section.APPENDIX),
    }


def _date(value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(value.replace("Z", "+00:00"))


def _persist(
    run: ArtifactVersion,
    plans: list[_ClaimPlan],
    report: dict,
    timings: dict[str, int],
    started: float,
) -> None:
    """Claims, citations, number and Markdown in one transaction; then the version is frozen."""
    from artifacts.rendering import load_document, render_markdown

    for _attempt in range(5):
        try:
            with transaction.atomic():
                _write_rows(run, plans)
                last = run.artifact.versions.aggregate(n=Max("number"))["n"]
                run.number = (last or 0) + 1
                timings["total_ms"] = _ms(started)
                run.report = report | {"timings_ms": timings}
                run.markdown = render_markdown(load_document(run))
                run.status = VersionStatus.COMPLETE
                run.stage = Stage.DONE
                run.completed_at = timezone.now()
                run.save()
                return
        except IntegrityError:
            run.number = None
            continue  # another run took the number; take the next one
    raise GenerationError("could not allocate a version number; try again")


def _write_rows(run: ArtifactVersion, plans: list[_ClaimPlan]) -> None:
    order: dict[str, int] = {}
    claims = []
    for plan in plans:
        position = order.get(plan.section, 0)
        order[plan.section] = position + 1
        claims.append(
            Claim(
                version=run,
                section=plan.section,
                order=position,
                text=plan.text,
                kind=plan.kind,
                nodes=plan.nodes,
            )
        )
    created = Claim.objects.bulk_create(claims, batch_size=2000)
    citations = [
        Citation(
            claim=claim,
            order=position,
            node_number=c.node.number,
            node_uid=c.node.uid,
            node_type=c.node.type,
            node_label=c.node.label,
            confidence=c.node.confidence,
            episode_number=c.evidence.episode_number,
            episode_uid=c.evidence.episode_uid,
            date=_date(c.evidence.date),
            author=c.evidence.author[:200],
            quote=c.evidence.quote,
            start=c.evidence.start,
            end=c.evidence.end,
            file=c.evidence.file[:300],
            page=c.evidence.page[:50],
            confirmed_in=c.confirmed_in,
        )
        for claim, plan in zip(created, plans, strict=True)
        for position, c in enumerate(plan.citations)
    ]
    Citation.objects.bulk_create(citations, batch_size=2000)
