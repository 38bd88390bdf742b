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

import kg.api.converters  # noqa: F401  registers <num:...>
from chat import services
from chat.models import Conversation, Message
from kg.api.views import ProjectScoped
from kg.episodes import MAX_MESSAGE_CHARS

# --- serializers ------------------------------------------------------------------------------


class ConversationSerializer(serializers.ModelSerializer):
    created_by = serializers.SlugRelatedField(slug_field="username", read_only=True)
    message_count = serializers.SerializerMethodField()

    class Meta:
        model = Conversation
        fields = ["id", "title", "created_by", "created_at", "message_count"]
        read_only_fields = ["id", "created_by", "created_at", "message_count"]
        extra_kwargs = {"title": {"required": False, "allow_blank": True}}

    def get_message_count(self, conversation: Conversation) -> int:
        counted = getattr(conversation, "message_count", None)  # annotated by the service
        return counted if counted is not None else conversation.messages.count()


class MessageSerializer(serializers.ModelSerializer):
    number = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="The message (episode) number; users only."
    )
    processing_status = serializers.SerializerMethodField()

    class Meta:
        model = Message
        fields = [
            "id",
            "conversation",
            "role",
            "number",
            "text",
            "created_at",
            "reply_to",
            "processing_status",
            "cited_nodes",
            "engine",
            "reply_task_id",
        ]
        read_only_fields = fields

    def get_processing_status(self, message: Message) -> str | None:
        """The pipeline state of a user message's episode (pending → running → done|failed)."""
        if not message.episode_id:
            return None
        processing = getattr(message.episode, "processing", None)
        return processing.status if processing else None


class NewMessageSerializer(serializers.Serializer):
    text = serializers.CharField(
        max_length=MAX_MESSAGE_CHARS, help_text="Becomes an immutable episode."
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
        serializer.instance = services.create_conversation(
            self.get_writable_project(),
            self.request.user,
            serializer.validated_data.get("title", ""),
        )


@extend_schema(tags=["chat"], summary="One conversation", responses=ConversationSerializer)
class ConversationDetail(ProjectScoped, generics.GenericAPIView):
    serializer_class = ConversationSerializer

    def get(self, request: Request, slug: str, conversation_id: int) -> Response:
        conversation = services.conversations_of(self.get_project()).filter(pk=conversation_id)
        return Response(self.get_serializer(generics.get_object_or_404(conversation)).data)


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


C = "projects/<slug:slug>/conversations/"

urlpatterns = [
    path(C, ConversationList.as_view(), name="api-conversations"),
    path(C + "<num:conversation_id>/", ConversationDetail.as_view(), name="api-conversation"),
    path(C + "<num:conversation_id>/messages/", MessageList.as_view(), name="api-messages"),
]
