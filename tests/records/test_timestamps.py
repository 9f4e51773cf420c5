from datetime import UTC, datetime, timedelta, timezone

import pytest

from citations.records.timestamps import long_date, parse_offset, parse_z, render_offset, render_z, truncate_to_minute


def test_z_rendering_keeps_six_fraction_digits_and_drops_a_zero_fraction():
    assert render_z(datetime(2026, 8, 4, 14, 43, 5, 87510, tzinfo=UTC)) == "2026-08-04T14:43:05.087510Z"
    assert render_z(datetime(2026, 7, 15, 13, 51, 17, tzinfo=UTC)) == "2026-07-15T13:51:17Z"


def test_offset_rendering_drops_trailing_zeros_as_postgresql_prints():
    assert render_offset(datetime(2026, 8, 8, 6, 31, 55, 242210, tzinfo=UTC)) == "2026-08-08T06:31:55.24221+00:00"
    assert render_offset(datetime(2026, 8, 8, 6, 31, 55, tzinfo=UTC)) == "2026-08-08T06:31:55+00:00"


def test_renderings_convert_other_zones_to_utc():
    two_hours_east = timezone(timedelta(hours=2))
    assert render_z(datetime(2026, 8, 4, 16, 0, 0, tzinfo=two_hours_east)) == "2026-08-04T14:00:00Z"


def test_renderings_parse_back_to_the_same_instant():
    value = datetime(2026, 8, 8, 6, 31, 55, 242210, tzinfo=UTC)
    assert parse_z(render_z(value)) == value
    assert parse_offset(render_offset(value)) == value


def test_parsers_refuse_the_other_rendering():
    with pytest.raises(ValueError):
        parse_z("2026-08-08T06:31:55.24221+00:00")
    with pytest.raises(ValueError):
        parse_offset("2026-08-04T14:43:05.087510Z")


def test_naive_times_are_refused():
    with pytest.raises(ValueError):
        render_z(datetime(2026, 8, 4))


def test_as_of_is_the_minute_and_the_thesis_date_has_no_leading_zero():
    built_at = datetime(2026, 8, 8, 11, 7, 42, 999999, tzinfo=UTC)
    assert render_z(truncate_to_minute(built_at)) == "2026-08-08T11:07:00Z"
    assert long_date(built_at) == "8 August 2026"
