"""A PM edits the PRD: each edit makes a new version, and the trail is kept.

A version is frozen, so an edit copies it — every claim with its citations — into a new
version numbered after the latest, recording who edited it (`edited_by`) and from which
version (`edited_from`); the time is the version's. An edited sentence keeps its citations and
is checked again against them, as the generator checks the writer's: a number that no cited
quote states, or words the quotes do not say, flag the sentence (`Claim.flag`) — it is kept
and shown flagged, never silently kept as supported. An empty text removes the sentence.

Regenerating while the graph is unchanged answers with the edited version (it keeps the base's
context hash and revision key); a version generated from a changed graph lists the edited
sentences it does not hold (`edits_not_kept`), which the page shows.

Only the document's body (BODY_SECTIONS) can be edited: decisions, open questions and the
evidence appendix are the system's. Editors and above may edit; viewers may not (NotAllowed).
The changes between two versions (`version_changes`) are what the page shows as the diff.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from artifacts.checks import template_words, uncovered_numbers
from artifacts.models import ArtifactVersion, Citation, Claim, VersionStatus
from artifacts.sections import BODY_SECTIONS
from artifacts.versions import version_by_number
from kg.models import Project
from kg.read_models import claim_supported
from kg.tenancy import check_can_write

MAX_SENTENCE_CHARS = 800


class EditRejected(ValueError):
    """The edit cannot be made (no such sentence, a system section, too long); says why."""


@dataclass(frozen=True)
class Edit:
    section: str
    order: int  # the sentence's position in its section
    text: str  # the new sentence; empty removes it


@dataclass(frozen=True)
class Change:
    section: str
    before: str  # "" for a sentence added
    after: str  # "" for a sentence removed
    flag: str = ""

    def as_report(self) -> dict:
        return {
            "section": self.section,
            "before": self.before,
            "after": self.after,
            "flag": self.flag,
        }


def recheck(text: str, citations: list[Citation]) -> str:
    """Why the sentence is not supported by its citations, or "" when it is."""
    quotes = [c.quote for c in citations]
    if not citations:
        return "cites nothing"
    reasons = []
    missing = uncovered_numbers(text, quotes)
    if missing:
        reasons.append(f"the number(s) {', '.join(missing)} are in no cited quote")
    sources = [c.node_label for c in citations] + quotes
    if not claim_supported(text, sources, ignore=template_words()):
        reasons.append("says more than its cited quotes")
    return "; ".join(reasons)


def edit_prd(project: Project, user, number: int, edit: Edit) -> ArtifactVersion:
    """Apply one edit to version `number` of the project's PRD; returns the new version.

    Raises NotAllowed for a viewer (or an archived project), ArtifactVersion.DoesNotExist for
    an unknown version, EditRejected for an edit that cannot be made."""
    check_can_write(user, project)
    base = version_by_number(project, number)
    if edit.section not in BODY_SECTIONS:
        raise EditRejected(f"the section {edit.section!r} is written by the system, not edited")
    text = " ".join(edit.text.split())
    if len(text) > MAX_SENTENCE_CHARS:
        raise EditRejected(f"a sentence is at most {MAX_SENTENCE_CHARS} characters; split it")
    claims = list(base.claims.order_by("section", "order").prefetch_related("citations"))
    target = next((c for c in claims if c.section == edit.section and c.order == edit.order), None)
    if target is None:
        raise EditRejected(f"version {number} has no sentence {edit.order} in {edit.section!r}")
    if text == target.text:
        raise EditRejected("the sentence is unchanged")

    citations = list(target.citations.all())
    flag = recheck(text, citations) if text else ""
    change = Change(section=edit.section, before=target.text, after=text, flag=flag)
    for _attempt in range(5):
        try:
            with transaction.atomic():
                return _copy(base, claims, target, text, flag, change, user)
        except IntegrityError:
            continue  # another version took the number; take the next one
    raise EditRejected("could not allocate a version number; try again")


def _copy(
    base: ArtifactVersion,
    claims: list[Claim],
    target: Claim,
    text: str,
    flag: str,
    change: Change,
    user,
) -> ArtifactVersion:
    from artifacts.rendering import load_document, render_markdown

    report = dict(base.report or {})
    report["edit"] = {
        "from": base.number,
        "by": user.get_username(),
        "changes": [change.as_report()],
    }
    run = ArtifactVersion.objects.create(
        artifact=base.artifact,
        language=base.language,
        as_of=base.as_of,
        engine=base.engine,
        writer_model=base.writer_model,
        status=VersionStatus.RUNNING,
        edited_from=base,
        edited_by=user.get_username()[:150],
        report=report,
        # The research it was written from is the base's: regenerating while the graph is
        # unchanged answers with this version, the edits kept.
        context_hash=base.context_hash,
        revision_key=base.revision_key,
    )
    rows: list[Claim] = []
    sources: list[Claim] = []
    order: dict[str, int] = {}
    for claim in claims:
        if claim.pk == target.pk and not text:
            continue  # removed
        position = order.get(claim.section, 0)
        order[claim.section] = position + 1
        edited = claim.pk == target.pk
        rows.append(
            Claim(
                version=run,
                section=claim.section,
                order=position,
                text=text if edited else claim.text,
                kind=claim.kind,
                nodes=claim.nodes,
                flag=flag if edited else claim.flag,
                edited=edited or claim.edited,
            )
        )
        sources.append(claim)
    created = Claim.objects.bulk_create(rows, batch_size=2000)
    copied = []
    for new, old in zip(created, sources, strict=True):
        for c in old.citations.all():
            c.pk = None
            c.claim = new
            copied.append(c)
    Citation.objects.bulk_create(copied, batch_size=2000)
    last = run.artifact.versions.aggregate(n=Max("number"))["n"]
    run.number = (last or 0) + 1
    run.markdown = render_markdown(load_document(run))
    run.status = VersionStatus.COMPLETE
    run.completed_at = timezone.now()
    run.save()
    return run


def version_changes(old: ArtifactVersion, new: ArtifactVersion) -> list[Change]:
    """The sentences that differ between two versions, per section, in document order: a
    sentence changed in place, added or removed (by the longest common run of sentences)."""
    from difflib import SequenceMatcher

    def texts(version: ArtifactVersion) -> dict[str, list[tuple[str, str]]]:
        found: dict[str, list[tuple[str, str]]] = {}
        for section, text, flag in (
            version.claims.filter(section__in=BODY_SECTIONS)
            .order_by("section", "order")
            .values_list("section", "text", "flag")
        ):
            found.setdefault(section, []).append((text, flag))
        return found

    before, after = texts(old), texts(new)
    changes: list[Change] = []
    for section in BODY_SECTIONS:
        a = before.get(section, [])
        b = after.get(section, [])
        matcher = SequenceMatcher(a=[t for t, _ in a], b=[t for t, _ in b], autojunk=False)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op == "equal":
                continue
            olds, news = a[i1:i2], b[j1:j2]
            for k in range(max(len(olds), len(news))):
                was = olds[k][0] if k < len(olds) else ""
                now, flag = news[k] if k < len(news) else ("", "")
                changes.append(Change(section=section, before=was, after=now, flag=flag))
    return changes


def editable_sentences(version: ArtifactVersion) -> list[tuple[str, str]]:
    """(value "section:order", what the chooser shows) for each sentence of the body."""
    from artifacts.sections import title

    rank = {section: i for i, section in enumerate(BODY_SECTIONS)}
    rows = version.claims.filter(section__in=BODY_SECTIONS).values_list("section", "order", "text")
    ordered = sorted(rows, key=lambda r: (rank[r[0]], r[1]))
    return [
        (f"{section}:{order}", f"{title(section, version.language)} · {text[:90]}")
        for section, order, text in ordered
    ]


def edits_not_kept(latest: ArtifactVersion | None, texts: set[tuple[str, str]]) -> list[dict]:
    """The sentences people edited in `latest` that a newly generated version does not hold
    (`texts`: its (section, text) pairs): the regeneration shows them, so no edit is lost
    silently."""
    if latest is None:
        return []
    edited = latest.claims.filter(edited=True).order_by("section", "order")
    return [
        {"section": section, "text": text, "version": latest.number}
        for section, text in edited.values_list("section", "text")
        if (section, text) not in texts
    ]
