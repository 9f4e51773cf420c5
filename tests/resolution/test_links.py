"""The one link writer: every path that decides a reference's link goes through it, and it does
every write that follows (current resolution, waiting keys, standing check, records)."""
import json
import re
from pathlib import Path

from citations.models import CurrentResolution, ResolutionState, WaitingReferenceKey
from citations.records.cache import cached_record
from curation.services import apply_override
from tests.factories import make_paper, make_references

ROOT = Path(__file__).resolve().parents[2]


def _inbound(arxiv_id: str) -> list:
    return json.loads(cached_record(arxiv_id=arxiv_id).body)["inbound"]


def test_a_curators_link_changes_the_record_of_the_paper_it_no_longer_names(curator):
    citing, named, right = make_paper("2501.00001"), make_paper("2501.00002"), make_paper("2501.00003")
    [reference] = make_references(citing, 1, cites=named, state=ResolutionState.VERIFIED_EXACT,
                                  resolver_source="arxiv_id")
    assert len(_inbound("2501.00002")) == 1 and _inbound("2501.00003") == []      # both now cached
    apply_override(reference_id=reference.pk, field="link", value="arXiv:2501.00003", reason="the one it means",
                   curator=curator, expected_revision=0)
    assert _inbound("2501.00002") == []
    assert len(_inbound("2501.00003")) == 1
    current = CurrentResolution.objects.get(reference_id=reference.pk)
    assert (current.cited_paper_id, current.resolver_source) == (right.pk, "curation")


def test_a_reference_that_names_its_work_waits_for_none(curator):
    citing = make_paper("2501.00011")
    make_paper("2501.00012")
    [reference] = make_references(citing, 1)
    WaitingReferenceKey.objects.create(key=7, reference_id=reference.pk)
    apply_override(reference_id=reference.pk, field="link", value="2501.00012", reason="named in the text",
                   curator=curator, expected_revision=0)
    assert not WaitingReferenceKey.objects.filter(reference_id=reference.pk).exists()


def test_no_module_but_the_link_writer_stores_links():
    writes = re.compile(r"PaperReferenceLink\.objects\.(?:create|bulk_create|get_or_create|update_or_create)\(")
    offenders = [str(path.relative_to(ROOT)) for package in ("citations", "curation")
                 for path in (ROOT / package).rglob("*.py")
                 if "migrations" not in path.parts and writes.search(path.read_text(encoding="utf-8"))]
    assert offenders == ["citations/resolution/links.py"]
