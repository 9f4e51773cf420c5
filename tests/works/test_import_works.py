"""The works store: works read from Crossref, OpenAlex and dblp files, one work per scholarly work, and
references to journal and conference papers that become links, with their standing."""
import gzip
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from citations.input_files import lines_of
from citations.models import CitedWork, PaperReference, WorkIdentifier, WorkTitleKey
from citations.records.build import build_record
from citations.resolution.service import resolve_paper
from citations.sources.reference_lists import ReferenceList, ingest_reference_list
from citations.works.importer import import_works
from tests.factories import make_paper

FIXTURES = Path(__file__).parent / "fixtures"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"
CROSSREF_SAMPLE = SHARED / "crossref-work-json" / "works_10.5555_12345678.json"
ZERO = "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models"
SC20 = "10.1109/sc41405.2020.00024"

pytestmark = pytest.mark.usefixtures("db")


def read(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def identifiers_of(work) -> set[tuple[str, str]]:
    return set(WorkIdentifier.objects.filter(work=work).values_list("kind", "value"))


def cite(arxiv_id: str, *raws: str) -> None:
    ingest_reference_list(ReferenceList(arxiv_id, 1, "pdf_text", tuple(enumerate(raws, 1))))
    resolve_paper(arxiv_id=arxiv_id)


def outbound(arxiv_id: str) -> list[dict]:
    return build_record(arxiv_id=arxiv_id).record["outbound"]


def test_a_crossref_work_is_stored_with_its_fields_and_the_works_its_notices_update():
    if not CROSSREF_SAMPLE.exists():
        pytest.skip("../shared/data is not on this machine")
    report = import_works(iter(CROSSREF_SAMPLE.open("rb")), source="crossref")
    work = CitedWork.objects.get(doi="10.5555/12345678")
    assert (work.title, work.year, work.first_author, work.container_title, work.volume, work.issue) == (
        "Toward a Unified Theory of High-Energy Metaphysics: Silly String Theory", 2008, "Carberry",
        "Journal of Psychoceramics", "1", "1")
    assert work.metadata_source == "crossref" and work.work_type == "journal-article"
    assert identifiers_of(work) == {("doi", "10.5555/12345678")}
    assert WorkTitleKey.objects.filter(work=work).exists()
    assert report.created["works"] == 1 and not report.rejected


def test_importing_the_same_file_again_writes_nothing():
    import_works(lines_of(read("openalex_works.jsonl")), source="openalex")
    before = (CitedWork.objects.count(), WorkIdentifier.objects.count(), WorkTitleKey.objects.count())
    report = import_works(lines_of(read("openalex_works.jsonl")), source="openalex")
    assert (CitedWork.objects.count(), WorkIdentifier.objects.count(), WorkTitleKey.objects.count()) == before
    assert report.unchanged == 2 and not report.created.get("works")


def test_an_openalex_work_with_a_preprint_location_is_one_work_under_both_identifiers():
    import_works(lines_of(read("openalex_works.jsonl")), source="openalex")
    work = CitedWork.objects.get(doi=SC20)
    assert identifiers_of(work) == {("openalex", "W3104895532"), ("doi", SC20), ("arxiv", "1910.02054")}
    assert work.first_author == "Rajbhandari" and work.year == 2020
    peerj = CitedWork.objects.get(doi="10.7717/peerj.4375")
    assert ("pmid", "29456894") in identifiers_of(peerj) and peerj.volume == "6" and peerj.first_page == "e4375"


def test_dblp_joins_the_corr_record_and_the_venue_record_of_one_paper():
    report = import_works(lines_of(read("dblp.xml")), source="dblp")
    assert report.created["works"] == 2 and not report.rejected
    zero = CitedWork.objects.get(arxiv_id="1910.02054")
    assert identifiers_of(zero) == {("dblp", "journals/corr/abs-1910-02054"), ("arxiv", "1910.02054"),
                                    ("dblp", "conf/sc/RajbhandariRRH20")}
    muller = CitedWork.objects.get(doi="10.1145/3379999")
    assert (muller.title, muller.first_author, muller.first_page) == ("On the Shörtest Paths", "Müller", "44")


def test_a_venue_record_in_a_later_file_joins_the_corr_work_read_before():
    whole = read("dblp.xml").decode("iso-8859-1")
    head, rest = whole.split("<article", 1)
    corr, rest = rest.split("</article>", 1)
    venue = rest.split("<inproceedings", 1)[1].split("</inproceedings>", 1)[0]
    import_works(lines_of(f"{head}<article{corr}</article>\n</dblp>".encode("iso-8859-1")), source="dblp")
    report = import_works(lines_of(f"{head}<inproceedings{venue}</inproceedings>\n</dblp>".encode("iso-8859-1")),
                          source="dblp")
    assert not report.created.get("works") and CitedWork.objects.count() == 1
    assert ("dblp", "conf/sc/RajbhandariRRH20") in identifiers_of(CitedWork.objects.get(arxiv_id="1910.02054"))


def test_a_published_version_joins_the_held_preprint_and_a_reference_to_its_doi_reaches_the_paper():
    make_paper("1910.02054", title=ZERO)
    make_paper("2601.00001", title="Training at scale")
    import_works(lines_of(read("crossref_sc20.json")), source="crossref")
    work = CitedWork.objects.get(paper__arxiv_id="1910.02054")
    assert ("doi", SC20) in identifiers_of(work) and CitedWork.objects.count() == 1

    cite("2601.00001", "S. Rajbhandari, J. Rasley. ZeRO. In SC20, 2020. doi:10.1109/SC41405.2020.00024")
    (observation,) = outbound("2601.00001")
    assert observation["resolution"]["status"] == "verified_exact"
    assert observation["citation"]["cited_paper"]["arxiv_id"] == "1910.02054"
    assert observation["citation"]["cited_work"]["pith_arxiv_id"] == "1910.02054"
    assert observation["citation"]["cited_work"]["doi"] == SC20


def test_a_reference_to_a_journal_paper_links_to_its_work_by_title_and_first_author_without_a_year():
    make_paper("2601.00001", title="Training at scale")
    import_works(lines_of(read("openalex_works.jsonl")), source="openalex")
    cite("2601.00001", "Piwowar H, Priem J, Lariviere V. The state of OA: a large-scale analysis of the prevalence "
                       "and impact of Open Access articles. PeerJ.")
    (observation,) = outbound("2601.00001")
    assert observation["resolution"]["status"] == "verified_fuzzy"
    assert observation["citation"]["cited_work"]["doi"] == "10.7717/peerj.4375"
    link = PaperReference.objects.get().links.order_by("-observed_at").first()
    assert link.evidence["matched_on"] == ["title", "first_author"]


def test_a_retraction_of_a_doi_work_reaches_the_record_as_soon_as_the_reference_links():
    if not CROSSREF_SAMPLE.exists():
        pytest.skip("../shared/data is not on this machine")
    from citations.standing.sync import sync_standing_source

    make_paper("2601.00001", title="Training at scale")
    sync_standing_source(source="crossref", data=CROSSREF_SAMPLE.read_bytes())
    import_works(iter(CROSSREF_SAMPLE.open("rb")), source="crossref")
    cite("2601.00001", "J. Carberry. Toward a unified theory of high-energy metaphysics. doi:10.5555/12345678")
    (observation,) = outbound("2601.00001")
    assert observation["citation"]["cited_work"]["doi"] == "10.5555/12345678"
    notice = observation["standing_notice"]
    assert "retraction" in {event["event_type"] for event in notice["events"]}, notice


def test_a_works_import_resolves_again_the_references_printing_a_doi_it_learnt(django_capture_on_commit_callbacks):
    make_paper("2601.00001", title="Training at scale")
    cite("2601.00001", "H. Piwowar. Some title nobody holds. PeerJ 2018. doi:10.7717/peerj.4375")
    assert outbound("2601.00001")[0]["resolution"]["status"] == "unresolved"
    with django_capture_on_commit_callbacks(execute=True):
        report = import_works(lines_of(read("openalex_works.jsonl")), source="openalex")
    assert report.referencing == 1
    assert outbound("2601.00001")[0]["resolution"]["status"] in ("verified_exact", "metadata_mismatch")


def test_bad_records_are_rejected_with_their_line_and_the_good_ones_kept(tmp_path, capsys):
    good = json.loads(read("openalex_works.jsonl").splitlines()[1])
    lines = [json.dumps(good), "not json", json.dumps({"id": "nope"}),
             json.dumps({**good, "id": "https://openalex.org/W1", "title": "x\u0000y"}), json.dumps([1, 2])]
    path = tmp_path / "works.jsonl.gz"
    path.write_bytes(gzip.compress("\n".join(lines).encode()))
    with pytest.raises(CommandError, match="5 of 6 records rejected"):
        call_command("import_works", "openalex", str(path))
    out = capsys.readouterr().out
    assert "rejected 1: not JSON (first at line 2)" in out and "NUL" in out
    assert CitedWork.objects.filter(doi="10.7717/peerj.4375").exists() and CitedWork.objects.count() == 1


def test_a_truncated_crossref_document_is_refused_with_a_sentence(tmp_path):
    path = tmp_path / "part.json"
    path.write_bytes(read("crossref_sc20.json")[:200])
    with pytest.raises(CommandError, match="truncated"):
        call_command("import_works", "crossref", str(path))
    assert not CitedWork.objects.exists()


def test_an_observation_time_in_the_future_is_refused(tmp_path):
    path = tmp_path / "w.jsonl"
    path.write_bytes(read("openalex_works.jsonl"))
    with pytest.raises(CommandError, match="in the future"):
        call_command("import_works", "openalex", str(path), "--observed-at", "2199-01-01T00:00:00Z")


def test_a_reference_with_no_readable_title_links_by_journal_volume_and_first_page():
    lines = [json.dumps({"DOI": doi, "title": [title], "author": [{"family": author, "sequence": "first"}],
                         "container-title": [journal], "volume": "37", "page": "179-185", "type": "journal-article"})
             for doi, title, author, journal in [
                 ("10.3891/acta.chem.scand.37b-0179", "Structural studies of curcuminoids. II. Crystal structure of "
                  "1,7-bis(4-hydroxyphenyl)-1,6-heptadiene-3,5-dione methanol complex", "Tonnesen",
                  "Acta Chemica Scandinavica B"),
                 ("10.1063/1.1234567", "Spin waves in thin films", "Smith", "Journal of Applied Physics")]]
    import_works(lines_of("\n".join(lines).encode()), source="crossref")
    make_paper("2601.00001", title="Training at scale")
    # As physics and astronomy styles print it: no title at all.
    cite("2601.00001", "Tonnesen HH, Karlsen J, Mostad A, Pedersen U, Rasmussen PB, \nLawesson SO (1983) "
                       "Acta Chem Scand B 37:179-185")
    (observation,) = outbound("2601.00001")
    assert observation["resolution"] == {**observation["resolution"], "status": "verified_fuzzy",
                                         "resolver_source": "journal_volume_page"}
    assert observation["citation"]["cited_work"]["doi"] == "10.3891/acta.chem.scand.37b-0179"
    link = PaperReference.objects.get().links.order_by("-observed_at").first()
    assert link.evidence["matched_on"] == ["volume", "first_page", "journal", "first_author"]


def test_retraction_watch_rows_bring_their_papers_in_and_a_title_only_reference_finds_the_retraction():
    from citations.standing.sync import sync_standing_source

    exemplar = SHARED / "retraction-watch-sample" / "rw_original_layout_exemplar.csv"     # one real row
    if not exemplar.exists():
        pytest.skip("../shared/data is not on this machine")
    title = "Construction of Mental Health Education Model Based on Computer Multimedia Group Psychological Measurement"
    data = exemplar.read_bytes()
    report = import_works(lines_of(data), source="retraction_watch")
    work = CitedWork.objects.get(doi="10.1155/2021/6907871")
    assert report.created["works"] == 1 and work.metadata_source == "retraction_watch"
    sync_standing_source(source="retraction_watch", data=data)
    make_paper("2601.00001", title="Training at scale")
    cite("2601.00001", f"H. Zhang. {title}. Advances in Multimedia, 2021.")
    (observation,) = outbound("2601.00001")
    assert observation["citation"]["cited_work"]["doi"] == "10.1155/2021/6907871"
    assert [e["event_type"] for e in observation["standing_notice"]["events"]] == ["retraction"]


def test_a_notice_read_before_its_work_in_one_file_leaves_the_work_with_its_fields():
    notice = {"DOI": "10.1000/notice", "title": ["Retraction notice"], "type": "retraction",
              "update-to": [{"DOI": "10.1000/paper", "type": "retraction"}]}
    paper_ = {"DOI": "10.1000/paper", "title": ["A paper that was retracted later"], "type": "journal-article"}
    import_works(lines_of(b"\n".join(json.dumps(x).encode() for x in (notice, paper_))), source="crossref")
    assert CitedWork.objects.get(doi="10.1000/paper").title == "A paper that was retracted later"


DEEP = b"[" * 100_000 + b"]" * 100_000 + b"\n"


@pytest.mark.parametrize("bad_doi", ["10.1234/a\x00b", "10.1234/a\ud800b"], ids=["NUL", "lone surrogate"])
def test_a_doi_no_column_can_hold_is_rejected_and_the_works_around_it_kept(bad_doi):
    crossref = [json.dumps({"DOI": f"10.1234/good{n}", "title": ["A work"]}).encode() + b"\n" for n in range(4)]
    crossref[2:2] = [json.dumps({"DOI": bad_doi, "title": ["Bad"]}).encode() + b"\n",
                     json.dumps({"DOI": "10.1234/notice", "update-to": [{"DOI": bad_doi}]}).encode() + b"\n", DEEP]
    report = import_works(lines_of(b"".join(crossref)), source="crossref")
    assert set(CitedWork.objects.values_list("doi", flat=True)) == {f"10.1234/good{n}" for n in range(4)} | {
        "10.1234/notice"}
    assert report.rejected_lines == 3 and min(report.examples.values()) == 3
    openalex = [json.dumps({"id": f"W10{n}", "doi": f"10.1234/oa{n}", "title": "A work"}).encode() + b"\n" for n in range(4)]
    openalex[1:1] = [json.dumps({"id": "W999", "doi": bad_doi, "title": "Bad"}).encode() + b"\n", DEEP]
    report = import_works(lines_of(b"".join(openalex)), source="openalex")
    assert report.rejected_lines == 2 and set(report.examples.values()) <= {2, 3}
    assert {f"10.1234/oa{n}" for n in range(4)} <= set(WorkIdentifier.objects.filter(kind="doi").values_list("value", flat=True))
    assert all(value.isprintable() for value in WorkIdentifier.objects.values_list("value", flat=True))


@pytest.mark.parametrize("source, work", [
    ("crossref", lambda n: {"DOI": f"10.1234/cr{n}", "title": ["A work"]}),
    ("openalex", lambda n: {"id": f"W20{n}", "doi": f"10.1234/cr{n}", "title": "A work"}),
    ("retraction_watch", None)])
def test_works_ended_by_a_carriage_return_alone_are_each_read(source, work):
    if work is None:
        header = ("Record ID,Title,Subject,Institution,Journal,Publisher,Country,Author,URLS,ArticleType,RetractionDate,"
                  "RetractionDOI,RetractionPubMedID,OriginalPaperDate,OriginalPaperDOI,OriginalPaperPubMedID,"
                  "RetractionNature,Reason,Paywalled,Notes")
        rows = [f"{n},A title {n},,,,,,,,,8/16/2023 0:00,10.1155/2023/9804945,0,,10.1234/cr{n},0,Retraction,,No,"
                for n in range(3)]
        data = "\r".join([header, *rows]).encode()
    else:
        data = b"\r".join(json.dumps(work(n)).encode() for n in range(3))
    report = import_works(lines_of(data), source=source)
    assert (report.lines, report.rejected_lines) == (3, 0)
    assert {f"10.1234/cr{n}" for n in range(3)} <= set(CitedWork.objects.values_list("doi", flat=True)) | set(
        WorkIdentifier.objects.filter(kind="doi").values_list("value", flat=True))


@pytest.mark.parametrize("year", [0, 10000, -5, "0"])
def test_a_year_out_of_range_is_counted_as_a_rejected_value_and_the_work_kept_with_its_year_unknown(year, capsys,
                                                                                                    tmp_path):
    from citations.works.records import YEAR_OUT_OF_RANGE

    lines = [{"DOI": "10.1234/y1", "title": ["A work"], "issued": {"date-parts": [[year]]}},
             {"DOI": "10.1234/y2", "title": ["Another"], "issued": {"date-parts": [[2020]]}},
             {"DOI": "10.1234/y3", "title": ["A third"], "issued": {"date-parts": [[None]]}}]
    path = tmp_path / "works.jsonl"
    path.write_bytes(b"".join(json.dumps(w).encode() + b"\n" for w in lines))
    call_command("import_works", "crossref", str(path))
    assert dict(CitedWork.objects.values_list("doi", "year")) == {"10.1234/y1": None, "10.1234/y2": 2020,
                                                                   "10.1234/y3": None}
    assert f"value rejected 1: {YEAR_OUT_OF_RANGE} (first at line 1)" in capsys.readouterr().out
    report = import_works(lines_of(json.dumps({"id": "W301", "publication_year": year, "title": "A work"}).encode()),
                          source="openalex")
    assert dict(report.values_rejected) == {YEAR_OUT_OF_RANGE: 1} and not report.rejected


def test_an_unclosed_quote_in_retraction_watch_rows_costs_its_own_row_only():
    header = ("Record ID,Title,Subject,Institution,Journal,Publisher,Country,Author,URLS,ArticleType,RetractionDate,"
              "RetractionDOI,RetractionPubMedID,OriginalPaperDate,OriginalPaperDOI,OriginalPaperPubMedID,"
              "RetractionNature,Reason,Paywalled,Notes\n")
    rows = [f"{n},A title {n},,,,,,,,,8/16/2023 0:00,10.1155/2023/9804945,0,,10.1234/rw{n},0,Retraction,,No,\n"
            for n in range(1, 6)]
    rows.insert(1, '9,"A title whose quote never closes,,,,,,,,,,,,,10.1234/lost,0,Retraction,,No,\n')
    report = import_works(lines_of((header + "".join(rows)).encode()), source="retraction_watch")
    assert set(CitedWork.objects.values_list("doi", flat=True)) == {f"10.1234/rw{n}" for n in range(1, 6)}
    (reason,) = report.rejected
    assert "(an unclosed quote?)" in reason and report.examples[reason] == 3 and not report.stopped


def test_a_gzip_followed_by_garbage_keeps_the_works_before_it_and_says_so(tmp_path, capsys):
    from citations.input_files import TRAILING_GARBAGE

    path = tmp_path / "works.jsonl.gz"
    path.write_bytes(gzip.compress(b"".join(json.dumps({"id": f"W40{n}", "doi": f"10.1234/gz{n}", "title": "A work"})
                                            .encode() + b"\n" for n in range(3))) + b"\x00garbage")
    with pytest.raises(CommandError, match="1 of 4 records rejected"):
        call_command("import_works", "openalex", str(path))
    assert {f"10.1234/gz{n}" for n in range(3)} <= set(WorkIdentifier.objects.values_list("value", flat=True))
    assert f"rejected 1: {TRAILING_GARBAGE}" in capsys.readouterr().out


def test_a_retraction_watch_row_that_is_not_utf8_is_rejected_and_the_rows_around_it_kept():
    header = ("Record ID,Title,Subject,Institution,Journal,Publisher,Country,Author,URLS,ArticleType,RetractionDate,"
              "RetractionDOI,RetractionPubMedID,OriginalPaperDate,OriginalPaperDOI,OriginalPaperPubMedID,"
              "RetractionNature,Reason,Paywalled,Notes\n").encode()
    rows = [f"{n},A title {n},,,,,,,,,8/16/2023 0:00,10.1155/2023/9804945,0,,10.1234/u{n},0,Retraction,,No,\n".encode()
            for n in range(1, 4)]
    rows.insert(1, b"9,Caf\xe9 in Latin-1,,,,,,,,,,,,,10.1234/latin,0,Retraction,,No,\n")
    rows.insert(3, "10,A NUL,,,,,,,,,,,,,10.1234/nul\x00,0,Retraction,,No,\n".encode())
    report = import_works(lines_of(header + b"".join(rows)), source="retraction_watch")
    assert set(CitedWork.objects.values_list("doi", flat=True)) == {f"10.1234/u{n}" for n in range(1, 4)}
    assert report.examples == {"not UTF-8 text": 3, "the doi identifier holds a NUL character": 5}
    assert not report.stopped


def test_a_gzipped_retraction_watch_file_followed_by_garbage_keeps_its_rows_and_says_so(tmp_path, capsys):
    from citations.input_files import TRAILING_GARBAGE

    header = ("Record ID,Title,Subject,Institution,Journal,Publisher,Country,Author,URLS,ArticleType,RetractionDate,"
              "RetractionDOI,RetractionPubMedID,OriginalPaperDate,OriginalPaperDOI,OriginalPaperPubMedID,"
              "RetractionNature,Reason,Paywalled,Notes\n")
    rows = "".join(f"{n},A title {n},,,,,,,,,8/16/2023 0:00,10.1155/2023/9804945,0,,10.1234/g{n},0,Retraction,,No,\n"
                   for n in range(1, 4))
    path = tmp_path / "rw.csv.gz"
    path.write_bytes(gzip.compress((header + rows).encode()) + b"garbage")
    with pytest.raises(CommandError, match="1 of 4 records rejected"):
        call_command("import_works", "retraction_watch", str(path))
    assert set(CitedWork.objects.values_list("doi", flat=True)) == {f"10.1234/g{n}" for n in range(1, 4)}
    assert f"rejected 1: {TRAILING_GARBAGE} (first at line 5)" in capsys.readouterr().out


def test_a_gzipped_dblp_file_followed_by_garbage_keeps_its_records_and_says_why_it_stopped(tmp_path):
    from citations.input_files import TRAILING_GARBAGE

    path = tmp_path / "dblp.xml.gz"
    path.write_bytes(gzip.compress(read("dblp.xml")) + b"garbage")
    with pytest.raises(CommandError, match="the gzip stream is followed by bytes that are not gzip"):
        call_command("import_works", "dblp", str(path))
    assert WorkIdentifier.objects.filter(kind="dblp", value="conf/sc/RajbhandariRRH20").exists()
    assert TRAILING_GARBAGE.startswith("the gzip stream")
