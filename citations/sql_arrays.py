"""Thousands of values in one PostgreSQL parameter, cheaply.

psycopg dumps a list parameter value by value in Python, which was a tenth of import_works' time.
Values joined into one string that the server splits cost a join here instead. The separator is the
ASCII unit separator, which no DOI or arXiv id holds; values that do hold it go as a list.
"""
SEPARATOR = "\x1f"


def any_of(values) -> tuple[str, list]:
    """SQL 'ANY(...)' of these text values, and its parameters (PostgreSQL)."""
    values = list(values)
    joined = SEPARATOR.join(values)
    if joined.count(SEPARATOR) != len(values) - 1:
        return "ANY(%s)", [values]
    return "ANY(string_to_array(%s, %s))", [joined, SEPARATOR]
