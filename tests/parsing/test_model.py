"""The shipped model: it scores what its metadata says, and it is rebuilt the same from the same data."""
import json

import pytest
from django.core.management import CommandError, call_command

from citations.parsing.building import ReadingsChanged, check_name, evaluate, reader_digest
from citations.parsing.datasets import data_files, load
from citations.parsing.lexicon import LEXICON_PATH, Lexicon, read_source, write
from citations.parsing.tagger import METADATA_PATH, MODEL_PATH, Tagger
from citations.parsing.training import train
from citations.parsing.training_data import MissingTrainingData, sha256
from tests.parsing.conftest import DATA_DIR, needs_data

TOLERANCE = 0.005


def test_the_shipped_model_is_the_one_its_metadata_describes():
    metadata = json.loads(METADATA_PATH.read_text())
    assert metadata["parser"] == "pith-crf/23"
    assert metadata["model_sha256"] == sha256(MODEL_PATH)
    assert MODEL_PATH.stat().st_size < 5_000_000


def test_the_shipped_model_reads_the_lexicon_it_was_trained_with():
    # A model trained with one lexicon and read with another loses its known-name features silently.
    metadata = json.loads(METADATA_PATH.read_text())
    assert metadata["lexicon_sha256"] == sha256(LEXICON_PATH)


def test_the_lexicon_is_written_the_same_from_the_same_lists(tmp_path):
    source = tmp_path / "lexicon"
    files = {"journals/journals.txt": "Physical Review Letters\nNature\n",
             "journals/abbrev_journals.txt": "Phys. Rev. Lett.\nNucl. Phys. B\n",
             "journals/proceedings.txt": "ACM SIGIR\n", "publishers/publishers.txt": "Springer\n",
             "organisations/collaborations.txt": "ATLAS collaboration\n",
             "organisations/inspire_collaborations.txt": "Fermi-LAT\n",
             "names/firstname.5k": "MARY\n", "names/lastname.5k": "smith\n",
             "wordforms/english.wf": "balls\tball\tNcnp-\n"}
    for name, text in files.items():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        (source / name).write_text(text)
    first = write(read_source(source), tmp_path / "a.json.gz").read_bytes()
    assert write(read_source(source), tmp_path / "b.json.gz").read_bytes() == first
    lexicon = Lexicon(read_source(source))
    words = "s coleman q balls nucl phys b 262 m ackermann fermi lat phys rev lett".split()
    assert [(a, b, names) for a, b, names in lexicon.phrase_matches(words)] == [
        (4, 7, ("journal",)), (10, 12, ("collaboration",)), (12, 15, ("journal",))]
    assert lexicon.word_features("balls") == ["L=english"]


def test_building_the_lexicon_names_a_missing_list(tmp_path):
    with pytest.raises(CommandError, match="journals.txt is missing"):
        call_command("build_reference_lexicon", tmp_path, output=tmp_path / "l.json.gz")


@needs_data
def test_the_shipped_model_still_scores_what_its_metadata_says_on_grobids_held_out_files():
    recorded = json.loads(METADATA_PATH.read_text())["evaluation"]["grobid_evaluation"]
    measured = evaluate(Tagger(), load(DATA_DIR).grobid_evaluation)
    assert measured["instance_accuracy"] == pytest.approx(recorded["instance_accuracy"], abs=TOLERANCE)
    for name, figures in recorded["fields"].items():
        if figures["f1"] is not None:
            assert measured["fields"][name]["f1"] == pytest.approx(figures["f1"], abs=TOLERANCE), name


def test_the_parsers_name_is_the_one_recorded_for_its_code():
    # reparse_references skips a list its current parser's name read: code that reads differently under
    # the same name would never reach stored references. A failure here: rename the parser, then --rescore.
    assert reader_digest() == json.loads(METADATA_PATH.read_text())["reader_sha256"]


def test_another_model_or_other_code_under_the_old_name_is_refused():
    old = {"parser": "pith-crf/6", "model_sha256": "m" * 64, "reader_sha256": "a" * 64}
    for changed in ({"reader_sha256": "b" * 64}, {"model_sha256": "n" * 64}):
        with pytest.raises(ReadingsChanged, match="give the parser a new name"):
            check_name(old, {**old, **changed})
        check_name(old, {**old, **changed, "parser": "pith-crf/7"})
    check_name(old, dict(old))


@needs_data
def test_rescoring_refuses_other_code_under_the_old_name_and_keeps_the_metadata(tmp_path):
    metadata = tmp_path / "m.json"
    recorded = dict(json.loads(METADATA_PATH.read_text()), reader_sha256="0" * 64)
    metadata.write_text(json.dumps(recorded))
    with pytest.raises(CommandError, match="reading code changed"):
        call_command("train_reference_parser", "--rescore", data_dir=DATA_DIR, output=MODEL_PATH, metadata=metadata)
    assert json.loads(metadata.read_text()) == recorded


@needs_data
def test_the_metadata_names_the_data_files_it_was_trained_on():
    recorded = json.loads(METADATA_PATH.read_text())["data_files"]
    files = [p for paths in data_files(DATA_DIR).values() for p in paths]
    assert recorded == {str(p.relative_to(DATA_DIR)): sha256(p) for p in files}


def test_a_missing_data_directory_gives_a_clear_error(tmp_path):
    with pytest.raises(MissingTrainingData, match="does not exist"):
        load(tmp_path / "nowhere")
    (tmp_path / "grobid-citation-corpus" / "corpus").mkdir(parents=True)
    with pytest.raises(MissingTrainingData, match="grobid_corpus"):
        load(tmp_path)
    with pytest.raises(CommandError, match="does not exist"):
        call_command("train_reference_parser", data_dir=tmp_path / "nowhere", output=tmp_path / "m.crfsuite")


@needs_data
def test_the_same_strings_train_the_same_model_bytes(tmp_path):
    strings = load(DATA_DIR).grobid_evaluation[:80]
    first = train(strings, tmp_path / "a.crfsuite", {"max_iterations": 20})
    second = train(strings, tmp_path / "b.crfsuite", {"max_iterations": 20})
    assert first.read_bytes() == second.read_bytes()
