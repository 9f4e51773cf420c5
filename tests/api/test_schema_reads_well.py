"""The OpenAPI schema reads as documentation for API clients (issue 31, item 12): no developer notes in
its descriptions, `ordering` lists its values, one /api/v1/health, no drf-spectacular warning when it is
generated; and a .json address that names nothing answers JSON, not a page."""
import re

import pytest
import yaml
from django.core.management import call_command

pytestmark = pytest.mark.usefixtures("db")


@pytest.fixture
def schema(client) -> dict:
    return yaml.safe_load(client.get("/api/schema/").content)


def _descriptions(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "description" and isinstance(value, str):
                yield value
            else:
                yield from _descriptions(value)
    elif isinstance(node, list):
        for item in node:
            yield from _descriptions(item)


def test_no_description_is_a_developer_note(schema):
    notes = re.compile(r"cached_list_page|list\(\)|generation|\.py\b|reference_current_resolutions")
    assert [text for text in _descriptions(schema) if notes.search(text)] == []


def test_ordering_lists_the_values_each_list_takes(schema):
    ordering = next(p for p in schema["paths"]["/api/v1/observations/"]["get"]["parameters"]
                    if p["name"] == "ordering")
    assert ordering["schema"]["enum"] == ["observed_at", "-observed_at", "reference_index", "-reference_index"]
    assert "Default: observed_at" in ordering["description"]
    for path, operations in schema["paths"].items():
        for parameter in operations.get("get", {}).get("parameters", []):
            if parameter["name"] == "ordering":
                assert parameter["schema"].get("enum"), path


def test_one_health_address_is_documented_and_both_answer(schema, client):
    assert [path for path in schema["paths"] if "health" in path] == ["/api/v1/health"]
    assert client.get("/api/v1/health").status_code == client.get("/api/v1/health/").status_code == 200


def test_the_schema_is_generated_without_a_warning(tmp_path):
    # --fail-on-warn: a warning (an underivable path parameter, an enum name collision, an
    # operationId collision) fails the command instead of being printed on every schema request.
    call_command("spectacular", "--fail-on-warn", "--file", str(tmp_path / "schema.yaml"))


@pytest.mark.parametrize("path", ["/paper/2599.00001/citation-record.json", "/paper/2509.11076v9/citation-record.json",
                                  "/nothing.json", "/api/v1/papers/2599.00001.json"])
def test_a_json_address_that_names_nothing_answers_json(client, path):
    response = client.get(path, follow=True)         # (a versioned id leads to the paper's address first)
    assert response.status_code == 404 and response["Content-Type"].startswith("application/json")
    assert response.json()["error"]["code"] == "not_found"


def test_a_page_that_names_nothing_is_still_a_page(client):
    response = client.get("/paper/2599.00001/citation-record")
    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")
