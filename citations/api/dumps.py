"""API v1: the published bulk dumps (citations/records/dumps.py); their files are served at /dumps/."""
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import viewsets
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from citations.records.dumps import DUMP_NAME, MANIFEST, published_dumps


def _address(name: str, file: str) -> str:
    return f"/dumps/{name}/{file}"


def _summary(dump) -> dict:
    manifest = dump.manifest()
    return {"name": dump.name, "as_of": manifest["as_of"], "published_at": manifest["published_at"],
            "records": manifest["records"], "parts": len(manifest["parts"]),
            "bytes": sum(part["bytes"] for part in manifest["parts"]), "manifest": _address(dump.name, MANIFEST)}


class DumpViewSet(viewsets.ViewSet):
    """Every current record in a few files, for consumers who want everything."""

    lookup_field = "name"
    lookup_value_regex = r"latest|records-\d{8}T\d{4}Z-\d+"

    @extend_schema(summary="Published dumps of every current record, newest first",
                   responses={200: OpenApiResponse(OpenApiTypes.OBJECT)})
    def list(self, request):
        return Response({"results": [_summary(dump) for dump in published_dumps()]})

    @extend_schema(summary="A dump's manifest ('latest' for the newest), with the address of each file",
                   responses={200: OpenApiResponse(OpenApiTypes.OBJECT), 404: OpenApiResponse(description="No such dump.")})
    def retrieve(self, request, name=None):
        dumps = published_dumps()
        found = dumps[:1] if name == "latest" else [d for d in dumps if d.name == name and DUMP_NAME.match(name)]
        if not found:
            raise NotFound("no dump has been published yet" if name == "latest" else f"no published dump {name!r}")
        dump = found[0]
        manifest = dump.manifest()
        for part in manifest["parts"]:
            part["address"] = _address(dump.name, part["file"])
        manifest["context_digests"]["address"] = _address(dump.name, manifest["context_digests"]["file"])
        return Response({"name": dump.name, **manifest})
