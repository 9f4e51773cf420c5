"""A PDF built to exhaust its reader is refused in seconds, in bounded memory, and the process that
asked carries on: the text is read in a child process (citations/extraction/pdf/isolated.py).

The bombs are built here, small on disk: a Flate stream of hundreds of megabytes of text operators,
and 500 pages of dense text."""
import resource
import time
import zlib

import pytest
from django.core.management import CommandError, call_command

from bench.extraction import build_pdf
from citations.extraction.pdf_references import PdfRefused, extract_references, read_words
from citations.models import Job, JobState, ReferenceExtraction
from tests.extraction.test_paper_files import PAPER, gold, paper, pdf_file  # noqa: F401 (fixtures)
from tests.factories import make_paper

INFLATED_MB = 100


def pdf_of_streams(streams: list[bytes]) -> bytes:
    """A PDF of one page a Flate-compressed content stream, in Helvetica."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               f"<< /Type /Pages /Kids [{' '.join(f'{4 + 2 * i} 0 R' for i in range(len(streams)))}] "
               f"/Count {len(streams)} >>".encode(),
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    for i, stream in enumerate(streams):
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> "
                       f">> /Contents {5 + 2 * i} 0 R >>".encode())
        objects.append(f"<< /Length {len(stream)} /Filter /FlateDecode >>\nstream\n".encode() + stream
                       + b"\nendstream")
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def flate_bomb(inflated_mb: int = INFLATED_MB) -> bytes:
    """One page whose content stream inflates to inflated_mb of text-showing operators: 17 million
    one-character text objects, gigabytes in PDFium."""
    compressor = zlib.compressobj(9)
    block = b"(x)Tj " * 200_000
    parts = [compressor.compress(b"BT /F1 1 Tf 10 10 Td\n")]
    parts += [compressor.compress(block) for _ in range(inflated_mb * 1024 * 1024 // len(block))]
    parts += [compressor.compress(b"ET\n"), compressor.flush()]
    return pdf_of_streams([b"".join(parts)])


def dense_pages(pages: int = 500) -> bytes:
    """pages pages of 98,000 characters each, under the per-page bound."""
    line = b"(" + b"x" * 200 + b") Tj 0 -1 Td\n"
    return pdf_of_streams([zlib.compress(b"BT /F1 1 Tf 10 780 Td\n" + line * 490 + b"ET\n", 9)] * pages)


def _max_rss_mb(who) -> float:
    return resource.getrusage(who).ru_maxrss / 1024


def test_a_flate_bomb_is_refused_in_seconds_and_memory_stays_bounded():
    bomb = flate_bomb()
    assert len(bomb) < 200 * 1024                       # 150 KB on disk, 100 MB inflated
    before = _max_rss_mb(resource.RUSAGE_SELF)
    started = time.monotonic()
    with pytest.raises(PdfRefused, match=r"^this PDF needs more than the 200 MB a PDF may use to be read$"):
        extract_references(bomb, memory_mb=200)
    assert time.monotonic() - started < 20
    # This process did not grow; the child that read it stayed within its bound.
    assert _max_rss_mb(resource.RUSAGE_SELF) - before < 50
    assert _max_rss_mb(resource.RUSAGE_CHILDREN) <= 1024 + 16      # the largest bound any test gave


def test_dense_pages_are_refused_past_the_time_a_pdf_may_take():
    pdf = dense_pages()
    assert len(pdf) < 512 * 1024
    started = time.monotonic()
    with pytest.raises(PdfRefused, match=r"^reading this PDF took longer than the 2 s a PDF may take$"):
        extract_references(pdf, seconds=2)
    assert time.monotonic() - started < 10


def test_the_callers_own_time_limit_ends_the_child_too(monkeypatch):
    """Celery's soft limit (FILE_TASK_SECONDS) raised in the task while it waits: no child is left reading."""
    import signal
    import subprocess

    from celery.exceptions import SoftTimeLimitExceeded

    children = []

    class Recorded(subprocess.Popen):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            children.append(self)

    def soft_limit(signum, frame):
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(subprocess, "Popen", Recorded)
    previous = signal.signal(signal.SIGALRM, soft_limit)
    signal.setitimer(signal.ITIMER_REAL, 1.0)
    try:
        with pytest.raises(SoftTimeLimitExceeded):
            extract_references(dense_pages(), seconds=60)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    (child,) = children
    assert child.returncode == -signal.SIGKILL


