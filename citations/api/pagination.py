from rest_framework.pagination import CursorPagination


class CursorPage(CursorPagination):
    """Cursor pagination: stable pages however fast the store grows (no offsets)."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
    ordering = "-id"
