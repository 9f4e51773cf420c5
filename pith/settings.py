"""Pith settings.

Everything comes from the environment, with an embedded default: with nothing
set, a SQLite file under var/ and Celery running tasks eagerly in-process, so a
new user can run everything with no server. Setting DATABASE_URL (PostgreSQL)
and CELERY_BROKER_URL (Redis) gives the production shape.
"""
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

from pith.env import (
    HOST_FORMAT,
    LOG_LEVELS,
    ORIGIN_FORMAT,
    env_bool,
    env_choice,
    env_float,
    env_int,
    env_list,
    env_path,
    env_rate,
    env_str,
    env_url,
    is_host_pattern,
    is_origin,
)

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_path("PITH_VAR_DIR", str(BASE_DIR / "var"), directory=True))

DEBUG = env_bool("DEBUG", False)
# The embedded default key is for a laptop only; `manage.py check --deploy` flags it.
SECRET_KEY = env_str("SECRET_KEY", "django-insecure-pith-development-key-set-SECRET_KEY-in-production")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"],
                         valid=is_host_pattern, expected=HOST_FORMAT)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [], valid=is_origin, expected=ORIGIN_FORMAT)

# Behind TLS (HTTPS=1): secure cookies, redirects to https, and HSTS once HSTS_SECONDS is set.
HTTPS = env_bool("HTTPS", False)
SECURE_SSL_REDIRECT = SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if HTTPS else None
SECURE_HSTS_SECONDS = env_int("HSTS_SECONDS", 0, minimum=0)
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

INSTALLED_APPS = [
    "pith.apps.PithAdminConfig",              # django.contrib.admin with Pith's site
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "citations",
    "curation",
]

MIDDLEWARE = [
    "pith.middleware.ServerTiming",           # outermost: its time covers every other middleware
    "django.middleware.security.SecurityMiddleware",
    "pith.middleware.RefuseLargeBodies",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "pith.middleware.RetryLostConnection",    # innermost: the first to see a view's exception
]

ROOT_URLCONF = "pith.urls"
WSGI_APPLICATION = "pith.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]


def _database_from_env() -> dict:
    url = env_str("DATABASE_URL")
    conn_max_age = env_int("DATABASE_CONN_MAX_AGE", 60, minimum=0)
    # A persistent connection the server dropped (pg_terminate_backend, a failover, an idle timeout)
    # is tested before a request first uses it and replaced, instead of failing that request.
    conn_health_checks = env_bool("DATABASE_CONN_HEALTH_CHECKS", True)
    test_name = env_str("DATABASE_TEST_NAME")
    if test_name is not None and (len(test_name.encode()) > 63 or "\0" in test_name):
        raise ImproperlyConfigured(f"DATABASE_TEST_NAME={test_name!r} is malformed: expected a PostgreSQL "
                                   "database name of at most 63 bytes.")
    server_side_binding = env_bool("DATABASE_SERVER_SIDE_BINDING", True)
    threshold = env_int("DATABASE_PREPARE_THRESHOLD", 5, minimum=0)
    if url is None:
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": VAR_DIR / "pith.sqlite3"}
    try:
        config = dj_database_url.parse(url, conn_max_age=conn_max_age, conn_health_checks=conn_health_checks)
    except ValueError as error:
        raise ImproperlyConfigured(f"DATABASE_URL is not a database URL: {error}") from None
    if config["ENGINE"] not in ("django.db.backends.postgresql", "django.db.backends.sqlite3"):
        raise ImproperlyConfigured(f"DATABASE_URL names {config['ENGINE']}; Pith runs on PostgreSQL or SQLite")
    if config["ENGINE"] == "django.db.backends.postgresql":
        config.setdefault("TEST", {})["NAME"] = test_name
        # Server-side binding plus a prepare threshold let psycopg prepare the statements a
        # connection runs often (the record's six), so PostgreSQL stops planning them on every
        # page: it halves a record's database time. Behind a transaction-pooling pgbouncer, set
        # DATABASE_PREPARE_THRESHOLD=0 to turn preparing off.
        options = config.setdefault("OPTIONS", {})
        options.setdefault("server_side_binding", server_side_binding)
        options.setdefault("prepare_threshold", threshold if threshold > 0 else None)
    return config


