import pytest
from django.conf import settings

from pith.celery import ping
from tests.celery_worker import client_call, redis_url, running_worker


def test_tasks_run_in_the_calling_process_on_the_embedded_default():
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.skip("a broker is configured for this run")
    assert ping.delay().get(timeout=5) == "pong"


@pytest.mark.celery_worker
def test_a_real_worker_answers_through_redis():
    broker = redis_url()
    with running_worker(broker):
        out = client_call(broker, "import django; django.setup()\n"
                                  "from pith.celery import ping\n"
                                  "print(ping.delay().get(timeout=45))")
    assert out.strip() == "pong"
