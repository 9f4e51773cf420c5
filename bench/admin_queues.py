"""Benchmark: the curators' pages (admin home, queues page, every queue's list, a reference page)
against the public pages, on a running server with the demo loaded.

    python manage.py migrate && python manage.py load_demo && python manage.py runserver 8032
    python bench/admin_queues.py [--base http://127.0.0.1:8032] [--runs 15]

Logs in as the demo's curator, warms each page once, then times --runs requests of each, one page
after the other in rounds, and prints the median and the slowest. Goal (issue 31, item 11): every
queue page's median no more than the slowest public page's.
"""
import argparse
import http.cookiejar
import re
import statistics
import time
import urllib.error
import urllib.parse
import urllib.request

QUEUES = ("parse_uncertain", "metadata_mismatch", "malformed_identifier", "unresolved", "access_date", "old_year",
          "arxiv_year", "index_year", "no_title")
PUBLIC = ("/", "/paper/2509.11076/citation-record", "/paper/2509.11076", "/search?q=megatron")


def login(base: str, username: str, password: str) -> urllib.request.OpenerDirector:
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    page = opener.open(f"{base}/admin/login/").read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "username": username, "password": password,
                                   "next": "/admin/"}).encode()
    request = urllib.request.Request(f"{base}/admin/login/", data=body, headers={"Referer": f"{base}/admin/login/"})
    if "/admin/logout/" not in opener.open(request).read().decode():
        raise SystemExit(f"could not log in as {username}")
    return opener


def timed(opener, url: str) -> float:
    started = time.perf_counter()
    with opener.open(url) as response:
        response.read()
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="http://127.0.0.1:8032")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--user", default="curator")
    parser.add_argument("--password", default="pith-demo-curator")
    args = parser.parse_args()
    opener = login(args.base, args.user, args.password)
    changelist = "/admin/citations/paperreference/"
    listing = opener.open(f"{args.base}{changelist}?queue=unresolved").read().decode()
    reference = re.search(r'href="(/admin/citations/paperreference/[0-9a-f-]{36}/change/[^"]*)"', listing).group(1)
    pages = ([("public", path) for path in PUBLIC]
             + [("admin", "/admin/"), ("admin", f"{changelist}queues/"), ("admin", changelist)]
             + [("admin", f"{changelist}?queue={key}") for key in QUEUES]
             + [("admin", reference.replace("&amp;", "&"))])
    samples: dict[str, list[float]] = {path: [] for _, path in pages}
    for _, path in pages:
        try:
            timed(opener, args.base + path)
        except urllib.error.HTTPError as error:
            raise SystemExit(f"{path}: {error}") from None
    for _ in range(args.runs):
        for _, path in pages:
            samples[path].append(timed(opener, args.base + path))
    print(f"{'page':70} {'median ms':>10} {'max ms':>8}")
    for kind, path in pages:
        shown = path if len(path) < 68 else path[:50] + "…" + path[-17:]
        print(f"{kind[0]} {shown:68} {statistics.median(samples[path]):10.1f} {max(samples[path]):8.1f}")


if __name__ == "__main__":
    main()
