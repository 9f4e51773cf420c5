"""The shipped model: it scores what its metadata says, and it is rebuilt the same from the same data."""
import json

import pytest
from django.core.management import CommandError, call_command

from citations.parsing.building import evaluate
from citations.parsing.datasets import data_files, load
from citations.parsing.tagger import METADATA_PATH, MODEL_PATH, Tagger
from citations.parsing.training import train
from citations.parsing.training_data import MissingTrainingData, sha256
from tests.parsing.conftest import DATA_DIR, needs_data

TOLERANCE = 0.005


def test_the_shipped_model_is_the_one_its_metadata_describes():
    metadata = json.loads(METADATA_PATH.read_text())
    assert metadata["parser"] == "pith-crf/1"
    assert metadata["model_sha256"] == sha256(MODEL_PATH)
    assert MODEL_PATH.stat().st_size < 5_000_000


@needs_data
def test_the_shipped_model_still_scores_what_its_metadata_says_on_grobids_held_out_files():
    recorded = json.loads(METADATA_PATH.read_text())["evaluation"]["grobid_evaluation"]
    measured = evaluate(Tagger(), load(DATA_DIR).grobid_evaluation)
    assert measured["instance_accuracy"] == pytest.approx(recorded["instance_accuracy"], abs=TOLERANCE)
    for name, figures in recorded["fields"].items():
        if figures["f1"] is not None:
            assert measured["fields"][name]["f1"] == pytest.approx(figures["f1"], abs=TOLERANCE), name


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
