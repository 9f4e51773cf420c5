"""ingest_references and POST /api/v1/papers/<id>/references/: a bad list is refused with its
reason, the good lists around it are kept, nothing reaches a column it does not fit, and the
parser reads years and numbers in ASCII digits only."""
import gzip
import json

import pytest
from django.contrib.auth.models import Permission, User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DataError
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from citations.input_files import lines_of
from citations.models import PaperReference, ReferenceExtraction
from citations.parsing.identifiers import find_identifiers
from citations.parsing.parser import parse_reference
from citations.sources.arxiv_metadata import import_arxiv_metadata
from citations.sources.reference_lists import ingest_references
from tests.sources.test_arxiv_metadata import line, metadata

LONG_DOI = "10.1234/" + "a" * 392          # 400 characters; the doi column holds 255
GOOD_RAW = "A. Author. A title of a work. 2020."


def references(arxiv_id="2501.00001", version=1, raws=(GOOD_RAW,), indexes=None, **extra) -> dict:
    indexes = indexes or range(1, len(raws) + 1)
    return {"arxiv_id": arxiv_id, "version": version, "source": "pdf_text",
            "references": [{"index": i, "raw": raw} for i, raw in zip(indexes, raws)], **extra}


@pytest.fixture
def held(db):
    import_arxiv_metadata(lines_of(b"".join(line(metadata(f"2501.0000{n}")) for n in (1, 2, 3))))


def lists_held() -> set[str]:
    return set(ReferenceExtraction.objects.values_list("paper_version__paper__arxiv_id", flat=True))


# --- the importer -------------------------------------------------------------------------------------


@pytest.mark.parametrize("bad, reason", [
    (references("2501.00002", raws=("A title \ud800 of a work.",)),
     "a reference's raw text holds a lone surrogate (not valid Unicode)"),
    (references("2501.00002", raws=("A title \u0000 of a work.",)), "a reference's raw text holds a NUL character"),
    (references("2501.00002", raws=(GOOD_RAW, "B. Other. Another work. 2021."), indexes=(4, 4)),
     "reference index 4 appears twice"),
    (references(2501.00002), "no valid arxiv_id"),        # a number: 2501.00010 would lose its zeros
])
def test_a_bad_list_is_rejected_with_its_reason_and_the_lists_around_it_kept(held, bad, reason):
    data = line(references("2501.00001")) + line(bad) + line(references("2501.00003"))
    report = ingest_references(lines_of(data))
    assert dict(report.rejected) == {reason: 1} and report.examples[reason] == 2
    assert lists_held() == {"2501.00001", "2501.00003"}


def test_a_doi_longer_than_its_column_is_kept_as_a_malformed_identifier_and_the_list_stored(held):
    report = ingest_references(lines_of(line(references(raws=(f"A. Author. A title of a work. doi:{LONG_DOI}. 2020.",)))))
    assert report.created == {"reference_lists": 1, "references": 1} and not report.rejected
    reference = PaperReference.objects.get()
    assert reference.doi is None and reference.title == "A title of a work"
    (identifier,) = reference.identifiers
    assert identifier["value"] == LONG_DOI and identifier["valid"] is False
    assert identifier["problem"] == "longer than 255 characters, more than Pith stores for a DOI"


def test_a_list_the_database_refuses_is_rejected_and_the_others_kept(held, monkeypatch):
    write_references = PaperReference.objects.bulk_create

    def refusing(rows, *args, **kwargs):
        if any("refused" in r.raw_text for r in rows):
            raise DataError("value too long for the test")
        return write_references(rows, *args, **kwargs)

    monkeypatch.setattr(PaperReference.objects, "bulk_create", refusing)
    data = line(references("2501.00001")) + line(references("2501.00002", raws=("A refused work. 2020.",)))
    report = ingest_references(lines_of(data))
    assert report.examples == {"the database refused it: value too long for the test": 2}
    assert lists_held() == {"2501.00001"}


# --- the command --------------------------------------------------------------------------------------


def test_the_command_reports_the_bad_line_resolves_the_good_ones_and_exits_non_zero(held, tmp_path, capsys):
    path = tmp_path / "refs.jsonl"
    path.write_bytes(line(references("2501.00001")) + line(references("2501.00002", raws=("\ud800",))) +
                     line(references("2501.00003")))
    with pytest.raises(CommandError, match=r"^1 of 3 lines rejected; the other lines were ingested$"):
        call_command("ingest_references", str(path), "--resolve")
    out = capsys.readouterr().out
    assert "rejected 1: a reference's raw text holds a lone surrogate (not valid Unicode) (first at line 2)" in out
    assert "succeeded: 2 papers, 2 references" in out        # resolve ran for what was ingested
    assert lists_held() == {"2501.00001", "2501.00003"}


def test_a_truncated_gzip_file_of_reference_lists_is_a_clear_command_error(held, tmp_path):
    path = tmp_path / "refs.jsonl.gz"
    path.write_bytes(gzip.compress(b"".join(line(references("2501.00001", raws=(f"{n} " * 50,))) for n in range(500)))[:600])
    with pytest.raises(CommandError, match="the file ends early or is not valid gzip"):
        call_command("ingest_references", str(path))


# --- the API ------------------------------------------------------------------------------------------


@pytest.fixture
def ingester(held) -> APIClient:
    user = User.objects.create_user("bot", password="pw-bot-123456")
    user.user_permissions.add(Permission.objects.get(codename="add_paperreference"))
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def post(client, body: dict, arxiv_id="2501.00001"):
    # json.dumps escapes a lone surrogate as \ud800, as an attacker's client would send it.
    return client.post(f"/api/v1/papers/{arxiv_id}/references/", json.dumps(body), content_type="application/json")