def test_a_pdf_reads_the_same_in_the_child_as_in_this_process():
    from citations.extraction.pdf import words

    pdf = build_pdf(["A. Author. Ça, 𝐴 and β. J. 1 (2020) 1.", "B. Author. Title. 2021."],
                    body=[("Introduction", "Text. " * 50)])
    assert read_words(pdf) == words.read_words(pdf)


@pytest.mark.django_db
def test_ingest_pdf_refuses_a_bomb_with_a_sentence_and_stores_nothing(paper, tmp_path, settings):  # noqa: F811
    settings.PDF_READ_MEMORY_MB = 256
    bomb = tmp_path / f"{PAPER}v2.pdf"
    bomb.write_bytes(flate_bomb())
    with pytest.raises(CommandError, match="this PDF needs more than the 256 MB a PDF may use to be read"):
        call_command("ingest_pdf", f"{PAPER}v2", str(bomb))
    assert not ReferenceExtraction.objects.exists()


@pytest.mark.django_db
def test_a_bulk_run_refuses_the_bombs_and_reads_the_good_file(paper, gold, tmp_path, settings, capsys):  # noqa: F811
    """ingest_pdf --dir: one Celery task (ingest_file_chunk) a file, run eagerly here."""
    settings.PDF_READ_MEMORY_MB, settings.PDF_READ_SECONDS = 256, 5
    folder = tmp_path / "pdfs"
    folder.mkdir()
    pdf_file(folder, gold)                                                  # 2212.11800v2.pdf: good
    for arxiv_id, data in [("2509.11076", flate_bomb()), ("2509.11077", dense_pages())]:
        make_paper(arxiv_id)
        (folder / f"{arxiv_id}v1.pdf").write_bytes(data)
    with pytest.raises(CommandError, match="2 files refused or skipped"):
        call_command("ingest_pdf", "--dir", str(folder))
    out = capsys.readouterr().out
    assert "refused arXiv:2509.11076v1 (2509.11076v1.pdf): this PDF needs more than the 256 MB" in out
    assert "refused arXiv:2509.11077v1 (2509.11077v1.pdf): reading this PDF took longer than the 5 s" in out
    job = Job.objects.get(kind="ingest_files")
    assert (job.state, job.counts["created"], job.counts["refused"]) == (JobState.SUCCEEDED, 1, 2)
    assert list(ReferenceExtraction.objects.values_list("paper_version__paper__arxiv_id", flat=True)) == [PAPER]


@pytest.mark.celery_worker
@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_a_celery_worker_refuses_the_bombs_and_lives_on_to_read_the_good_file(tmp_path):
    """ingest_pdf --dir on a real worker (prefork, one pool process): the bombs are refused with their
    sentences, the worker lives on, and the good file after them is read."""
    from citations.sources.paper_files import PDF, plan_files
    from tests.celery_worker import client_call, redis_url, running_worker, wait_until, worker_log
    from tests.extraction.test_latex_references import raw_references

    make_paper(PAPER, latest_version=2)
    folder = tmp_path / "pdfs"
    folder.mkdir()
    for arxiv_id, data in [("2101.00001", flate_bomb()), ("2101.00002", dense_pages())]:     # read first
        make_paper(arxiv_id)
        (folder / f"{arxiv_id}v1.pdf").write_bytes(data)
    pdf_file(folder, [raw for _, raw in raw_references(PAPER, count=12)], name=f"{PAPER}v2.pdf")
    job, _ = plan_files(kind=PDF, paths=sorted(folder.iterdir()))
    broker = redis_url()
    with running_worker(broker, env={"PDF_READ_MEMORY_MB": "256", "PDF_READ_SECONDS": "5"}) as worker:
        # Enqueued by another process, configured for the broker as the command would be.
        client_call(broker, "import django; django.setup()\n"
                            "from citations.jobs.planning import enqueue_job\nfrom citations.models import Job\n"
                            f"enqueue_job(Job.objects.get(pk={job.pk}))")
        assert wait_until(lambda: Job.objects.get(pk=job.pk).done_chunks == 3, timeout=120), worker_log(worker)
        assert worker.poll() is None
    job.refresh_from_db()
    assert (job.state, job.counts["created"], job.counts["refused"]) == (JobState.SUCCEEDED, 1, 2)
    refusals = " ".join(job.counts["refusals"])
    assert "this PDF needs more than the 256 MB" in refusals and "took longer than the 5 s" in refusals
