"""The Celery application; workers start with `celery -A pith worker`."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pith.settings")

app = Celery("pith")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="pith.ping")
def ping() -> str:
    """Answers 'pong' from whichever process runs it: a worker, or the caller when eager."""
    return "pong"
