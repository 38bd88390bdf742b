"""Web chat pages (server-rendered; htmx swaps the partials). Parse, call one service, render.

A project of another organization is a 404, as in the API. Every POST answers htmx with a
partial and a plain browser with a redirect, so the pages also work without JavaScript.
"""

from __future__ import annotations

from django.contrib import messages as notices
from django.contrib.auth.decorators import login_required
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotModified,
    JsonResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from chat import answers, services
from chat.models import Conversation
from kg.commands import (
    BACKGROUND_BYTES,
    FORMAT_CHOICES,
    MAX_MESSAGE_CHARS,
    MAX_MESSAGES,
    MAX_PAGES,
    MAX_ROWS,
    MAX_SOURCE_BYTES,
    MAX_UPLOAD_BYTES,
    ContradictionAlreadyResolved,
    ContradictionNotFound,
    EpisodeRejected,
    ImportOptions,
    NotOneOfTheTwo,
    SourceImportNotFound,
    UnreadableFile,
    author_name,
    import_progress,
    queue_source_import,
    record_uploaded_notes,
    report_summary,
    source_format,
    source_import_in,
)
from kg.models import Episode, Language, Project, RecordKind
from kg.tenancy import (
    can_write,
    managed_orgs,
    orgs_of_user,
    projects_for_user,
)
from kg.web.page_access import readable_project, writable_project


def _conversation(project: Project, conversation_id: int) -> Conversation:
    try:
        return services.conversation_in(project, conversation_id)
    except services.ConversationNotFound as exc:
        raise Http404(str(exc)) from None


def _is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true"


def _number(value: str | None) -> int | None:
    # isascii: str.isdigit() also accepts "²", which int() refuses.
    return int(value) if value and value.isascii() and value.isdigit() and len(value) <= 9 else None


def _chat_url(project: Project, conversation: Conversation, highlight: int | None = None) -> str:
    url = reverse("chat:conversation", args=[project.slug, conversation.pk])
    return f"{url}?highlight={highlight}#message-{highlight}" if highlight else url


@login_required
@require_GET
def project_list(request: HttpRequest) -> HttpResponse:
    projects = projects_for_user(request.user).order_by("organization__name", "name")
    return render(
        request,
        "chat/projects.html",
        {
            "projects": [p for p in projects if not p.archived],
            "archived": [p for p in projects if p.archived],
            "managed_orgs": managed_orgs(request.user),
            "orgs": orgs_of_user(request.user),
            "languages": Language.choices,
        },
    )


UPLOAD_REPORT = "upload_report"  # the last upload's per-file report, shown once


def _upload_outcome(request: HttpRequest) -> dict:
    return {"upload_report": request.session.pop(UPLOAD_REPORT, None)}


def _source_import(project: Project, request: HttpRequest) -> dict | None:
    """The import named by ?import= (one of this project's), with its progress, or None."""
    import_id = _number(request.GET.get("import"))
    if import_id is None:
        return None
    try:
        return import_progress(source_import_in(project, import_id))
    except SourceImportNotFound:
        return None


@login_required
@require_GET
def chat_page(request: HttpRequest, slug: str, conversation_id: int | None = None) -> HttpResponse:
    project = readable_project(request, slug)
    highlight = _number(request.GET.get("highlight"))
    if conversation_id is not None:
        conversation = _conversation(project, conversation_id)
    else:
        found = services.conversation_of_message(project, highlight) if highlight else None
        conversation = found or services.current_conversation(project, request.user)
    messages = list(services.messages_of(conversation))
    return render(
        request,
        "chat/chat.html",
        {
            "project": project,
            "conversation": conversation,
            "conversations": services.conversations_of(project),
            "messages": messages,
            "last_id": services.last_message_id(messages),
            "awaiting": services.awaiting_reply(conversation),
            "highlight": highlight,
            "panel": services.research_panel(project),
            "can_write": can_write(request.user, project),
            "max_message_chars": MAX_MESSAGE_CHARS,
            "max_upload_mb": MAX_UPLOAD_BYTES // (1024 * 1024),
            "source_limits": {
                "mb": MAX_SOURCE_BYTES // (1024 * 1024),
                "pages": MAX_PAGES,
                "rows": MAX_ROWS,
                "messages": MAX_MESSAGES,
            },
            "formats": FORMAT_CHOICES,
            "record_kinds": RecordKind.choices,
            "source_import": _source_import(project, request),
            **_upload_outcome(request),
        },
    )


