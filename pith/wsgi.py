import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pith.settings")
application = get_wsgi_application()

# What loading the app made (modules, settings, models, URL patterns, DRF and schema classes: some
# 100,000 objects) lives as long as the process. Frozen, a full garbage collection no longer walks
# it: that walk took 25-50 ms, now and then in the middle of a request, and was the p99 of cached
# API pages and records (bench/api.py). Python's gc.freeze() is made for long-running servers.
gc.freeze()
