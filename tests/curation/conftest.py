import pytest
from django.contrib.auth.models import User

from citations.models import PaperReference
from curation.groups import curators_group


@pytest.fixture
def other_curator(db):
    user = User.objects.create_user("grace", password="pw-grace-123456", is_staff=True)
    user.groups.add(curators_group())
    return user


@pytest.fixture
def staff_reader(db):
    """Staff, but not a curator."""
    return User.objects.create_user("reader", password="pw-reader-123456", is_staff=True)


def seed_reference(arxiv_id: str, index: int) -> PaperReference:
    return PaperReference.objects.get(extraction__paper_version__paper__arxiv_id=arxiv_id, reference_index=index)


@pytest.fixture
def access_date(seeds):
    """Seed 000, reference 5: 'Accessed: 2025-06' as its title."""
    return seed_reference("2509.11076", 5)


@pytest.fixture
def megatron(seeds):
    """Seed 000, reference 54: Megatron-LM with year 1909, read from arXiv id 1909.08053."""
    return seed_reference("2509.11076", 54)
