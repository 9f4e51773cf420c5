"""pith_verify: check a Pith citation record offline, trusting neither the transport nor Pith's database.

    python -m pith_verify RECORD [--proofs P] [--signature S] [--keys K] [--log URL|DIR] [--since CHECKPOINT]

A package of its own beside `pith`, not `pith.verify`: `pith/__init__.py` starts Celery, and this
must run with the standard library and `cryptography` only, no Django, no database.
docs/verification.md says what each check proves and what it does not.
"""
