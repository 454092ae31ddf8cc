"""A learning platform in miniature for the package tests: an HTTP server on 127.0.0.1 that answers
Range requests and logs every path asked, and a host page that installs scorm-again's SCORM 1.2
runtime (``Scorm12API``, from tests/js/node_modules, installed by ``npm ci``) as ``window.API``
and opens the package's launch page in a frame.

The host keeps, at each ``LMSCommit`` that succeeds, a copy of the runtime's data (``window.committed``):
what a platform's server would hold if the frame were closed at that moment. ``misbehave`` (see
:data:`HOST_SCRIPT`) makes it refuse ``LMSInitialize``, refuse every ``LMSSetValue`` with an error
code, or throw from every call.
"""

from __future__ import annotations

import http.server
import re
import shutil
import threading
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from conftest import ROOT

SCORM_AGAIN = ROOT / "tests" / "js" / "node_modules" / "scorm-again" / "dist" / "scorm12.js"
CHROMIUM = "/usr/bin/chromium"

HOST_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test platform</title>
<script src="scorm12.js"></script><script src="host.js"></script></head>
<body style="margin:0"></body></html>
"""
#: ``openPackage(url, stored, misbehave)``: a fresh runtime holding ``stored`` (a cmi JSON), then the frame.
HOST_SCRIPT = """
window.committed = null;
window.calls = [];
function openPackage(url, stored, misbehave) {
  const api = new Scorm12API({ logLevel: 5, autocommit: false });
  if (stored) api.loadFromJSON(stored);
  const keep = () => { window.committed = JSON.parse(JSON.stringify(api.cmi)); };
  const real = {};
  for (const name of ["LMSInitialize", "LMSFinish", "LMSGetValue", "LMSSetValue", "LMSCommit",
                      "LMSGetLastError", "LMSGetErrorString", "LMSGetDiagnostic"]) real[name] = api[name].bind(api);
  const wrapped = {};
  for (const name of Object.keys(real)) {
    wrapped[name] = (...args) => {
      window.calls.push([name, ...args]);
      if (misbehave === "throws") throw new Error("platform failure in " + name);
      if (misbehave === "refuses-init" && name === "LMSInitialize") return "false";
      if (misbehave === "refuses-init" && name === "LMSGetLastError") return "101";
      if (misbehave === "refuses-values" && name === "LMSSetValue") { wrapped.lastError = "405"; return "false"; }
      if (misbehave === "refuses-values" && name === "LMSGetLastError" && wrapped.lastError) {
        const code = wrapped.lastError; wrapped.lastError = ""; return code; }
      const result = real[name](...args);
      if (name === "LMSCommit" && String(result) === "true") keep();
      return result;
    };
  }
  window.API = wrapped;
  window.runtime = api;
  document.getElementById("sco")?.remove();
  const frame = document.createElement("iframe");
  frame.id = "sco";
  frame.title = "Lecture";
  frame.style.cssText = "width:1280px;height:1400px;border:0";
  document.body.appendChild(frame);
  return new Promise(done => { frame.addEventListener("load", () => done(true), { once: true }); frame.src = url; });
}
function closePackage() { const f = document.getElementById("sco"); f.remove(); }
"""


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Files of one folder, with single Range requests (a browser seeks a video with them)."""

    log: list[str]

    def log_message(self, format: str, *args: object) -> None:
        return None

    def send_head(self):  # type: ignore[no-untyped-def]
        self.log.append(self.path)
        m = re.fullmatch(r"bytes=(\d+)-(\d*)", self.headers.get("Range", ""))
        path = Path(self.translate_path(self.path))
        if m is None or not path.is_file():
            return super().send_head()
        size = path.stat().st_size
        start, end = int(m.group(1)), int(m.group(2) or size - 1)
        end = min(end, size - 1)
        if start >= size:
            self.send_error(416)
            return None
        f = open(path, "rb")  # noqa: SIM115  (the server closes it once sent)
        f.seek(start)
        self.send_response(206)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        self.send_header("Content-Length", str(end - start + 1))
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        self._left = end - start + 1
        return f

    def copyfile(self, source, outputfile):  # type: ignore[no-untyped-def]
        left = getattr(self, "_left", None)
        if left is None:
            return super().copyfile(source, outputfile)
        while left > 0 and (chunk := source.read(min(left, 1 << 16))):
            try:
                outputfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                return None
            left -= len(chunk)
        return None


#: The platform's own files (everything else a page asks for must be in a package).
HOST_FILES = ("/host.html", "/host.js", "/scorm12.js", "/favicon.ico")


def make_site(folder: Path, packages: dict[str, Path]) -> None:
    """``folder``: the host page, its script, scorm-again, and each of ``packages`` unpacked under its name."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "host.html").write_text(HOST_PAGE, encoding="utf-8")
    (folder / "host.js").write_text(HOST_SCRIPT, encoding="utf-8")
    shutil.copyfile(SCORM_AGAIN, folder / "scorm12.js")
    for name, package in packages.items():
        with zipfile.ZipFile(package) as z:
            z.extractall(folder / name)


@contextmanager
def serve(folder: Path) -> Iterator[tuple[str, list[str]]]:
    """Serve ``folder`` on 127.0.0.1 (a free port): its address and the log of paths asked."""
    log: list[str] = []
    handler = type("Handler", (_Handler,), {"log": log})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), lambda *a: handler(*a, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", log
    finally:
        server.shutdown()
        server.server_close()
