"""The lecture's pages made safe for someone else's frame: no inline code, a Content-Security-Policy.

A learning platform shows a package's page inside its own frame. The page the lecture
wrote (``index.html``, ``playground.html``) keeps its scripts and styles inline so that it
works from ``file://``; here each inline script becomes a file of the package
(``page/index-1.js``...) and each inline style a stylesheet (``page/index-1.css``), so that
the policy can allow only the package's own files (``'self'``) with no ``'unsafe-inline'``
and no ``eval``. The JSON data blocks (``<script type="application/json">``) stay: the
browser never runs them, and a policy does not apply to them. Scripts and styles keep
their place and order, so the page runs as before. External scripts load from ``file://``
too, so the unpacked zip still works from disk.

The lecture page then gets the package's settings (a JSON block) and ``scorm.js``, which
reports to the platform (:mod:`attnvid.publish.package`), and, when asked, ``invideo.js``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

#: Only the package's own files: scripts, styles, images, media, fonts; nothing posted, no plug-in.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; media-src 'self'; "
       "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'")
#: The folder of the package that holds the pages' scripts and styles taken out of them.
PAGE_DIR = "page"
#: The id of the package's settings block in the lecture page (read by scorm.js and invideo.js).
SETTINGS_ID = "attnvid-package"

_SCRIPT = re.compile(r"<script(?P<attrs>(?:\s[^>]*)?)>(?P<body>.*?)</script>", re.S | re.I)
_STYLE = re.compile(r"<style(?P<attrs>(?:\s[^>]*)?)>(?P<body>.*?)</style>", re.S | re.I)
_TYPE = re.compile(r"""\stype\s*=\s*["']?([^"'\s>]+)""", re.I)
_CHARSET = re.compile(r"<meta\s+charset=[^>]*>", re.I)
#: Script types a browser runs (a missing type included); anything else is a data block.
_RUN = {"", "text/javascript", "application/javascript", "module"}


def _runs(attrs: str) -> bool:
    m = _TYPE.search(attrs)
    return (m.group(1).lower() if m else "") in _RUN and not re.search(r"\ssrc\s*=", attrs, re.I)


def externalise(page: str, stem: str) -> tuple[str, dict[str, bytes]]:
    """``page`` with its inline scripts and styles moved to files named after ``stem``; the files
    (paths relative to the page's folder)."""
    files: dict[str, bytes] = {}

    def script(m: re.Match[str]) -> str:
        if not _runs(m.group("attrs")):
            return m.group(0)
        name = f"{PAGE_DIR}/{stem}-{len(files) + 1}.js"
        files[name] = m.group("body").strip().encode() + b"\n"
        module = ' type="module"' if "module" in m.group("attrs").lower() else ""
        # deferred, as the page's own scripts are: they run in document order after the page is read
        return f'<script src="{name}"{module} defer></script>'

    def style(m: re.Match[str]) -> str:
        name = f"{PAGE_DIR}/{stem}-{len(files) + 1}.css"
        files[name] = m.group("body").strip().encode() + b"\n"
        return f'<link rel="stylesheet" href="{name}">'

    return _STYLE.sub(style, _SCRIPT.sub(script, page)), files


def with_policy(page: str) -> str:
    """``page`` with the :data:`CSP` meta element first in its head (a policy applies from where it stands)."""
    meta = f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
    m = _CHARSET.search(page)
    if m is None:
        raise ValueError("the page has no <meta charset>: not a page the lecture wrote")
    return page[: m.end()] + "\n" + meta + page[m.end():]


def framed_page(page: str, stem: str, settings: Mapping[str, Any] | None = None,
                scripts: tuple[str, ...] = ()) -> tuple[str, dict[str, bytes]]:
    """``page`` as the package holds it: its code in files, the policy, and (for the lecture page)
    the package's ``settings`` and ``scripts`` (package files, run last, in order)."""
    out, files = externalise(page, stem)
    tail = ""
    if settings is not None:
        data = json.dumps(dict(settings), ensure_ascii=False).replace("</", "<\\/")
        tail += f'<script id="{SETTINGS_ID}" type="application/json">{data}</script>\n'
    # deferred, so they run after the page's deferred lecture.js has set window.lecture
    tail += "".join(f'<script src="{s}" defer></script>\n' for s in scripts)
    if tail:
        at = out.lower().rfind("</body>")
        out = out[:at] + tail + out[at:] if at >= 0 else out + tail
    return with_policy(out), files