@pytest.mark.parametrize("raws, indexes, says", [
    (("A title \ud800 of a work.",), None, "Surrogate characters are not allowed"),
    (("A title \u0000 of a work.",), None, "Null characters are not allowed"),
    ((GOOD_RAW, GOOD_RAW + " Again."), (7, 7), "reference index 7 appears twice"),
])
def test_the_api_answers_a_bad_list_with_400_and_the_json_error_envelope(ingester, raws, indexes, says):
    response = post(ingester, references(raws=raws, indexes=indexes))
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["status"] == 400 and error["code"] == "invalid" and says in error["message"]
    assert not PaperReference.objects.exists()


def test_the_api_stores_a_list_with_an_overlong_doi_without_the_doi(ingester):
    response = post(ingester, references(raws=(f"A. Author. A title of a work. https://doi.org/{LONG_DOI} 2020.",)))
    assert response.status_code == 201
    assert PaperReference.objects.get().doi is None


def test_the_api_answers_a_list_the_database_refuses_with_400_not_500(ingester, monkeypatch):
    def refusing(rows, *args, **kwargs):
        raise DataError("value too long for the test")

    monkeypatch.setattr(PaperReference.objects, "bulk_create", refusing)
    response = post(ingester, references())
    assert response.status_code == 400
    assert response.json()["error"]["message"] == "references: the database refused it: value too long for the test"


# --- the parser: ASCII digits, identifiers that fit --------------------------------------------------


@pytest.mark.parametrize("raw", [
    "A. Author. A title of a work. 20٢٠.",            # Arabic-Indic digits after an ASCII "20"
    "A. Author. A title of a work. 19٩٩.",
    "A. Author. A title of a work. 20२०.",             # Devanagari
])
def test_a_year_is_read_in_ascii_digits_only(raw):
    assert parse_reference(raw).year is None


def test_a_year_in_ascii_digits_is_still_read():
    assert parse_reference("A. Author. A title of a work. 2020.").year == 2020


@pytest.mark.parametrize("text", ["arXiv:٢٥٠٩.١١٠٧٦", "arXiv:2509.١١٠٧٦", "doi:10.١٢٣٤/x", "10.12٣4/abc"])
def test_an_identifier_in_non_ascii_digits_is_never_a_valid_one(text):
    assert not [i for i in find_identifiers(text) if i.valid]


def test_a_doi_longer_than_255_characters_is_malformed():
    (identifier,) = find_identifiers(f"doi:{LONG_DOI}")
    assert (identifier.kind, identifier.value, identifier.valid) == ("doi", LONG_DOI, False)
    assert parse_reference(f"A. Author. A title of a work. {LONG_DOI}").doi is None


def test_a_doi_of_255_characters_is_still_valid():
    doi = "10.1234/" + "a" * 247
    assert parse_reference(f"A. Author. A title of a work. doi:{doi}").doi == doi


@pytest.mark.parametrize("bad", [b"[" * 100_000 + b"]" * 100_000 + b"\n", b'{"version": ' + b"9" * 5000 + b"}\n"],
                         ids=["nested 100,000 deep", "a 5,000-digit number"])
def test_a_line_python_cannot_parse_is_rejected_and_the_good_lists_around_it_kept(db, bad):
    import_arxiv_metadata(lines_of(b"".join(line(metadata(f"2501.0000{n}")) for n in range(1, 5))))
    good = [json.dumps(references(f"2501.0000{n}")).encode() + b"\n" for n in range(1, 5)]
    report = ingest_references(lines_of(b"".join(good[:2]) + bad + b"".join(good[2:])))
    assert report.created["reference_lists"] == 4 and report.rejected_lines == 1
    assert list(report.examples.values()) == [3]


@pytest.mark.parametrize("raw", ["\u200b\u200c\u200d", "\u202e\u202c", "\u2066\u2069\u200e\u200f", "\ufeff\u2060",
                                 "\u3164 \u2800", "\u0301\u034f", "\U000e0041"])
def test_a_reference_with_no_visible_character_is_refused_and_the_good_lists_kept(db, raw):
    import_arxiv_metadata(lines_of(line(metadata("2501.00001")) + line(metadata("2501.00002"))))
    report = ingest_references(lines_of(
        json.dumps(references("2501.00001")).encode() + b"\n" +
        json.dumps(references("2501.00002", raws=(GOOD_RAW, raw))).encode() + b"\n" +
        json.dumps(references("2501.00002", raws=(GOOD_RAW, "\u202eB. Author. Backwards.\u202c"))).encode() + b"\n"))
    assert report.created["reference_lists"] == 2
    assert dict(report.rejected) == {"a reference's raw text has no visible character (only spaces, zero-width "
                                     "characters, direction marks or other invisible ones)": 1}
    assert report.examples[next(iter(report.rejected))] == 2


def test_lists_ended_by_a_carriage_return_alone_are_each_read(db):
    import_arxiv_metadata(lines_of(b"".join(line(metadata(f"2501.0000{n}")) for n in range(1, 4))))
    report = ingest_references(lines_of(b"\r".join(json.dumps(references(f"2501.0000{n}")).encode() for n in range(1, 4))))
    assert (report.lines, report.created["reference_lists"], report.rejected_lines) == (3, 3, 0)
