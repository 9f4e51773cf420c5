"""The transparency log of the observation store: RFC 6962 Merkle tree, C2SP tiles and signed checkpoints.

entries.py   what a leaf says of an observation (the bytes hashed)
tiles.py     the tree as C2SP tlog-tiles files under settings.LOG_DIR
sequencer.py writers' pending notes to leaves, tiles and a signed checkpoint (publish_checkpoint)
proofs.py    what a client needs to check a record's observations were logged in time
audit.py     the log's own consistency check against the observation rows
"""
