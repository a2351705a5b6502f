"""The API's HTTP conventions: strong ETags with Cache-Control, 304 on If-None-Match, a
new tag once something new is published, no-store for random draws, opt-in CORS, and the
page's security headers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import OWN_WORDLISTS, run
from fastapi.testclient import TestClient

from ghostdb import Rules, Store, open_store
from ghostdb.web import conventions, create_app

ANSWERS = (
    "/api/five/position?fragment=tr",
    "/api/five/line?fragment=g",
    "/api/five/strategy",
    "/api/five/openings",
    "/api/five/report",
    "/api/compare?a=five&vs_min_length=4",
    "/api/five/move?fragment=t&seed=3",
    "/api/games",
    "/api/solutions",
)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with open_store(str(tmp_path / "ghost.db"), create=True) as opened:
        opened.ingest(OWN_WORDLISTS / "five.txt")
        opened.solve("five", Rules(min_length=3))
        opened.solve("five", Rules(min_length=4))
        # The comparison the server only reads, worked out as the command line would.
        opened.compare("five", None, Rules(min_length=3), Rules(min_length=4))
        yield opened


@pytest.fixture
def client(store: Store, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setattr(conventions, "STATE_SECONDS", 0.0)  # see every publication at once
    with TestClient(create_app(store, cors=["https://example.org"])) as c:
        yield c


@pytest.mark.parametrize("url", ANSWERS)
def test_an_answer_carries_a_strong_etag_and_revalidates_with_304(
    client: TestClient, url: str
) -> None:
    first = client.get(url)
    assert first.status_code == 200, first.text
    tag = first.headers["etag"]
    assert tag.startswith('"') and tag.endswith('"') and not tag.startswith("W/")
    assert first.headers["cache-control"] == f"public, max-age={conventions.MAX_AGE}"
    again = client.get(url, headers={"If-None-Match": tag})
    assert (again.status_code, again.content) == (304, b"")
    assert again.headers["etag"] == tag
    assert client.get(url, headers={"If-None-Match": f'"other", W/{tag}'}).status_code == 304
    assert client.get(url, headers={"If-None-Match": '"other"'}).status_code == 200


def test_tags_differ_by_request_and_change_when_something_is_published(
    client: TestClient, store: Store
) -> None:
    tags = {url: client.get(url).headers["etag"] for url in ANSWERS}
    assert len(set(tags.values())) == len(ANSWERS)
    url = ANSWERS[0]
    store.solve("five", Rules(min_length=3), force=True)  # republished: a new solution id
    fresh = client.get(url, headers={"If-None-Match": tags[url]})
    assert fresh.status_code == 200 and fresh.headers["etag"] != tags[url]


@pytest.mark.parametrize("url", ANSWERS)
def test_an_answer_asked_again_is_sent_from_memory_as_it_was(
    client: TestClient, store: Store, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = client.get(url)
    assert first.status_code == 200, first.text

    def no_reads(*_args: object, **_kw: object) -> None:
        raise AssertionError("read again")

    with monkeypatch.context() as patch:
        for method in ("solution", "published", "compare", "catalogue", "games"):
            patch.setattr(store, method, no_reads)
        again = client.get(url)
    assert (again.status_code, again.content) == (200, first.content)
    assert again.headers["etag"] == first.headers["etag"]
    assert again.headers["content-type"] == first.headers["content-type"]
    # What another solve publishes is sent, not what was held.
    store.solve("five", Rules(min_length=3), force=True)
    store.compare("five", None, Rules(min_length=3), Rules(min_length=4))  # kept anew
    fresh = client.get(url)
    assert fresh.status_code == 200 and fresh.headers["etag"] != first.headers["etag"]


def test_the_cache_keeps_the_most_recently_used_within_its_bytes() -> None:
    cache = conventions.AnswerCache(limit=10)
    for tag in (b"a", b"b", b"c"):
        cache.put("s", tag, [], b"1234")
    assert cache.get(b"a") is None and cache.get(b"b") is not None and cache.size == 8
    cache.put("s", b"d", [], b"1234")  # c is the least recently used now
    assert cache.get(b"c") is None and cache.get(b"b") is not None
    cache.put("t", b"e", [], b"12")  # a new publication state: nothing older is valid
    assert [*cache.entries] == [b"e"] and cache.size == 2
    cache.put("t", b"big", [], b"x" * (conventions.CACHE_ENTRY + 1))
    assert cache.get(b"big") is None


def test_an_error_is_not_held(client: TestClient, store: Store) -> None:
    url = "/api/compare?a=five&vs_min_length=5"  # not worked out: a 404 naming the command
    assert client.get(url).status_code == 404
    store.solve("five", Rules(min_length=5))
    store.compare("five", None, Rules(min_length=3), Rules(min_length=5))
    assert client.get(url).status_code == 200


def test_a_random_move_is_not_cached_and_errors_carry_no_tag(client: TestClient) -> None:
    draw = client.get("/api/five/move?fragment=t")
    assert draw.status_code == 200 and draw.headers["cache-control"] == "no-store"
    assert "etag" not in draw.headers
    for url in (
        "/api/five/position?fragment=zz",
        "/api/nope/position",
        "/api/five/line?min_length=9",
    ):
        answer = client.get(url)
        assert answer.status_code in (400, 404, 422) and "etag" not in answer.headers, url


def test_cors_is_for_the_origins_given_only(client: TestClient, store: Store) -> None:
    url = ANSWERS[0]
    allowed = client.get(url, headers={"Origin": "https://example.org"})
    assert allowed.headers["access-control-allow-origin"] == "https://example.org"
    assert allowed.headers["access-control-expose-headers"] == "ETag"
    assert "Origin" in allowed.headers["vary"]
    other = client.get(url, headers={"Origin": "https://elsewhere.example"})
    assert "access-control-allow-origin" not in other.headers
    preflight = client.options(
        url, headers={"Origin": "https://example.org", "Access-Control-Request-Method": "GET"}
    )
    assert preflight.status_code == 204
    assert preflight.headers["access-control-allow-methods"] == "GET, HEAD"
    with TestClient(create_app(store)) as closed:  # no --cors: no CORS header at all
        answer = closed.get(url, headers={"Origin": "https://example.org"})
        assert "access-control-allow-origin" not in answer.headers
        assert closed.options(url, headers={"Origin": "https://example.org"}).status_code == 405
    with TestClient(create_app(store, cors=["*"])) as anyone:
        answer = anyone.get(url, headers={"Origin": "https://elsewhere.example"})
        assert answer.headers["access-control-allow-origin"] == "*"


def test_the_page_forbids_inline_script_and_sniffing(client: TestClient) -> None:
    page = client.get("/")
    policy = page.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "unsafe-inline" not in policy
    assert page.headers["x-content-type-options"] == "nosniff"
    assert "<script>" not in page.text  # every script is a file the policy allows


def test_serve_refuses_a_malformed_cors_origin(tmp_path: Path) -> None:
    db = tmp_path / "ghost.db"
    assert run("ingest", str(OWN_WORDLISTS / "five.txt"), db=db)[0] == 0
    code, out, err = run("serve", "--cors", "example.org", db=db)
    assert (code, out) == (1, "")
    assert err == (
        "error: --cors example.org: an origin is * or scheme://host[:port], "
        "e.g. https://example.org\n"
    )
