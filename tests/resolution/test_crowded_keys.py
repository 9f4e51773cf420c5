"""A blocking key shared by many titles does not make every one of them a candidate, so a lookup's
cost stays bounded as the store grows: its owners are candidates only when they share another key
with the reference, and a key shared by too many is not read at all. The reference's specific keys
still find its work, and the evidence counts the crowded keys."""
import json

import pytest

from citations.input_files import lines_of
from citations.models import PaperReference
from citations.resolution import store
from citations.resolution.service import resolve_paper
from citations.sources.reference_lists import ReferenceList, ingest_reference_list
from citations.works.importer import import_works
from tests.factories import make_paper

pytestmark = pytest.mark.usefixtures("db")
SPECIFIC = "K. Osei. Deep learning protein structure docking prediction. Bioinformatics, 2020."
GENERIC = "K. Osei. Recent advances in clinical immunology research. Bioinformatics, 2020."


@pytest.fixture
def crowded_store(monkeypatch):
    monkeypatch.setattr(store, "SPECIFIC_KEY", 3)
    # Five works open with the same four words (one shared head key), one of them the work cited
    # below; four works share one title, and so each of its keys.
    works = [(f"Deep learning protein structure {topic} prediction", f"10.1000/p.{n}")
             for n, topic in enumerate(["folding", "docking", "function", "stability", "binding"])]
    works += [("Recent advances in clinical immunology research", f"10.1000/e.{n}") for n in range(4)]
    import_works(lines_of(b"\n".join(json.dumps(
        {"DOI": doi, "title": [title], "author": [{"family": "Osei", "sequence": "first"}], "type": "journal-article",
         "issued": {"date-parts": [[2020]]}}).encode() for title, doi in works)), source="crossref")
    make_paper("2601.00001", title="Citing paper")


def cite(*raws: str) -> list:
    ingest_reference_list(ReferenceList("2601.00001", 1, "pdf_text", tuple(enumerate(raws, 1))))
    resolve_paper(arxiv_id="2601.00001")
    return [PaperReference.objects.get(raw_text=raw).links.order_by("-observed_at", "-id").first() for raw in raws]


def test_the_specific_keys_of_a_title_find_its_work_beside_a_crowded_one(crowded_store):
    (found,) = cite(SPECIFIC)
    assert found.state == "verified_fuzzy" and found.cited_work.doi == "10.1000/p.1"
    assert found.evidence["keys_too_common"] == 1                     # the shared head key
    assert len(found.evidence["candidates"]) == 1                     # its four neighbours never loaded


def test_owners_of_crowded_keys_are_candidates_when_they_share_two_keys_with_the_reference(monkeypatch):
    # A title damaged at its end keeps its head keys: its work shares both, its neighbours one each.
    monkeypatch.setattr(store, "SPECIFIC_KEY", 3)
    specific, head, second_head = [("a", None)], [("b", None), ("c", None), ("d", None), ("e", None)], \
        [("b", None), ("f", None), ("g", None), ("h", None)]
    assert store._chosen([specific, head, second_head]) == [("a", None), ("b", None)]
    monkeypatch.setattr(store, "CROWDED_KEY", 3)          # too many to read: nothing from them
    assert store._chosen([specific, head, second_head]) == [("a", None)]


def test_identical_titles_are_candidates_and_are_not_told_apart(crowded_store):
    (left,) = cite(GENERIC)
    assert left.state == "unresolved" and left.cited_work is None
    assert left.evidence["keys_too_common"] == 4                      # f:, h:, t: and the second h:
    assert left.evidence["reason"] == "two candidates are too close to tell apart"


def test_a_key_shared_by_too_many_titles_finds_nothing_and_says_so(crowded_store, monkeypatch):
    monkeypatch.setattr(store, "CROWDED_KEY", 3)
    (left,) = cite(GENERIC)
    assert left.state == "unresolved" and left.evidence["keys_too_common"] == 4
    assert left.evidence["reason"] == "the title's blocking keys are each shared by too many works to tell apart"
