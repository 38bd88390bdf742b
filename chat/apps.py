from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "chat"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from kg.commands import register_task_finder

        register_task_finder(reply_task_project)

        from chat.realdata import evaluate_ask
        from kg.realdata.suite import register_suite

        register_suite("ask", evaluate_ask)


def reply_task_project(task_id: str):
    """The project whose conversation a reply task writes to (task status is for members)."""
    from chat.models import Message

    found = Message.objects.filter(reply_task_id=task_id).select_related("conversation__project")
    message = found.first()
    return message.conversation.project if message else None
