"""Static files carry an ETag and versioned URLs, are compressed (the
Swagger UI bundle too), a favicon is served, and the docs' create example has a sane clock."""

from __future__ import annotations

import gzip
import re

import yaml

from api.operations.meta import spec_text

GZIP = {"Accept-Encoding": "gzip"}


def _versioned_urls(html: str) -> list[str]:
    return re.findall(r"""(?:href|src)="(/(?:web|docs/static)/[\w.-]+\?v=[0-9a-f]+)\"""", html)


def test_item10_page_revalidates_by_etag_and_answers_304(client):
    first = client.get("/", headers=GZIP)
    assert first.status_code == 200 and first.headers["Cache-Control"] == "no-cache"
    assert first.headers["Content-Encoding"] == "gzip"
    assert b"<title>" in gzip.decompress(first.data)
    again = client.get("/", headers={**GZIP, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    plain = client.get("/", headers={"If-None-Match": first.headers["ETag"]})
    assert plain.status_code == 304  # the same body, whatever coding the cached copy had
    stale = client.get("/", headers={"If-None-Match": '"0000"'})
    assert stale.status_code == 200 and b"<title>" in stale.data


def test_item10_modules_and_styles_load_by_versioned_urls_kept_for_a_year(client):
    html = client.get("/").get_data(as_text=True)
    urls = _versioned_urls(html)
    assert any(u.startswith("/web/lobby.js?v=") for u in urls)
    assert any(u.startswith("/web/app.css?v=") for u in urls)
    for url in urls:
        answer = client.get(url)
        assert answer.status_code == 200, url
        assert "immutable" in answer.headers["Cache-Control"], url
    lobby = client.get(next(u for u in urls if "lobby.js" in u)).get_data(as_text=True)
    # its imports are versioned too, so one new module changes every importer's URL
    assert re.search(r'from "\./dom\.js\?v=[0-9a-f]{16}"', lobby)
    assert not re.search(r'from "\./[\w.-]+\.js"', lobby)


def test_item10_a_wrong_version_is_served_but_not_kept(client):
    answer = client.get("/web/lobby.js?v=0123456789abcdef")
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-cache"
    assert client.get("/web/nothing.js?v=1").status_code == 404


def test_item10_swagger_bundle_is_compressed_and_versioned(client):
    html = client.get("/docs").get_data(as_text=True)
    bundle_url = next(u for u in _versioned_urls(html) if "swagger-ui-bundle.js" in u)
    raw = client.get(bundle_url)
    packed = client.get(bundle_url, headers=GZIP)
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data) == raw.data
    assert len(packed.data) < len(raw.data) / 3
    assert "immutable" in packed.headers["Cache-Control"]
    brotli = client.get(bundle_url, headers={"Accept-Encoding": "br"})
    assert brotli.headers["Content-Encoding"] == "br"


def test_item10_api_answers_are_not_compressed(client):
    answer = client.get("/v1/bots", headers=GZIP)
    assert answer.status_code == 200 and "Content-Encoding" not in answer.headers


def test_item10_every_page_links_a_local_favicon(client):
    for path in ["/", "/play/some-game", "/leaderboard", "/accounts/ann", "/arenas", "/docs"]:
        html = client.get(path).get_data(as_text=True)
        icon = re.search(r'<link rel="icon" [^>]*href="(/web/favicon\.svg\?v=\w+)">', html)
        assert icon, path
    svg = client.get(icon.group(1))
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml" and b"<svg" in svg.data
    assert client.get("/favicon.ico").mimetype == "image/svg+xml"


def test_item10_create_example_uses_a_two_minute_clock_with_a_real_bot():
    spec = yaml.safe_load(spec_text())
    body = spec["paths"]["/v1/games"]["post"]["requestBody"]["content"]["application/json"]
    clock = body["example"]["clock"]
    assert clock["move_seconds"] >= 60 and clock["fallback"] == "greedy"
    clock_schema = spec["components"]["schemas"]["Clock"]["properties"]
    assert clock_schema["move_seconds"]["example"] == 120


def test_item10_every_reference_to_a_module_gets_one_versioned_url():
    from api.webclient.assets import PAGE, Versioned

    files = {
        ("/web/", "a.js"): b'import {x} from "./b.js";\nconst late = () => import("/web/b.js");\n'
        b'import "./elsewhere.js";\n',
        ("/web/", "b.js"): b"export const x = 1;\n",
        (PAGE, "p.html"): b'<head><script type="module" src="/web/a.js"></script></head>',
    }
    known = {"/web/": {"a.js", "b.js"}}
    served = Versioned(lambda prefix, name: files[(prefix, name)], known)
    b = served.version("/web/", "b.js")
    module = served.body("/web/", "a.js").decode()
    assert f'from "./b.js?v={b}"' in module and f'import("/web/b.js?v={b}")' in module
    assert 'import "./elsewhere.js"' in module  # not a file it serves: left as it is
    page = served.body(PAGE, "p.html").decode()
    assert f'src="/web/a.js?v={served.version("/web/", "a.js")}"' in page
    assert page.count('rel="icon"') == 1
    files[("/web/", "b.js")] = b"export const x = 2;\n"
    assert Versioned(lambda p, n: files[(p, n)], known).body("/web/", "a.js").decode() != module