DATABASES = {"default": _database_from_env()}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True
FORMAT_MODULE_PATH = ["pith.formats"]     # times with their zone (pith/formats/en/formats.py)

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
try:
    STATIC_ROOT.mkdir(parents=True, exist_ok=True)
except OSError:  # a read-only deployment collects static files elsewhere
    pass
# The demo and the tests serve admin assets without a collectstatic step.
WHITENOISE_USE_FINDERS = env_bool("WHITENOISE_USE_FINDERS", True)

# Request bodies larger than this are refused with 413 before a view reads them.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_MEMORY_SIZE", 5 * 1024 * 1024, minimum=1)
# Seconds a request body may take to arrive under gunicorn (pith/middleware.py): then 408.
REQUEST_BODY_SECONDS = env_float("REQUEST_BODY_SECONDS", 30, minimum=0.1)

LOGIN_URL = "admin:login"

# --- cache --------------------------------------------------------------------------------------------
# Record bodies and API throttle counters. With REDIS_CACHE_URL every web process and worker shares
# one cache (the production shape, so an override invalidates records everywhere at once); without
# it, each process keeps its own. django-redis, because it keeps its client between calls (Django's
# own Redis backend builds one per call, which costs more than the record's counter lookup itself).
REDIS_CACHE_URL = env_url("REDIS_CACHE_URL", ("redis", "rediss", "unix"))
LOCAL_CACHE_ENTRIES = env_int("LOCAL_CACHE_ENTRIES", 5000, minimum=1)   # without REDIS_CACHE_URL
CACHES = {
    "default": (
        {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": REDIS_CACHE_URL,
         # An unreachable cache must cost milliseconds, not a hung request: records are then built
         # from the database (citations/records/cache.py) and throttling lets requests through.
         "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 0.25, "SOCKET_TIMEOUT": 0.5, "IGNORE_EXCEPTIONS": True}}
        if REDIS_CACHE_URL else
        {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "pith",
         "OPTIONS": {"MAX_ENTRIES": LOCAL_CACHE_ENTRIES}}
    )
}
RECORD_CACHE_SECONDS = env_int("RECORD_CACHE_SECONDS", 3600, minimum=1)
DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True    # an outage is logged, not silent
RECORD_LOCAL_ENTRIES = env_int("RECORD_LOCAL_ENTRIES", 2000, minimum=1)     # bodies kept in each process
API_PAGE_CACHE_SECONDS = env_int("API_PAGE_CACHE_SECONDS", 600, minimum=1)     # an API list page in the cache
API_PAGE_LOCAL_ENTRIES = env_int("API_PAGE_LOCAL_ENTRIES", 1000, minimum=1)    # pages kept in each process

# --- REST API -----------------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "citations.api.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": ["citations.api.strict.UnknownParameters",
                                "django_filters.rest_framework.DjangoFilterBackend",
                                "citations.api.strict.StrictOrdering"],
    "DEFAULT_PAGINATION_CLASS": "citations.api.pagination.CursorPage",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_THROTTLE_CLASSES": ["citations.api.throttles.AnonThrottle", "citations.api.throttles.UserThrottle"],
    "DEFAULT_THROTTLE_RATES": {"anon": env_rate("API_ANON_RATE", "120/minute"),
                               "user": env_rate("API_USER_RATE", "1200/minute"),
                               # The public pages that build a record, per address (citations/urls.py).
                               "pages": env_rate("PAGE_RATE", "60/minute")},
    # Throttles identify a client by REMOTE_ADDR, or, behind TRUSTED_PROXIES proxies that each append
    # to X-Forwarded-For, by the address the nearest of them saw. Left unset, DRF would believe any
    # X-Forwarded-For a client sends, and a new one per request escapes the anonymous rate.
    "NUM_PROXIES": env_int("TRUSTED_PROXIES", 0, minimum=0),
    "EXCEPTION_HANDLER": "citations.api.errors.json_errors",
    "NON_FIELD_ERRORS_KEY": "record",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Pith API",
    "DESCRIPTION": "Paper citation records of arXiv papers, their observations, works, standing events and "
                   "curation, version 1. The record endpoint serves the canonical pith.paper-citation-record.v1 "
                   "bytes, the same as /paper/<id>/citation-record.json.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Docstrings are written for the next engineer ("served by cached_list_page..."); what the API
    # says to its readers is given explicitly (extend_schema summaries, serializer help texts).
    "DISABLE_DOCSTRING_DESCRIPTIONS": True,
    # Two choice sets named "field": every kind of audit entry, and those a client may set.
    "ENUM_NAME_OVERRIDES": {"OverrideFieldEnum": "citations.models.overrides.OverrideField",
                            "OverrideCreateFieldEnum": "citations.models.overrides.VALUE_FIELDS"},
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "citations.api.schema.error_responses"],
}

