"""API of the chat: conversations and messages (mounted under /api/ by config.urls).

POST a message and it is recorded with its episode in one transaction and answered 201 at
once; the pipeline and the assistant's reply run in Celery (poll the reply task or the list).
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.urls import path
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

import kg.web.api.converters  # noqa: F401  registers <num:...> and <project:...>
from chat import answers, services
from chat.models import Conversation, Message
from kg.commands import MAX_MESSAGE_CHARS
from kg.web.api.fields import StringField, WrittenTextField
from kg.web.api.views import ProjectScoped

# --- serializers ------------------------------------------------------------------------------


class ConversationSerializer(serializers.ModelSerializer):
    created_by = serializers.SlugRelatedField(
        slug_field="username",
        read_only=True,
        allow_null=True,
        help_text="null once its author's account is deleted.",
    )
    message_count = serializers.SerializerMethodField()
    title = StringField(required=False, allow_blank=True, max_length=200)

    class Meta:
        model = Conversation
        fields = ["id", "title", "created_by", "created_at", "message_count"]
        read_only_fields = ["id", "created_by", "created_at", "message_count"]

    def get_message_count(self, conversation: Conversation) -> int:
        counted = getattr(conversation, "message_count", None)  # annotated by the service
        return counted if counted is not None else conversation.messages.count()


class MessageSerializer(serializers.ModelSerializer):
    number = serializers.IntegerField(
        read_only=True,
        allow_null=True,
        help_text="The message (episode) number in the project's ledger, as citations say it; "
        "users only.",
    )
    position = serializers.IntegerField(
        read_only=True,
        allow_null=True,
        help_text="The user message's number within this conversation (1, 2, 3…).",
    )
    reply_to_position = serializers.IntegerField(
        source="answers_position",
        read_only=True,
        allow_null=True,
        help_text="A reply: the position in this conversation of the message it answers "
        "(reply_to is that message's id). Replies are listed right after their message.",
    )
    reply_to_number = serializers.SerializerMethodField(
        help_text="A reply: the ledger number of the message it answers."
    )
    processing_status = serializers.SerializerMethodField()

    class Meta:
        model = Message
        fields = [
            "id",
            "conversation",
            "role",
            "number",
            "position",
            "text",
            "created_at",
            "reply_to",
            "reply_to_position",
            "reply_to_number",
            "processing_status",
            "cited_nodes",
            "engine",
            "reply_task_id",
        ]
        read_only_fields = fields

    def get_reply_to_number(self, message: Message) -> int | None:
        return message.reply_to.number if message.reply_to_id else None

    def get_processing_status(self, message: Message) -> str | None:
        """The pipeline state of a user message's episode (pending → running → done|failed)."""
        if not message.episode_id:
            return None
        processing = getattr(message.episode, "processing", None)
        return processing.status if processing else None


class NewMessageSerializer(serializers.Serializer):
    text = WrittenTextField(
        max_length=MAX_MESSAGE_CHARS,
        help_text="Becomes an immutable episode. Something besides spaces; a NUL character "
        "is refused (400), not stripped.",
    )


class MessageQuerySerializer(serializers.Serializer):
    after = serializers.IntegerField(
        required=False, min_value=0, max_value=999_999_999, help_text="Only messages after this id."
    )


# --- views ------------------------------------------------------------------------------------


@extend_schema_view(
    get=extend_schema(tags=["chat"], summary="Conversations of the project"),
    post=extend_schema(tags=["chat"], summary="Start a conversation"),
)
class ConversationList(ProjectScoped, generics.ListCreateAPIView):
    serializer_class = ConversationSerializer

    def get_queryset(self) -> QuerySet[Conversation]:
        return services.conversations_of(self.get_project())

    def perform_create(self, serializer: ConversationSerializer) -> None:
        try:
            serializer.instance = services.create_conversation(
                self.get_writable_project(),
                self.request.user,
                serializer.validated_data.get("title", ""),
            )
        except services.TitleRefused as exc:
            raise serializers.ValidationError({"title": [str(exc)]}) from None


class RenameSerializer(serializers.Serializer):
    """A partial update, as PATCH is: an empty object changes nothing and answers the
    conversation as it is (editors and above still)."""

    title = WrittenTextField(
        max_length=services.MAX_TITLE, required=False, help_text="The new title."
    )


@extend_schema_view(
    get=extend_schema(tags=["chat"], summary="One conversation", responses=ConversationSerializer),
    patch=extend_schema(
        tags=["chat"],
        summary="Rename a conversation (editors and above)",
        request=RenameSerializer,
        responses=ConversationSerializer,
    ),
)
class ConversationDetail(ProjectScoped, generics.GenericAPIView):
    serializer_class = ConversationSerializer

    def _conversation(self, project) -> Conversation:
        conversation = services.conversations_of(project).filter(pk=self.kwargs["conversation_id"])
        return generics.get_object_or_404(conversation)

    def get(self, request: Request, slug: str, conversation_id: int) -> Response:
        return Response(self.get_serializer(self._conversation(self.get_project())).data)

    def patch(self, request: Request, slug: str, conversation_id: int) -> Response:
        conversation = self._conversation(self.get_writable_project())
        body = RenameSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        if "title" in body.validated_data:
            try:
                services.rename_conversation(conversation, body.validated_data["title"])
            except services.TitleRefused as exc:
                raise serializers.ValidationError({"title": [str(exc)]}) from None
        return Response(self.get_serializer(conversation).data)


