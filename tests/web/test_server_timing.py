"""Every response says how long the application took to make it (pith.middleware.ServerTiming)."""
import pytest


@pytest.mark.parametrize("path", ["/api/v1/observations/", "/evidence", "/api/v1/no-such-list/"])
def test_every_response_says_how_long_the_application_took(db, client, path):
    name, duration = client.get(path)["Server-Timing"].split(";dur=")
    assert name == "app" and float(duration) >= 0
