import json

from hypothesis import given, settings
from hypothesis import strategies as st

from citations.records.canonical import canonical_bytes, context_digest, observation_digest, reference_canonical
from tests.conftest import SEED_000, SEED_004

# Text as a record may hold it: any code point but lone surrogates (which UTF-8 cannot carry).
record_text = st.text(st.characters(exclude_categories=("Cs",)))
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**63 - 1) | record_text,
    lambda children: st.lists(children) | st.dictionaries(record_text, children),
    max_leaves=40,
)


@settings(max_examples=400)
@given(json_values)
def test_fast_encoder_writes_the_contracts_canonical_bytes(value):
    assert canonical_bytes(value) == reference_canonical(value)


def test_each_seed_file_is_exactly_its_canonical_encoding():
    for path in (SEED_000, SEED_004):
        data = path.read_bytes()
        assert canonical_bytes(json.loads(data)) == data


def test_seed_digests_hold():
    checked = 0
    for path in (SEED_000, SEED_004):
        record = json.loads(path.read_bytes())
        assert context_digest(record) == record["context_digest"]
        for observation in record["outbound"] + record["inbound"]:
            assert observation_digest(observation) == observation["observation_digest"]
            checked += 1
    assert checked == 134
