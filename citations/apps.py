from django.apps import AppConfig


class CitationsConfig(AppConfig):
    name = "citations"
    verbose_name = "Citations"

    def ready(self):
        from citations import deploy_checks  # noqa: F401 - registers the deploy checks
        from citations.jobs import task_records  # noqa: F401 - connects the Celery signals
