"""ingest_source and ingest_pdf from an operator's side: a paper's own files become its reference list,
the source package's list is the one its record shows, and a file that cannot be read is refused
with its reason while everything stored before stays as it was."""
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from citations.models import Job, JobState, PaperReference, ReferenceExtraction
from citations.records.build import build_record
from citations.sources.paper_files import ingest_paper_file, target_of
from citations.sources.reference_lists import ReferenceList, ingest_reference_list
from tests.extraction.test_latex_references import plainnat_bbl, raw_references
from tests.extraction.test_source_package import MAIN_TEX, tar_bytes
from tests.factories import make_paper

pytestmark = pytest.mark.usefixtures("db")
PAPER = "2212.11800"            # a paper of the unarXive sample: its own reference strings


@pytest.fixture
def paper():
    return make_paper(PAPER, latest_version=2)


@pytest.fixture
def gold() -> list[str]:
    return [raw for _, raw in raw_references(PAPER, count=12)]


def package(tmp_path: Path, name: str = f"{PAPER}v2.tar.gz", count: int = 12) -> Path:
    path = tmp_path / name
    path.write_bytes(tar_bytes({"main.tex": MAIN_TEX, "main.bbl": plainnat_bbl(raw_references(PAPER, count=count))}))
    return path


def shown(arxiv_id: str = PAPER) -> list[tuple[int, str]]:
    """(index, source) of the observations the record shows."""
    record = build_record(arxiv_id=arxiv_id).record
    return [(o["citation"]["reference_index"], o["citation"]["source"]) for o in record["outbound"]]


def stored_lists() -> list[tuple[int, str]]:
    return list(ReferenceExtraction.objects.order_by("id").values_list("paper_version__version", "source"))


def test_a_source_package_becomes_the_versions_reference_list(paper, gold, tmp_path, capsys):
    call_command("ingest_source", f"{PAPER}v2", str(package(tmp_path)))
    assert "12 references from latex_bbl, stored and resolved" in capsys.readouterr().out
    assert stored_lists() == [(2, "latex_bbl")]
    texts = list(PaperReference.objects.order_by("reference_index").values_list("raw_text", flat=True))
    assert texts == [" ".join(raw.split()) for raw in gold]
    assert shown() == [(n, "latex_bbl") for n in range(1, 13)]
    job = Job.objects.get(kind="ingest_source")
    assert job.state == JobState.SUCCEEDED and job.counts["created"] == 1 and job.counts["references"] == 12
    call_command("ingest_source", f"{PAPER}v2", str(package(tmp_path)))       # the same package again
    assert "unchanged" in capsys.readouterr().out and stored_lists() == [(2, "latex_bbl")]


def test_the_source_packages_list_is_shown_though_a_pdf_list_was_read_later(paper, tmp_path):
    pdf_list = ReferenceList(PAPER, 2, "pdf_text", ((1, "A. Author. A misread PDF line. 2020."),), pages=(9,))
    ingest_reference_list(pdf_list)
    assert shown() == [(1, "pdf_text")]
    call_command("ingest_source", PAPER, str(package(tmp_path)))           # no vN: the newest version, 2
    assert shown() == [(n, "latex_bbl") for n in range(1, 13)]
    ingest_reference_list(ReferenceList(PAPER, 2, "pdf_text", ((1, "A. Author. Read again. 2021."),)))
    assert shown() == [(n, "latex_bbl") for n in range(1, 13)]
    # The PDF's lists stay stored beside it, as evidence.
    assert stored_lists() == [(2, "pdf_text"), (2, "latex_bbl"), (2, "pdf_text")]
    assert PaperReference.objects.get(raw_text__startswith="A. Author. A misread").page == 9


@pytest.mark.parametrize("files, reason", [
    ({"main.tex": MAIN_TEX, "../evil.bbl": "x"}, "path traversal"),
    ({"README": "just text", "figure.png": b"\x89PNG"}, "no TeX files"),
])
def test_a_bad_package_is_refused_with_its_reason_and_the_earlier_list_stays(paper, tmp_path, files, reason):
    call_command("ingest_source", f"{PAPER}v2", str(package(tmp_path)))
    before = shown()
    bad = tmp_path / "bad.tar.gz"
    bad.write_bytes(tar_bytes(files))
    with pytest.raises(CommandError, match=reason) as refused:
        call_command("ingest_source", f"{PAPER}v2", str(bad))
    assert "nothing stored" in str(refused.value)
    assert shown() == before and stored_lists() == [(2, "latex_bbl")]
    job = Job.objects.filter(kind="ingest_source").order_by("-id").first()
    assert job.state == JobState.FAILED and reason in job.error


