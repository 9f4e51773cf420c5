"""DRF conventions a consumer relies on: unknown parameters refused, links that answer, health in the root."""
import pytest

from tests.factories import make_paper, make_references


@pytest.fixture
def paper(db):
    paper = make_paper("2601.00001")
    make_references(paper, 2)
    return paper


@pytest.mark.parametrize("address, parameter", [
    ("/api/v1/observations/?stat=unresolved", "stat"),
    ("/api/v1/papers/?serach=zero", "serach"),
    ("/api/v1/works/?titel=x", "titel"),
    ("/api/v1/standing-events/?kind=retraction", "kind"),
    ("/api/v1/overrides/?user=ada", "user"),
    ("/api/v1/changes/?after=2020-01-01T00:00:00Z", "after"),
])
def test_an_unknown_query_parameter_is_a_400_naming_it(client, paper, address, parameter):
    response = client.get(address)
    assert response.status_code == 400
    assert parameter in response.json()["error"]["fields"]


@pytest.mark.parametrize("address", ["/api/v1/observations/?ordering=title", "/api/v1/papers/?ordering=-title",
                                     "/api/v1/works/?ordering=doi"])
def test_an_ordering_the_list_cannot_serve_is_a_400(client, paper, address):
    response = client.get(address)
    assert response.status_code == 400 and "cannot order by" in response.json()["error"]["message"]


def test_known_parameters_and_orderings_still_answer(client, paper):
    assert client.get("/api/v1/observations/?state=unresolved&ordering=-observed_at&page_size=1").status_code == 200
    assert client.get("/api/v1/papers/?search=2601.00001&format=json").status_code == 200


def test_the_record_link_answers_without_a_redirect_and_health_is_in_the_root(client, paper):
    links = client.get("/api/v1/papers/").json()["results"][0]["links"]
    assert client.get(links["api_record"]).status_code == 200
    root = client.get("/api/v1/").json()
    assert root["health"].endswith("/api/v1/health")
    assert client.get("/api/v1/health/").status_code == 200 and client.get("/api/v1/health").status_code == 200


def test_the_schema_documents_the_error_responses(client, db):
    import yaml

    schema = yaml.safe_load(client.get("/api/schema/").content)
    create = schema["paths"]["/api/v1/overrides/"]["post"]["responses"]
    assert {"400", "401", "403", "409", "413", "429"} <= set(create)
    assert create["409"]["content"]["application/json"]["schema"]["$ref"] == "#/components/schemas/Error"
    assert {"400", "404", "429"} <= set(schema["paths"]["/api/v1/observations/"]["get"]["responses"])
