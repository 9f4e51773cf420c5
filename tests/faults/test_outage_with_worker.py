"""Broker and cache down (a closed port) while writes arrive: every accepted write is processed exactly once
by a real worker after they return."""
import json
import subprocess
import sys

import pytest
from django.contrib.auth.models import Permission, User
from rest_framework.authtoken.models import Token

from citations.models import Job, JobState, PaperReference, ResolutionState
from curation.groups import curators_group
from tests.celery_worker import ROOT, client_call, redis_url, running_worker, wait_until, worker_env, worker_log
from tests.factories import make_paper

CLOSED = "redis://127.0.0.1:9/0"
WEB_WITH_BROKER_AND_CACHE_DOWN = """
import json, django
django.setup()
from rest_framework.test import APIClient
api = APIClient()
api.credentials(HTTP_AUTHORIZATION="Token {token}")
seen = {{}}
r = api.post("/api/v1/papers/2601.00001/references/", {{"version": 1, "source": "pdf_text", "references": [
    {{"index": 1, "raw": "B. Writer. Sparse attention for long documents. arXiv:2601.00002, 2026."}},
    {{"index": 2, "raw": "C. Other. A work nobody holds. Journal of Nothing, 2019."}}]}}, format="json")
seen["ingest"] = r.status_code
first = r.json()["observation_ids"][0]
r = api.post("/api/v1/papers/2601.00001/resolve/")
seen["resolve"] = [r.status_code, r.json()["state"]]
r = api.post("/api/v1/overrides/", {{"reference": first, "field": "year", "value": "2025",
                                    "reason": "the PDF says 2025", "revision": 0}}, format="json")
seen["override"] = [r.status_code, r.json()["follow_up"]["dispatched"]]
seen["record"] = api.get("/paper/2601.00001/citation-record.json").status_code
seen["observations"] = api.get("/api/v1/observations/").status_code
health = api.get("/api/v1/health").json()
seen["health"] = [health["status"], health["broker"][:4], health["cache"][:4]]
print(json.dumps(seen))
"""


@pytest.mark.celery_worker
@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_writes_accepted_with_broker_and_cache_down_are_processed_exactly_once_when_they_return():
    broker = redis_url()
    make_paper("2601.00001", title="Long context models")
    make_paper("2601.00002", title="Sparse attention for long documents")
    user = User.objects.create_user("ada", is_staff=True)
    user.groups.add(curators_group())
    user.user_permissions.add(*Permission.objects.filter(codename__in=["add_paperreference", "add_job"]))
    token = Token.objects.create(user=user).key

    env = worker_env(CLOSED, REDIS_CACHE_URL="redis://127.0.0.1:9/1", CELERY_RESULT_BACKEND="")
    result = subprocess.run([sys.executable, "-c", WEB_WITH_BROKER_AND_CACHE_DOWN.format(token=token)], cwd=ROOT,
                            env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen == {"ingest": 201, "resolve": [202, "queued"], "override": [201, False], "record": 200,
                    "observations": 200, "health": ["degraded", "down", "down"]}
    pending = list(Job.objects.filter(state=JobState.QUEUED).values_list("kind", flat=True))
    assert sorted(pending) == ["re_resolve_references", "resolve"]

    with running_worker(broker) as worker:
        # The broker is back; the sweep (Celery beat's every minute) sends what it refused.
        client_call(broker, "import django; django.setup()\nfrom datetime import timedelta\n"
                            "from django.utils import timezone\nfrom citations.jobs.dispatch import sweep_jobs\n"
                            "print(sweep_jobs(now=timezone.now() + timedelta(seconds=30)))")
        assert wait_until(lambda: not Job.objects.exclude(state=JobState.SUCCEEDED).exists(), timeout=90), \
            worker_log(worker)

    held, unknown = PaperReference.objects.order_by("reference_index")
    # Exactly once: the ingested link plus one resolution each; the second job found nothing to change.
    assert [link.state for link in held.links.order_by("observed_at", "id")] == [
        ResolutionState.UNRESOLVED, ResolutionState.VERIFIED_EXACT]
    assert unknown.links.count() == 2
    resolve_job, re_resolve_job = Job.objects.get(kind="resolve"), Job.objects.get(kind="re_resolve_references")
    assert resolve_job.done_chunks == resolve_job.total_chunks == 1
    # The two jobs ran in either order; between them, each new link was written once.
    assert resolve_job.counts["written"] + re_resolve_job.counts["written"] == 2