def test_a_truncated_package_and_a_paper_not_held_are_refused(paper, tmp_path):
    cut = tmp_path / "cut.tar.gz"
    cut.write_bytes(package(tmp_path).read_bytes()[:300])
    with pytest.raises(CommandError, match="nothing stored"):
        call_command("ingest_source", f"{PAPER}v2", str(cut))
    with pytest.raises(CommandError, match="not held"):
        call_command("ingest_source", "2301.00001v1", str(package(tmp_path)))
    assert stored_lists() == []


def test_a_directory_is_one_job_chunk_a_file_and_one_bad_file_does_not_stop_the_others(paper, tmp_path, capsys):
    make_paper("2509.11076")
    folder = tmp_path / "packages"
    folder.mkdir()
    package(folder)                                          # 2212.11800v2.tar.gz: good
    (folder / "2509.11076v1.tar.gz").write_bytes(tar_bytes({"README": "no TeX here"}))
    (folder / "2401.00001v1.tar.gz").write_bytes(b"x")       # a paper not held
    (folder / "notes.tar.gz").write_bytes(b"x")              # a name that names no paper
    with pytest.raises(CommandError, match="3 files refused or skipped"):
        call_command("ingest_source", "--dir", str(folder), "--pattern", "*.tar.gz")
    out = capsys.readouterr().out
    assert "skipped notes.tar.gz" in out and "skipped 2401.00001v1.tar.gz" in out
    assert "refused arXiv:2509.11076v1 (2509.11076v1.tar.gz): " in out and "no TeX files" in out
    job = Job.objects.get(kind="ingest_files")
    assert (job.state, job.total_chunks, job.done_chunks) == (JobState.SUCCEEDED, 2, 2)
    assert job.counts["created"] == 1 and job.counts["refused"] == 1 and job.counts["references"] == 12
    assert shown() == [(n, "latex_bbl") for n in range(1, 13)]


@pytest.mark.parametrize("text, expected", [
    ("2509.11076v2", ("2509.11076", 2)), ("arXiv:2509.11076", ("2509.11076", None)),
    ("2509.11076v2.pdf", ("2509.11076", 2)), ("2509.11076v3.tar.gz", ("2509.11076", 3)),
    ("hep-th9901001v1.pdf", ("hep-th/9901001", 1)), ("hep-th/9901001v2", ("hep-th/9901001", 2)),
    ("math.AG0501001v1.gz", ("math.AG/0501001", 1)), ("/data/pdf/2509.11076v1.pdf", ("2509.11076", 1)),
])
def test_files_are_named_after_their_paper_version(text, expected):
    assert target_of(text) == expected


@pytest.mark.parametrize("text", ["notes.pdf", "2599.00001v1.pdf", "2509.11076v0.pdf", "hep-xx9901001v1.pdf"])
def test_a_name_that_names_no_paper_is_refused(text):
    with pytest.raises(ValueError):
        target_of(text)


def test_an_unknown_kind_of_file_is_a_programming_error(paper, tmp_path):
    with pytest.raises(ValueError, match="unknown kind"):
        ingest_paper_file(kind="docx", arxiv_id=PAPER, version=1, path=tmp_path / "x")


def test_a_doi_the_entry_links_to_but_does_not_print_is_kept_for_resolution():
    from citations.sources.paper_files import with_linked_identifiers

    text = "R. Epstein, The Generation of Gravitational Radiation, Astrophys. J. 223 (1978) 1037."
    assert with_linked_identifiers(text, ("https://doi.org/10.1086/156337",)) == text + " https://doi.org/10.1086/156337"
    printed = "A. B, Title, doi:10.1086/156337."
    assert with_linked_identifiers(printed, ("https://doi.org/10.1086/156337",)) == printed
    assert with_linked_identifiers(text, ("https://example.org/page",)) == text
    assert with_linked_identifiers(text, ("http://arxiv.org/abs/2011.04638",)).endswith(" http://arxiv.org/abs/2011.04638")


