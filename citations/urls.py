from django.urls import path, re_path, register_converter

from citations.api.throttles import throttled_page
from citations.pages import history as history_views
from citations.pages import log as log_views
from citations.pages import signatures, views


class ArxivIdConverter:
    """Any path segment that could hold an arXiv id (old-style ids contain one slash), with or without
    'arXiv:' before it; the view itself decides whether it is one, so a malformed id gets the 404 page
    and a prefixed or versioned one a redirect to the paper's own address."""

    regex = r"(?:[Aa][Rr][Xx][Ii][Vv]:)?[A-Za-z0-9.\-]+(?:/[0-9]{7}[0-9A-Za-z]*)?"

    def to_python(self, value):
        return value

    def to_url(self, value):
        return value


register_converter(ArxivIdConverter, "arxiv")

app_name = "citations"
# The pages that build a record are rate-limited per client address (citations/api/throttles.py).
urlpatterns = [
    path("", views.home, name="home"),
    path("search", views.search, name="search"),
    path("favicon.ico", views.favicon),
    path("evidence", views.evidence, name="evidence"),
    path("evidence/record-v1.schema.json", views.record_schema_json, name="record-schema"),
    path(".well-known/pith-keys.json", signatures.public_keys, name="public-keys"),
    path("paper/<arxiv:arxiv_id>/citation-record.json.sig", throttled_page(signatures.record_signature),
         name="record-signature"),
    path("paper/<arxiv:arxiv_id>/citation-record.proofs.json", throttled_page(log_views.record_proofs_json),
         name="record-proofs"),
    path("log/checkpoint", log_views.checkpoint, name="log-checkpoint"),
    re_path(r"^log/tile/(?P<path>.+)$", log_views.tile, name="log-tile"),
    path("paper/<arxiv:arxiv_id>/citation-record.json", throttled_page(views.record_json), name="record-json"),
    path("paper/<arxiv:arxiv_id>/citation-record", throttled_page(views.record_html), name="record-html"),
    path("paper/<arxiv:arxiv_id>/integrity", throttled_page(views.integrity), name="integrity"),
    path("paper/<arxiv:arxiv_id>/history", throttled_page(history_views.history), name="history"),
    path("paper/<arxiv:arxiv_id>/reference/<uuid:reference_id>", views.reference, name="reference"),
    path("paper/<arxiv:arxiv_id>/references.bib", throttled_page(views.references_cited), {"fmt": "bib"},
         name="references-bib"),
    path("paper/<arxiv:arxiv_id>/references.csl.json", throttled_page(views.references_cited), {"fmt": "csl.json"},
         name="references-csl"),
    path("paper/<arxiv:arxiv_id>/reference/<uuid:reference_id>.bib", throttled_page(views.references_cited),
         {"fmt": "bib"}, name="reference-bib"),
    path("paper/<arxiv:arxiv_id>/reference/<uuid:reference_id>.csl.json", throttled_page(views.references_cited),
         {"fmt": "csl.json"}, name="reference-csl"),
    path("paper/<arxiv:arxiv_id>", throttled_page(views.paper), name="paper"),
    path("dumps/<str:name>/<str:file>", views.dump_file, name="dump-file"),
]
