import pytest
from django.contrib.auth.models import Permission, User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from citations.models import PaperReference
from curation.groups import curators_group


def token_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def error_of(response) -> dict:
    assert response["Content-Type"].startswith("application/json"), response.content[:200]
    return response.json()["error"]


@pytest.fixture
def other_curator(db):
    """A curator who is not staff: the API shows them no curator names."""
    user = User.objects.create_user("grace", password="pw-grace-123456")
    user.groups.add(curators_group())
    return user


@pytest.fixture
def bare_staff(db):
    """Staff, with no permission at all."""
    return User.objects.create_user("ops", password="pw-ops-123456", is_staff=True)


@pytest.fixture
def operator(db):
    user = User.objects.create_user("operator", password="pw-operator-123456", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="view_job"))
    return user


@pytest.fixture
def superuser(db):
    return User.objects.create_superuser("root", password="pw-root-123456")


@pytest.fixture
def reference(seeds):
    """Seed 000, reference 54 (Megatron-LM, year 1909): no overrides yet."""
    return PaperReference.objects.get(extraction__paper_version__paper__arxiv_id="2509.11076", reference_index=54)