# --- Celery -------------------------------------------------------------------
CELERY_BROKER_URL = env_url("CELERY_BROKER_URL", ("redis", "rediss", "amqp", "memory"))
# With no broker configured, tasks run in the calling process: the embedded default.
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", CELERY_BROKER_URL is None)
CELERY_TASK_EAGER_PROPAGATES = True
if CELERY_BROKER_URL is None:
    CELERY_BROKER_URL = "memory://localhost/"   # a host named, so kombu does not warn on every eager call
CELERY_RESULT_BACKEND = env_url("CELERY_RESULT_BACKEND", ("redis", "rediss"))
CELERY_TASK_ACKS_LATE = True               # a task whose worker dies is redelivered...
CELERY_TASK_REJECT_ON_WORKER_LOST = True   # ...instead of being acknowledged as done
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# No task runs unbounded: past the soft limit it is told (and a paper file is refused with a sentence),
# past the hard one its process is ended and the task failed. Reading one paper file has its own, shorter
# bounds (FILE_TASK_SECONDS): a file is untrusted input.
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 3600, minimum=2)
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", CELERY_TASK_TIME_LIMIT - 60 if
                                      CELERY_TASK_TIME_LIMIT > 120 else CELERY_TASK_TIME_LIMIT - 1, minimum=1)
FILE_TASK_SECONDS = env_int("FILE_TASK_SECONDS", 120, minimum=1)
# A PDF's text is read in a child process held to this much address space and wall-clock time
# (citations/extraction/pdf/isolated.py): a small compressed file can inflate to gigabytes.
PDF_READ_MEMORY_MB = env_int("PDF_READ_MEMORY_MB", 1024, minimum=128)
PDF_READ_SECONDS = env_int("PDF_READ_SECONDS", 60, minimum=1)
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# A message whose worker died unacknowledged goes back to the queue once visibility_timeout has
# passed; Redis workers look for such messages every interval x throttle seconds.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    # a dead worker's task is back in 5 min
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 300, minimum=1),
    "unacked_restore_interval": env_int("CELERY_UNACKED_RESTORE_INTERVAL", 10, minimum=1),
    "unacked_restore_throttle": env_int("CELERY_UNACKED_RESTORE_THROTTLE", 10, minimum=1),
}

# Celery beat re-reads the standing sources daily, from files the operator's downloader keeps
# current (this service itself fetches nothing): set their paths to schedule them.
STANDING_SYNC_HOUR = env_int("STANDING_SYNC_HOUR", 6, minimum=0, maximum=23)   # UTC
CELERY_BEAT_SCHEDULE = {
    f"sync-{source}": {
        "task": "citations.sync_standing_source",
        "schedule": crontab(hour=STANDING_SYNC_HOUR, minute=minute),
        "args": (source, path),
    }
    # Apart within the hour; OpenAlex last, its file being the longest to read.
    for source, minute, path in (
        ("retraction_watch", 0, env_path("STANDING_RETRACTION_WATCH_FILE", directory=False)),
        ("crossref", 30, env_path("STANDING_CROSSREF_FILE", directory=False)),
        ("openalex", 45, env_path("STANDING_OPENALEX_FILE", directory=False)),
    )
    if path
}

