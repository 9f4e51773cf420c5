"""Admin of the observations; the site itself is citations/admin_site.py."""
from citations.admin import observations  # noqa: F401 - registers the observation admins
