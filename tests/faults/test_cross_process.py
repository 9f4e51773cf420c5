"""A write from another process (a command run in a shell) shows in the next response of the web process."""
import subprocess
import sys
import urllib.request

import pytest
from django.contrib.auth.models import User

from citations.models import PaperReference
from curation.groups import curators_group
from tests.celery_worker import ROOT, worker_env
from tests.factories import make_paper, make_references


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read()


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_an_override_made_by_a_command_shows_in_the_next_json_response(live_server):
    paper = make_paper("2601.00001")
    make_references(paper, 2)
    curator = User.objects.create_user("ada", is_staff=True)
    curator.groups.add(curators_group())
    reference = PaperReference.objects.order_by("reference_index").first()
    url = f"{live_server.url}/paper/2601.00001/citation-record.json"
    before = fetch(url)
    assert fetch(url) == before                     # served from the web process's own cache now

    env = worker_env("memory://localhost/")
    env.pop("CELERY_TASK_ALWAYS_EAGER")             # eager: the command runs its follow-up itself
    env.pop("CELERY_BROKER_URL")                     # the embedded default: no broker, no result backend
    env.pop("CELERY_RESULT_BACKEND")
    result = subprocess.run(
        [sys.executable, "manage.py", "override", str(reference.pk), "--field", "title", "--value",
         "A title set from the shell", "--reason", "read from the PDF", "--curator", "ada"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr

    after = fetch(url)
    assert b"A title set from the shell" in after and b"A title set from the shell" not in before
