"""Groundwork settings: every value comes from the environment, with working local defaults.

The defaults run the whole product on one machine: a SQLite file under var/, the embedded
FalkorDB server (graph over Bolt, broker over the Redis protocol) and the offline LLM engine.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from config.env import (
    checked,
    env_bool,
    env_choice,
    env_int,
    env_list,
    env_str,
    env_url,
    missing_secrets,
)
from config.local_secret import read_or_create_secret

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("GROUNDWORK_VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

# Production unless said otherwise: `make` targets set DEBUG=true for a development machine.
DEBUG = env_bool("DEBUG", False)
DEVELOPMENT_SECRET_KEY = "groundwork-local-development-key-change-me-in-production"  # noqa: S105
SECRET_KEY = env_str("SECRET_KEY", DEVELOPMENT_SECRET_KEY)
# The test runner runs with DEBUG off but serves plain HTTP with the published key; every
# other start with DEBUG off is production.
PRODUCTION = not DEBUG and "pytest" not in sys.modules
if PRODUCTION and SECRET_KEY == DEVELOPMENT_SECRET_KEY:
    raise ImproperlyConfigured(
        "SECRET_KEY is the development key while DEBUG is off: set SECRET_KEY (a long random "
        "string) for production, or DEBUG=true on a development machine"
    )
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

# --- HTTPS: on in production (TLS ends at a proxy that sets X-Forwarded-Proto) ---
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", PRODUCTION)
SECURE_REDIRECT_EXEMPT = [
    r"^health$",
    r"^health/live$",
]  # probes from inside the network speak plain HTTP
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", PRODUCTION)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", PRODUCTION)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000 if PRODUCTION else 0, maximum=10**9)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", PRODUCTION)
# Preload is a promise to browsers that is slow to take back (months): the operator opts in.
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
# The preload list is opt-in, so `check --deploy`'s reminder about it is expected unless set.
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]
# Scripts, styles, images and connections from this site only (the pages have no inline script
# or handler; style attributes are allowed); no plugins, no framing, forms post here only.
CONTENT_SECURITY_POLICY = env_str(
    "CONTENT_SECURITY_POLICY",
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; "
    "base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
)

# --- mail: password reset is offered only when a server is configured ---
EMAIL_HOST = env_str("EMAIL_HOST", "")
EMAIL_PORT = env_int("EMAIL_PORT", 587, minimum=1)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "groundwork@localhost")
PASSWORD_RESET_ENABLED = bool(EMAIL_HOST)
# Without a server, mail (invitations) is printed on the console; the page shows the link too.
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)

# --- the client's address: proxies in front of the app that append to X-Forwarded-For ---
# 0: the connection's address (REMOTE_ADDR), the header ignored. N: the N-th address from the
# header's end, the one the outermost trusted proxy saw (compose: 1, its TLS proxy). A client
# can prepend anything to the header, so it is never read further than N.
NUM_PROXIES = env_int("NUM_PROXIES", 0, maximum=10)

# --- rate limits, counted in the shared cache (so every web process counts the same) ---
# Sign-in (web login and the API token endpoint): attempts per client address.
LOGIN_ATTEMPTS_PER_MINUTE = env_int("LOGIN_ATTEMPTS_PER_MINUTE", 10, minimum=1, maximum=10_000)
# Failed sign-ins of one account from one address: this many are free, then each further try
# waits twice as long as the last (1 s, 2 s, 4 s ... up to the maximum). Another address, or
# another account from this address, is not held up; a success or a quiet day forgets them.
LOGIN_FREE_FAILURES = env_int("LOGIN_FREE_FAILURES", 5, minimum=1, maximum=1000)
LOGIN_BACKOFF_MAX_SECONDS = env_int("LOGIN_BACKOFF_MAX_SECONDS", 900, minimum=1, maximum=86_400)
# API calls per signed-in user (per address when anonymous).
API_READS_PER_MINUTE = env_int("API_READS_PER_MINUTE", 240, minimum=1, maximum=1_000_000)
API_WRITES_PER_MINUTE = env_int("API_WRITES_PER_MINUTE", 60, minimum=1, maximum=1_000_000)
# Sign-ups per address, invitations created per user, /health per address.
SIGNUPS_PER_HOUR = env_int("SIGNUPS_PER_HOUR", 10, minimum=1, maximum=1_000_000)
INVITATIONS_PER_HOUR = env_int("INVITATIONS_PER_HOUR", 50, minimum=1, maximum=1_000_000)
HEALTH_CHECKS_PER_MINUTE = env_int("HEALTH_CHECKS_PER_MINUTE", 60, minimum=1, maximum=1_000_000)

# --- embedded services (graph + broker in one redis-server with the FalkorDB module) ---
EMBEDDED_GRAPH_PORT = env_int("EMBEDDED_GRAPH_PORT", 17687, minimum=1)
EMBEDDED_REDIS_PORT = env_int("EMBEDDED_REDIS_PORT", 16379, minimum=1)
EMBEDDED_DATA_DIR = Path(env_str("EMBEDDED_DATA_DIR", str(VAR_DIR / "embedded")))
# The embedded server asks for a password (redis `requirepass`), generated once under var/;
# the default graph, broker and lock URLs below carry it. Its Bolt listener stays off: it
# listens on every interface and lets a client without credentials in.
EMBEDDED_PASSWORD = env_str("EMBEDDED_PASSWORD", "") or read_or_create_secret(
    VAR_DIR / "embedded-password"
)
_EMBEDDED = f":{EMBEDDED_PASSWORD}@127.0.0.1:{EMBEDDED_REDIS_PORT}"

# --- SQL ---
DATABASE_URL = env_url(
    "DATABASE_URL",
    f"sqlite:///{VAR_DIR / 'groundwork.sqlite3'}",
    {"sqlite", "postgres", "postgresql", "pgsql"},
)
DATABASES = {
    "default": dj_database_url.parse(checked("DATABASE_URL", DATABASE_URL, dj_database_url.parse))
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE: a writer takes the lock when its transaction begins, so concurrent writers
    # (web, worker threads) wait for each other instead of failing with "database is locked".
    DATABASES["default"]["OPTIONS"] = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    # A file, not shared memory: there a concurrent writer (a worker thread, the live server)
    # fails at once with "table is locked" instead of waiting for the lock.
    DATABASES["default"]["TEST"] = {
        "NAME": env_str("TEST_SQLITE_NAME", str(VAR_DIR / f"test-groundwork-{os.getpid()}.sqlite3"))
    }
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env_int("DATABASE_CONN_MAX_AGE", 60, maximum=86400)
# The role that owns the tables, on PostgreSQL: migrations run as it (`manage.py
# kg_database_setup`), which also grants DATABASE_URL's role what the app needs and no more
# (INSERT and SELECT only on the ledger: kg.operations.database_roles). Unset, DATABASE_URL's
# role does both (a development machine). Not an entry of DATABASES: the app never uses it.
DATABASE_OWNER_URL = env_str("DATABASE_OWNER_URL", "")
DATABASE_OWNER: dict | None = None
if DATABASE_OWNER_URL:
    env_url("DATABASE_OWNER_URL", DATABASE_OWNER_URL, {"postgres", "postgresql", "pgsql"})
    DATABASE_OWNER = dj_database_url.parse(
        checked("DATABASE_OWNER_URL", DATABASE_OWNER_URL, dj_database_url.parse)
    )
    _app_db = DATABASES["default"]
    if _app_db["ENGINE"] != DATABASE_OWNER["ENGINE"] or any(
        str(_app_db.get(k) or "") != str(DATABASE_OWNER.get(k) or "")
        for k in ("HOST", "PORT", "NAME")
    ):
        raise ImproperlyConfigured(
            "DATABASE_OWNER_URL must name the database DATABASE_URL names (same PostgreSQL host, "
            "port and database), as its owner role"
        )
    if _app_db.get("USER") == DATABASE_OWNER.get("USER"):
        raise ImproperlyConfigured(
            "DATABASE_URL and DATABASE_OWNER_URL name the same role: the app must connect as a "
            "role that does not own the tables"
        )

# --- graph ---
# falkordb://host:port speaks FalkorDB's native protocol (the embedded default: its Bolt
# listener is experimental and fails on large requests); bolt:// or neo4j:// for Neo4j 5.
GRAPH_URI = env_url(
    "GRAPH_URI",
    f"falkordb://{_EMBEDDED}",
    {"bolt", "neo4j", "bolt+s", "neo4j+s", "falkordb", "falkordbs", "redis"},
)
GRAPH_USER = env_str("GRAPH_USER", "")
GRAPH_PASSWORD = env_str("GRAPH_PASSWORD", "")
GRAPH_DATABASE = env_str("GRAPH_DATABASE", "")
GRAPH_TIMEOUT_SECONDS = env_int("GRAPH_TIMEOUT_SECONDS", 5, minimum=1, maximum=600)

# --- queue ---
CELERY_BROKER_URL = env_url(
    "CELERY_BROKER_URL", f"redis://{_EMBEDDED}/1", {"redis", "rediss", "memory"}
)
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", CELERY_BROKER_URL)
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_TIMEOUT = 3
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 3, "socket_timeout": 10}
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 3
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# Celery closes the database connections around every task unless told to reuse them; a worker
# then opens one per task. Reused for this many tasks, and dropped sooner when unusable or older
# than CONN_MAX_AGE (kg.tasks checks around each task, as Django does around a request).
CELERY_DB_REUSE_MAX = 1000
# --- recovery: the sweep re-queues episodes pending or running past the deadline ---
PIPELINE_STALE_AFTER_SECONDS = env_int("PIPELINE_STALE_AFTER_SECONDS", 600, minimum=5)
PIPELINE_MAX_REQUEUES = env_int("PIPELINE_MAX_REQUEUES", 5, minimum=1, maximum=100)
PIPELINE_SWEEP_EVERY_SECONDS = env_int("PIPELINE_SWEEP_EVERY_SECONDS", 60, minimum=1)
CELERY_BEAT_SCHEDULE = {
    "org-promotion-sweep": {"task": "orgmemory.sweep_all", "schedule": 3600.0},
    "pipeline-stale-sweep": {
        "task": "kg.sweep_stale_episodes",
        "schedule": float(PIPELINE_SWEEP_EVERY_SECONDS),
    },
}
# Redis used for per-project locks: database 2 on the broker's server by default.
LOCK_REDIS_URL = env_url(
    "LOCK_REDIS_URL",
    (
        urlsplit(CELERY_BROKER_URL)._replace(path="/2").geturl()
        if CELERY_BROKER_URL.startswith(("redis://", "rediss://"))
        else f"redis://{_EMBEDDED}/2"
    ),
    {"redis", "rediss"},
)
# The installation's name in lock and cache keys shared through Redis; the database name when
# unset, so two installations on one Redis never block each other.
GROUNDWORK_INSTALLATION = env_str("GROUNDWORK_INSTALLATION", "")
# Django's cache (rate-limit counters, the anonymous /health answer): database 3 on the
# broker's server by default, shared by every web process.
CACHE_REDIS_URL = env_url(
    "CACHE_REDIS_URL",
    (
        urlsplit(CELERY_BROKER_URL)._replace(path="/3").geturl()
        if CELERY_BROKER_URL.startswith(("redis://", "rediss://"))
        else f"redis://{_EMBEDDED}/3"
    ),
    {"redis", "rediss"},
)
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": CACHE_REDIS_URL,
        "KEY_PREFIX": "groundwork:"
        + (
            GROUNDWORK_INSTALLATION
            or str(DATABASES["default"].get("NAME") or "default").rsplit("/", 1)[-1]
        ),
        # A stalled Redis answers a request with an error within seconds, never a hang.
        "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
    }
}

# --- a production start refuses servers reached without a password ---
if PRODUCTION:
    _missing = missing_secrets(
        {
            "DATABASE_URL": DATABASE_URL,
            "CELERY_BROKER_URL": CELERY_BROKER_URL,
            "LOCK_REDIS_URL": LOCK_REDIS_URL,
            "CACHE_REDIS_URL": CACHE_REDIS_URL,
            **({"GRAPH_URI": GRAPH_URI} if GRAPH_URI.startswith(("falkordb", "redis")) else {}),
        },
        {} if GRAPH_URI.startswith(("falkordb", "redis")) else {"GRAPH_PASSWORD": GRAPH_PASSWORD},
    )
    if _missing:
        raise ImproperlyConfigured(
            "DEBUG is off but " + "; ".join(_missing) + ": set the password in the environment "
            "(docker-compose.yml takes POSTGRES_PASSWORD, NEO4J_PASSWORD and REDIS_PASSWORD), "
            "or DEBUG=true on a development machine"
        )

# --- LLM ---
OPENAI_API_KEY = env_str("OPENAI_API_KEY", "")
OPENAI_BASE_URL = env_str("OPENAI_BASE_URL", "")
LLM_ENGINE = env_choice(
    "LLM_ENGINE",
    "openai" if (OPENAI_API_KEY or OPENAI_BASE_URL) else "offline",
    {"offline", "openai"},
)
LLM_MODEL = env_str("LLM_MODEL", "gpt-4o-mini")
LLM_TIMEOUT_SECONDS = env_int("LLM_TIMEOUT_SECONDS", 60, minimum=1, maximum=3600)
LLM_MAX_RETRIES = env_int("LLM_MAX_RETRIES", 3, maximum=10)
# How the answer's JSON shape is asked for: json_schema (OpenAI, vLLM, recent Ollama),
# json_object with a schema (llama.cpp servers), none (JSON mode, validated and repaired);
# auto probes the endpoint once and remembers what it takes.
LLM_STRUCTURED_OUTPUT = env_choice(
    "LLM_STRUCTURED_OUTPUT", "auto", {"auto", "json_schema", "json_object", "none"}
)
# Calls in flight at once per endpoint, across all workers (1 for a single-slot local server).
LLM_MAX_CONCURRENCY = env_int("LLM_MAX_CONCURRENCY", 4, minimum=1, maximum=256)
# The ceiling of any call's answer; each call's own cap is sized from its request and schema.
LLM_MAX_OUTPUT_TOKENS = env_int("LLM_MAX_OUTPUT_TOKENS", 4096, minimum=64, maximum=131_072)
PRD_REVIEW = env_bool("PRD_REVIEW", True)  # the reviewer pass; runs only with a real model
PRD_SECTION_BUDGET = env_int("PRD_SECTION_BUDGET", 12, minimum=1, maximum=1000)  # per section
LLM_MAX_INPUT_CHARS = env_int("LLM_MAX_INPUT_CHARS", 100_000, minimum=1000, maximum=10_000_000)
# The learned gate between the offline rules' (or the model's) candidates and the graph
# (kg/llm/offline/gate.py). Off by default: on the test splits it moves precision by less than
# its interval (+0.005) and costs about 40% of the extraction's speed (README: The learned gate).
EXTRACTION_GATE = env_bool("EXTRACTION_GATE", False)

INSTALLED_APPS = [
    "config.admin.GroundworkAdminConfig",  # superusers only (config/admin.py)
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI / Redoc assets served locally, no CDN
    "kg",
    "chat",
    "artifacts",
    "orgmemory",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",  # gunicorn serves no static files itself
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.content_security.ContentSecurityPolicy",
    "kg.web.api.errors.JsonErrorsUnderApi",
]

ROOT_URLCONF = "config.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]
        },
    }
]
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

# Every password set (sign-up, invitation, change, reset, createsuperuser) passes all four:
# at least 8 characters, not like the user name or e-mail, not one of the 20,000 most common
# passwords, not only digits.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/accounts/login/"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"  # collectstatic writes here; whitenoise serves it
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REST_FRAMEWORK = {
    # Token first: an unauthenticated API call then answers 401 with WWW-Authenticate: Token
    # (DRF takes the challenge from the first class; session auth has none, which gives 403).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "kg.web.api.pagination.StrictPageNumberPagination",
    # The API speaks JSON: a form cannot say a number from a string or true from "0", so a
    # form or multipart body is 415. Uploads take multipart, the token endpoint a form too.
    "DEFAULT_PARSER_CLASSES": ["kg.web.api.parsers.BoundedJSONParser"],
    # Counted in the shared cache; the limits are settings above (kg.web.api.throttles).
    "DEFAULT_THROTTLE_CLASSES": [
        "kg.web.api.throttles.ApiReadThrottle",
        "kg.web.api.throttles.ApiWriteThrottle",
    ],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "kg.web.api.exceptions.api_exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Groundwork API",
    "DESCRIPTION": "Product research with an evidence trail.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "kg.web.api.schema.add_error_responses",
        "kg.web.api.schema.require_discriminated_bodies",
    ],
    # Choice sets that share a field name get their own component names.
    "ENUM_NAME_OVERRIDES": {
        "EpisodeKindEnum": "kg.models.episodes.EpisodeKind",
        "VersionStatusEnum": "artifacts.models.VersionStatus",
    },
    # <num:...> (kg.web.api.converters): at most nine digits, documented as a bounded integer.
    "PATH_CONVERTER_OVERRIDES": {
        "num": {"type": "integer", "minimum": 0, "maximum": 999999999},
        # <project:...>: a slug, or <organization>~<slug> (kg.web.api.converters).
        "project": {"type": "string", "pattern": "^[-a-zA-Z0-9_]+(~[-a-zA-Z0-9_]+)?$"},
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        "structured": {"()": "config.logging.StructuredFormatter"},
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain"},
        # Server errors (500s) as one JSON line each on stderr, whatever DEBUG is.
        "errors": {"class": "logging.StreamHandler", "formatter": "structured"},
    },
    "loggers": {
        "django.request": {"handlers": ["errors"], "level": "ERROR", "propagate": False},
        "groundwork.api": {"handlers": ["errors"], "level": "WARNING", "propagate": False},
        "groundwork": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO").upper()},
        "neo4j": {"handlers": ["console"], "level": "WARNING"},
        "celery": {"handlers": ["console"], "level": env_str("WORKER_LOG_LEVEL", "INFO").upper()},
    },
}
