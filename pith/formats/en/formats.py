# Times name their zone wherever Django formats one (the admin's lists, audit trails and job pages):
# "4 Dec 2026, 17:53 UTC", not "Dec. 4, 2026, 5:53 p.m.", which leaves the reader to guess the zone.
DATETIME_FORMAT = "j M Y, H:i T"
SHORT_DATETIME_FORMAT = "Y-m-d H:i T"
TIME_FORMAT = "H:i T"