# Seconds resolution workers wait between batches of 200 references: 0 runs flat out.
RESOLUTION_PAUSE_SECONDS = env_float("RESOLUTION_PAUSE_SECONDS", 0.0, minimum=0)

# Durable dispatch (citations/jobs/dispatch.py): a job the broker never took, lost, or whose worker died
# is sent again by the sweep, which Celery beat runs every minute.
JOB_REQUEUE_SECONDS = env_int("JOB_REQUEUE_SECONDS", 120, minimum=1)     # sent but not started: send again
JOB_STALE_SECONDS = env_int("JOB_STALE_SECONDS", 900, minimum=1)         # started but silent: send again
JOB_MAX_DISPATCHES = env_int("JOB_MAX_DISPATCHES", 6, minimum=1)         # then fail it, for an operator
# A write must not hang on a dead broker: a few quick tries, then the job waits for the sweep.
DISPATCH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.5}
CELERY_BROKER_CONNECTION_TIMEOUT = 2
# The public data sets `load_demo` reads (../shared/data beside the checkout); without them, the seeds only.
DEMO_DATA_DIR = Path(env_path("PITH_DEMO_DATA_DIR", str(BASE_DIR.parent / "shared" / "data"), directory=True))

# Bulk dumps of every current record (citations/records/dumps.py): on storage every worker shares.
DUMPS_DIR = Path(env_path("PITH_DUMPS_DIR", str(VAR_DIR / "dumps"), directory=True))
# Signing and the transparency log (citations/signing/, citations/transparency/; docs/verification.md).
# The private key is a file, never a setting's value: `manage.py create_signing_key` writes it.
SIGNING_KEY_FILE = Path(env_path("PITH_SIGNING_KEY", str(VAR_DIR / "signing" / "signing-key.pem"), directory=False))
SIGNING_PUBLIC_KEYS_FILE = Path(env_path("PITH_SIGNING_PUBLIC_KEYS", str(VAR_DIR / "signing" / "public-keys.json"),
                                         directory=False))
# The log's name in its checkpoints and the signing key's name: a schema-less URL prefix.
LOG_ORIGIN = env_str("PITH_LOG_ORIGIN", "localhost/pith-log")
if not LOG_ORIGIN or any(c.isspace() or c == "+" for c in LOG_ORIGIN):
    raise ImproperlyConfigured(f"PITH_LOG_ORIGIN={LOG_ORIGIN!r}: a key name has no spaces and no '+' "
                               "(e.g. pith.example/log)")
LOG_DIR = Path(env_path("PITH_LOG_DIR", str(VAR_DIR / "log"), directory=True))     # tiles: shared storage
LOG_OBSERVATIONS = env_bool("PITH_LOG_OBSERVATIONS", True)     # off only to measure what logging costs
DUMPS_KEEP = env_int("PITH_DUMPS_KEEP", 3, minimum=1)
# Each server process freezes its heap after this many requests (pith/heap.py); 0 never does.
GC_FREEZE_AFTER_REQUESTS = env_int("PITH_GC_FREEZE_AFTER_REQUESTS", 500, minimum=0)
DUMP_HOUR = env_int("PITH_DUMP_HOUR", 3, minimum=0, maximum=23)   # UTC, daily
CELERY_BEAT_SCHEDULE["dump-records"] = {"task": "citations.dump_records", "schedule": crontab(hour=DUMP_HOUR, minute=0)}
CELERY_BEAT_SCHEDULE["sweep-jobs"] = {"task": "citations.sweep_jobs", "schedule": 60.0}
# The transparency log: pending observations sequenced and a checkpoint signed, every minute.
CELERY_BEAT_SCHEDULE["publish-checkpoint"] = {"task": "citations.publish_checkpoint", "schedule": 60.0}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_choice("LOG_LEVEL", "WARNING", LOG_LEVELS)},
}