# --- PDFs --------------------------------------------------------------------------------------------

def pdf_file(tmp_path: Path, references: list[str], name: str = f"{PAPER}v2.pdf", **options) -> Path:
    from bench.extraction import build_pdf

    path = tmp_path / name
    path.write_bytes(build_pdf(references, layout="two-column", style="numbered", title="A paper",
                               body=[("Introduction", "Text of the paper. " * 200)] * 4, **options))
    return path


def test_a_pdf_becomes_the_versions_reference_list_with_pages_and_the_source_package_still_wins(
        paper, gold, tmp_path, capsys):
    call_command("ingest_pdf", f"{PAPER}v2", str(pdf_file(tmp_path, gold)))
    assert "12 references from pdf_text, stored and resolved" in capsys.readouterr().out
    assert shown() == [(n, "pdf_text") for n in range(1, 13)]
    stored = list(PaperReference.objects.order_by("reference_index").values_list("raw_text", "page"))
    assert [text for text, _ in stored] == [" ".join(raw.split()) for raw in gold]
    from citations.extraction.pdf_references import extract_references

    pages = [r.page for r in extract_references(tmp_path / f"{PAPER}v2.pdf").references]
    assert [page for _, page in stored] == pages and all(pages)
    call_command("ingest_source", f"{PAPER}v2", str(package(tmp_path)))
    call_command("ingest_pdf", f"{PAPER}v2", str(pdf_file(tmp_path, gold[:5], name="again.pdf")))
    assert shown() == [(n, "latex_bbl") for n in range(1, 13)]
    assert stored_lists() == [(2, "pdf_text"), (2, "latex_bbl"), (2, "pdf_text")]


def test_an_encrypted_pdf_is_refused_and_the_earlier_list_stays(paper, gold, tmp_path):
    call_command("ingest_pdf", f"{PAPER}v2", str(pdf_file(tmp_path, gold)))
    locked = pdf_file(tmp_path, gold[:3], name="locked.pdf", encrypt="secret")
    with pytest.raises(CommandError, match="encrypted") as refused:
        call_command("ingest_pdf", f"{PAPER}v2", str(locked))
    assert "nothing stored" in str(refused.value)
    assert stored_lists() == [(2, "pdf_text")] and len(shown()) == 12
    (notpdf := tmp_path / "x.pdf").write_bytes(b"<html>not a pdf</html>")
    with pytest.raises(CommandError, match="not a PDF"):
        call_command("ingest_pdf", f"{PAPER}v2", str(notpdf))
    with pytest.raises(CommandError, match="cannot be read"):
        call_command("ingest_pdf", f"{PAPER}v2", str(tmp_path / "missing.pdf"))


def test_a_version_the_metadata_never_named_is_refused_and_nothing_is_stored(paper, tmp_path):
    with pytest.raises(CommandError, match=r"v1 to v2 in its metadata: v99 is not one of them"):
        call_command("ingest_source", f"{PAPER}v99", str(package(tmp_path)))
    with pytest.raises(CommandError, match=r"version 99999999999999999999 is not between 1 and 1000"):
        call_command("ingest_source", f"{PAPER}v99999999999999999999", str(package(tmp_path)))
    assert stored_lists() == [] and not PaperReference.objects.exists()


def test_a_file_whose_reading_outlasts_the_workers_time_is_refused_and_nothing_is_stored(paper, tmp_path,
                                                                                         monkeypatch, settings):
    from celery.exceptions import SoftTimeLimitExceeded

    from citations.sources import paper_files

    def endless(*args, **kwargs):
        raise SoftTimeLimitExceeded()           # what Celery raises in the task at FILE_TASK_SECONDS

    monkeypatch.setattr(paper_files, "_reference_list", endless)
    outcome = ingest_paper_file(kind="source", arxiv_id=PAPER, version=2, path=package(tmp_path))
    assert outcome.outcome == "refused"
    assert outcome.reason == f"reading the file took longer than the {settings.FILE_TASK_SECONDS} s a file may take"
    assert stored_lists() == []