@login_required
@require_GET
def import_status(request: HttpRequest, slug: str, import_id: int) -> JsonResponse:
    """How far a long import got, for the page to poll (members of the project only)."""
    project = readable_project(request, slug)
    try:
        found = source_import_in(project, import_id)
    except SourceImportNotFound as exc:
        raise Http404(str(exc)) from None
    response = JsonResponse(import_progress(found))
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_POST
def new_conversation(request: HttpRequest, slug: str) -> HttpResponse:
    project = writable_project(request, slug)
    try:
        conversation = services.create_conversation(
            project, request.user, request.POST.get("title", "")
        )
    except services.TitleRefused as exc:
        return render(
            request, "chat/error.html", {"project": project, "error": str(exc)}, status=400
        )
    return redirect(_chat_url(project, conversation))


@login_required
@require_POST
def rename_conversation(request: HttpRequest, slug: str, conversation_id: int) -> HttpResponse:
    project = writable_project(request, slug)
    conversation = _conversation(project, conversation_id)
    try:
        services.rename_conversation(conversation, request.POST.get("title", ""))
    except services.TitleRefused as exc:
        return render(
            request, "chat/error.html", {"project": project, "error": str(exc)}, status=400
        )
    return redirect(_chat_url(project, conversation))


@login_required
@require_POST
def send_message(request: HttpRequest, slug: str, conversation_id: int) -> HttpResponse:
    project = writable_project(request, slug)
    conversation = _conversation(project, conversation_id)
    try:
        message = services.post_user_message(
            conversation, request.user, request.POST.get("text", "")
        )
    except EpisodeRejected as exc:
        if not _is_htmx(request):
            return render(
                request, "chat/error.html", {"project": project, "error": str(exc)}, status=400
            )
        return render(request, "chat/_error.html", {"error": str(exc)})
    if not _is_htmx(request):
        return redirect(_chat_url(project, conversation, message.number))
    return _new_messages(request, project, conversation, _number(request.POST.get("after")))


@login_required
@require_GET
def messages_partial(request: HttpRequest, slug: str, conversation_id: int) -> HttpResponse:
    project = readable_project(request, slug)
    conversation = _conversation(project, conversation_id)
    return _new_messages(request, project, conversation, _number(request.GET.get("after")))


def _new_messages(
    request: HttpRequest, project: Project, conversation: Conversation, after: int | None
) -> HttpResponse:
    messages = list(services.messages_of(conversation, after))
    last_id = services.last_message_id(messages, after)
    return render(
        request,
        "chat/_messages.html",
        {
            "project": project,
            "conversation": conversation,
            "messages": messages,
            "last_id": last_id,
            "awaiting": services.awaiting_reply(conversation),
            "oob": True,
        },
    )


@login_required
@require_GET
def panel(request: HttpRequest, slug: str) -> HttpResponse:
    project = readable_project(request, slug)
    conversation_id = _number(request.GET.get("conversation"))
    etag = f'"{services.research_revision(project)}-{conversation_id}"'
    if request.headers.get("If-None-Match") == etag:
        return HttpResponseNotModified(headers={"ETag": etag})
    response = render(
        request,
        "chat/_panel.html",
        {
            "project": project,
            "panel": services.research_panel(project),
            "conversation_id": conversation_id,
            "can_write": can_write(request.user, project),
        },
    )
    # The browser revalidates each poll with If-None-Match and gets 304 until the research
    # changes; htmx then swaps in the cached, identical panel.
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response


