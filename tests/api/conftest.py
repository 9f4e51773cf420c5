import pytest
from django.contrib.auth.models import Permission, User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from curation.groups import curators_group


@pytest.fixture
def api():
    return APIClient()


def token_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


@pytest.fixture
def curator_api(db):
    user = User.objects.create_user("ada", password="pw-ada-123456", is_staff=True)
    user.groups.add(curators_group())
    return token_client(user)


@pytest.fixture
def ingester_api(db):
    user = User.objects.create_user("bot", password="pw-bot-123456")
    user.user_permissions.add(*Permission.objects.filter(codename__in=["add_paperreference", "add_job"]))
    return token_client(user)


@pytest.fixture
def reader_api(db):
    """Authenticated, with no permissions at all."""
    return token_client(User.objects.create_user("reader", password="pw-reader-123456"))


@pytest.fixture
def staff_api(db):
    return token_client(User.objects.create_user("ops", password="pw-ops-123456", is_staff=True))


@pytest.fixture
def operator_api(db):
    """Staff who may see jobs, as in the admin."""
    user = User.objects.create_user("operator", password="pw-operator-123456", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="view_job"))
    return token_client(user)
