"""schemathesis against the live OpenAPI schema: every operation, generated requests, no server
error and no response that breaks the schema."""
import schemathesis
from django.contrib.auth.models import User
from hypothesis import HealthCheck, given
from hypothesis import settings as examples
from rest_framework.authtoken.models import Token
from schemathesis.checks import content_type_conformance, not_a_server_error, response_schema_conformance

CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]
EXAMPLES_PER_OPERATION = 25


def test_every_operation_answers_within_its_schema(transactional_db, live_server, settings, seeds):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": None, "user": None}}
    root = User.objects.create_superuser("root", password="pw-root-123456")
    headers = {"Authorization": f"Token {Token.objects.create(user=root).key}"}
    # Loaded from the running server: the schema under test is the one the API serves.
    schema = schemathesis.openapi.from_url(f"{live_server.url}/api/schema/?format=json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 15

    calls = []
    for operation in operations:
        @given(case=operation.as_strategy())
        @examples(max_examples=EXAMPLES_PER_OPERATION, deadline=None, suppress_health_check=list(HealthCheck),
                  database=None)
        def check(case):
            response = case.call_and_validate(base_url=live_server.url, checks=CHECKS, headers=headers)
            calls.append((operation.label, response.status_code))

        check()
    # Every operation was really called, and not only refused.
    assert {label for label, _ in calls} == {operation.label for operation in operations}
    assert sum(1 for _, code in calls if code < 400) >= len(operations)
