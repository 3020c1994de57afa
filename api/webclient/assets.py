"""Content-versioned static files: each page and module is served with every reference to
another static file carrying `?v=<hash of that file>`, so a browser may keep the versioned
file for a year and revalidates only the page itself (ETag, 304). A file's version covers
the versions of the files it imports, so a change anywhere gives every importer a new URL.

The files are fixed while the app runs, so everything here is computed once and cached.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping

# References to a static file: `from "./x.js"`, `import "/web/x.js"`, `import("./x.js")`
# (one module, one URL: never a second copy), `href="/web/x.css"`,
# `src="/docs/static/x.js"`. Group 3 is the path prefix, group 4 the name.
_REFERENCE = re.compile(
    r"""(\b(?:from|import|href|src)\s*[=(]?\s*)(["'])(\./|/web/|/docs/static/)([\w.-]+)\2"""
)
PAGE = "page"  # the prefix of the pages themselves (their references are absolute)
_FAVICON = '<link rel="icon" type="image/svg+xml" href="/web/favicon.svg">'


def version_of(body: bytes) -> str:
    """A short content hash: the `v` of a versioned URL and the file's ETag."""
    return hashlib.sha256(body).hexdigest()[:16]


class Versioned:
    """The static files `read(prefix, name)` of the given prefixes ('/web/', '/docs/static/',
    PAGE), with their references rewritten to versioned URLs, and each page with the icon."""

    def __init__(self, read: Callable[[str, str], bytes], known: Mapping[str, set[str]]):
        self._read = read
        self._known = known  # prefix -> the names served under it
        self._bodies: dict[tuple[str, str], bytes] = {}

    def body(self, prefix: str, name: str) -> bytes:
        """The file with its references versioned (HTML, CSS and JS; other files as they are)."""
        key = (prefix, name)
        if key not in self._bodies:
            raw = self._read(prefix, name)
            if name.endswith((".html", ".js", ".css")):
                raw = self._rewrite(prefix, raw.decode("utf-8")).encode("utf-8")
            self._bodies[key] = raw
        return self._bodies[key]

    def version(self, prefix: str, name: str) -> str:
        return version_of(self.body(prefix, name))

    def _rewrite(self, prefix: str, text: str) -> str:
        def versioned(match: re.Match) -> str:
            lead, quote, where, name = match.groups()
            target = prefix if where == "./" else where
            if name not in self._known.get(target, ()):
                return match.group(0)
            return f"{lead}{quote}{where}{name}?v={self.version(target, name)}{quote}"

        if prefix == PAGE and 'rel="icon"' not in text:
            text = text.replace("</head>", _FAVICON + "\n</head>", 1)
        return _REFERENCE.sub(versioned, text)