@login_required
@require_POST
def answer_contradiction(request: HttpRequest, slug: str, uid) -> HttpResponse:
    project = writable_project(request, slug)
    conversation_id = _number(request.POST.get("conversation"))
    conversation = (
        _conversation(project, conversation_id)
        if conversation_id
        else services.current_conversation(project, request.user)
    )
    error = ""
    answer = request.POST.get("answer", "")
    try:
        # uid arrives as a UUID (path converter); the graph stores it as text.
        services.answer_contradiction(
            project,
            conversation,
            request.user,
            str(uid),
            answer,
            keep=_number(request.POST.get("keep")),
        )
    except ContradictionNotFound as exc:
        raise Http404(str(exc)) from None
    except (ContradictionAlreadyResolved, NotOneOfTheTwo, EpisodeRejected) as exc:
        error = str(exc)
    if not _is_htmx(request):
        if error:
            return render(
                request, "chat/error.html", {"project": project, "error": error}, status=400
            )
        return redirect(_chat_url(project, conversation))
    return render(
        request,
        "chat/_panel.html",
        {
            "project": project,
            "panel": services.research_panel(project),
            "conversation_id": conversation.pk,
            "error": error,
            "can_write": True,
        },
    )


@login_required
@require_GET
def message_link(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The stable address of message #number: its place in the chat, or the episode itself."""
    project = readable_project(request, slug)
    conversation = services.conversation_of_message(project, number)
    if conversation is not None:
        return redirect(_chat_url(project, conversation, number))
    episode = get_object_or_404(Episode, project=project, number=number)
    return render(request, "chat/episode.html", {"project": project, "episode": episode})


@login_required
@require_POST
def upload_notes(request: HttpRequest, slug: str) -> HttpResponse:
    """Uploaded notes become episodes; the panel shows what they add once processed."""
    project = writable_project(request, slug)
    upload = request.FILES.get("notes")
    target = reverse("chat:chat", args=[project.slug])
    # What happened is said once on the next page, from the server: never from the address,
    # where a link could forge it.
    if upload is None:
        notices.error(request, "Choose a file to upload.", extra_tags="upload-error")
        return redirect(target)
    try:
        options = ImportOptions(
            format=request.POST.get("format", ""),
            text_columns=tuple(c for c in request.POST.getlist("text_columns") if c.strip()),
            author_column=request.POST.get("author_column", ""),
            date_column=request.POST.get("date_column", ""),
            records=request.POST.get("records", ""),
        )
        if upload.size > BACKGROUND_BYTES and source_format(upload.name, options.format):
            # A large document or export is recorded by a worker; the page shows how far.
            queued = queue_source_import(
                project,
                upload.name,
                upload.read(),
                author=author_name(request.user),
                options=options,
                user=request.user,
            )
            return redirect(target + f"?import={queued.pk}")
        report = record_uploaded_notes(
            project, upload.name, upload.read(), author_name(request.user), options
        )
    except (UnreadableFile, EpisodeRejected) as exc:
        notices.error(
            request, f"The file was not added. {str(exc)[:300]}", extra_tags="upload-error"
        )
        return redirect(target)
    summary = report_summary(report) | {"file": upload.name[:200]}
    request.session[UPLOAD_REPORT] = summary
    notice = services.upload_notice(summary)
    level = notices.SUCCESS if notice.added else notices.WARNING
    notices.add_message(request, level, notice.text, extra_tags="upload-notice")
    return redirect(target)


MAX_QUESTION_CHARS = 1000


@login_required
@require_GET
def ask_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Ask the research: the answer with its citations, and why it is this answer (every
    passage retrieved, its scores, and the ones the answer could use)."""
    project = readable_project(request, slug)
    question = request.GET.get("q", "")[:MAX_QUESTION_CHARS].strip()
    answer = answers.answer_question(project, question) if question else None
    used = {(p.episode_uid, p.start, p.end, p.node_uid) for p in answer.used} if answer else set()
    passages = [
        (p, (p.episode_uid, p.start, p.end, p.node_uid) in used)
        for p in (answer.retrieval.passages if answer and answer.retrieval else [])
    ]
    return render(
        request,
        "chat/ask.html",
        {"project": project, "question": question, "answer": answer, "passages": passages},
    )
