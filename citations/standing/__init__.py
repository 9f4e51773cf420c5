"""Standing notices: reading sources (Retraction Watch, Crossref), syncing them, one-hop checks."""