@extend_schema_view(
    get=extend_schema(
        tags=["chat"], summary="Messages of a conversation", parameters=[MessageQuerySerializer]
    ),
    post=extend_schema(
        tags=["chat"],
        summary="Send a message: recorded as an episode; the reply follows asynchronously",
        request=NewMessageSerializer,
        responses={201: MessageSerializer},
    ),
)
class MessageList(ProjectScoped, generics.ListAPIView):
    serializer_class = MessageSerializer

    def conversation(self) -> Conversation:
        return services.conversation_in(self.get_project(), self.kwargs["conversation_id"])

    def get_queryset(self) -> QuerySet[Message]:
        serializer = MessageQuerySerializer(data=self.request.query_params.dict())
        serializer.is_valid(raise_exception=True)
        return services.messages_of(self.conversation(), serializer.validated_data.get("after"))

    def post(self, request: Request, slug: str, conversation_id: int) -> Response:
        self.get_writable_project()
        body = NewMessageSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        message = services.post_user_message(
            self.conversation(), request.user, body.validated_data["text"]
        )
        return Response(MessageSerializer(message).data, status=status.HTTP_201_CREATED)


# --- questions to the research ---------------------------------------------------------------

MAX_QUESTION_CHARS = 1000


class AskSerializer(serializers.Serializer):
    question = WrittenTextField(max_length=MAX_QUESTION_CHARS, help_text="The question, as asked.")


class CitationSerializer(serializers.Serializer):
    message = serializers.IntegerField(source="episode_number", help_text="The message's number.")
    quote = serializers.CharField(help_text="The cited words, verbatim.")
    start = serializers.IntegerField(help_text="Where the words start in the message.")
    end = serializers.IntegerField()


class AnswerSentenceSerializer(serializers.Serializer):
    text = serializers.CharField()
    citations = CitationSerializer(many=True)


class PassageSerializer(serializers.Serializer):
    message = serializers.IntegerField(source="episode_number")
    quote = serializers.CharField()
    finding = serializers.CharField(source="node_label")
    finding_type = serializers.CharField(source="node_type")
    score = serializers.FloatField(help_text="Fused reciprocal-rank score of its message.")
    found_by = serializers.ListField(child=serializers.CharField())
    focus_share = serializers.FloatField()
    cosine = serializers.FloatField()


class AnswerSerializer(serializers.Serializer):
    question = serializers.CharField()
    language = serializers.CharField()
    refused = serializers.BooleanField(help_text="True when the research does not say.")
    refusal = serializers.CharField(help_text="What is said instead of an answer, if refused.")
    nearby = serializers.ListField(child=serializers.CharField())
    sentences = AnswerSentenceSerializer(many=True)
    engine = serializers.CharField()


class RetrievalTraceSerializer(serializers.Serializer):
    focus = serializers.ListField(child=serializers.CharField())
    rankings = serializers.DictField(child=serializers.ListField(child=serializers.IntegerField()))
    passages = PassageSerializer(many=True)
    used = PassageSerializer(many=True)


def answer_data(answer: answers.Answer, *, staff: bool) -> dict:
    data = AnswerSerializer(answer).data
    if staff and answer.retrieval is not None:
        data["retrieval"] = RetrievalTraceSerializer(
            {
                "focus": sorted(answer.retrieval.focus),
                "rankings": answer.retrieval.trace,
                "passages": answer.retrieval.passages,
                "used": answer.used,
            }
        ).data
    return data


@extend_schema(
    tags=["chat"],
    summary="Ask the research: an answer whose every sentence cites the words it rests on",
    description="Any member may ask. When the research does not cover the question the answer "
    "is refused and names what the research holds nearby. Staff also get the retrieval trace "
    "(`retrieval`: every passage found, its scores, and the ones offered to the engine); the "
    "rankings there are message ids, not numbers.",
    request=AskSerializer,
    responses=AnswerSerializer,
)
class AskResearch(ProjectScoped, generics.GenericAPIView):
    serializer_class = AskSerializer

    def post(self, request: Request, slug: str) -> Response:
        project = self.get_project()
        body = AskSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        answer = answers.answer_question(project, body.validated_data["question"])
        return Response(answer_data(answer, staff=request.user.is_staff))


C = "projects/<project:slug>/conversations/"

urlpatterns = [
    path(C, ConversationList.as_view(), name="api-conversations"),
    path(C + "<num:conversation_id>/", ConversationDetail.as_view(), name="api-conversation"),
    path(C + "<num:conversation_id>/messages/", MessageList.as_view(), name="api-messages"),
    path("projects/<project:slug>/ask/", AskResearch.as_view(), name="api-ask"),
]
