import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pith.settings")
application = get_wsgi_application()

# Server processes only (gunicorn, uWSGI...): management commands and Celery workers are not
# request loops. pith/heap.py says why.
from django.conf import settings  # noqa: E402

from pith.heap import freeze_after  # noqa: E402

freeze_after(settings.GC_FREEZE_AFTER_REQUESTS)
