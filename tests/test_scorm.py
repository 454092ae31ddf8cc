"""``attnvid package``: SCORM 1.2, Common Cartridge 1.1 and zip packages of the rendered lecture.

Every package is unpacked and its manifest checked against the standards' namespaces and
against the files present (each listed file is there, each file there is listed, no absolute
path or ``..``, the launch page exists). The SCORM package then runs in Debian's Chromium inside
a frame of a test platform (:mod:`scorm_host`) whose ``window.API`` is scorm-again's
``Scorm12API``: a student plays to a chapter, answers the self-check (odd questions right, even
ones wrong), leaves; the platform holds the score, status, location and suspend_data; the
student comes back and finds the answers. Platforms that misbehave each get a case: the page
keeps working, throws nothing, and asks only for the package's own files.

The bad-input cases and the page's treatment run on a small lecture folder made by the page's own
code (:func:`small_lecture`), without rendering.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tomllib
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from conftest import ATTNVID, made_once
from scorm_host import CHROMIUM, make_site, serve

from attncore import default_lesson, trace_lesson
from attncore.exercises import make_exercises
from attncore.lesson import LessonError, parse_lesson

IMSCP = "http://www.imsproject.org/xsd/imscp_rootv1p1p2"
ADLCP = "http://www.adlnet.org/xsd/adlcp_rootv1p2"
CC = "http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1"
QTI = "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"
TITLE = "One word, two contexts"
SUFFIX = {"scorm12": ".scorm12.zip", "cc": ".imscc", "zip": ".zip"}


# -- the packages, checked as a platform's importer would -----------------------------------------
def safe_name(name: str) -> bool:
    return not name.startswith("/") and "\\" not in name and ":" not in name and ".." not in name.split("/")


def check_package(path: Path, fmt: str, title: str = TITLE, language: str = "en") -> dict[str, Any]:
    """Unpack ``path`` in memory and check it as a ``fmt`` package; what a test reads further."""
    with zipfile.ZipFile(path) as z:
        assert z.testzip() is None, "a damaged member"
        present = {i.filename for i in z.infolist() if not i.is_dir()}
        data = {n: z.read(n) for n in present if n.endswith((".xml", ".html"))}
    assert all(safe_name(n) for n in present), [n for n in present if not safe_name(n)]
    if fmt == "zip":
        assert "index.html" in present and "imsmanifest.xml" not in present
        return {"present": present, "launch": "index.html"}
    raw = data["imsmanifest.xml"].decode()
    root = ET.fromstring(raw)
    ns = IMSCP if fmt == "scorm12" else CC
    assert root.tag == f"{{{ns}}}manifest"
    assert f'xmlns="{ns}"' in raw
    q = lambda tag: f"{{{ns}}}{tag}"  # noqa: E731
    orgs = root.find(q("organizations"))
    assert orgs is not None and len(orgs.findall(q("organization"))) == 1
    resources = {r.get("identifier"): r for r in root.iter(q("resource"))}
    listed = [f.get("href") for f in root.iter(q("file"))]
    assert all(h and safe_name(h) for h in listed)
    assert len(listed) == len(set(listed)), "a file listed twice"
    assert set(listed) == present - {"imsmanifest.xml"}, (set(listed) ^ (present - {"imsmanifest.xml"}))
    refs = [i.get("identifierref") for i in orgs.iter(q("item")) if i.get("identifierref")]
    assert refs and all(r in resources for r in refs)
    out: dict[str, Any] = {"present": present, "root": root, "data": data}
    if fmt == "scorm12":
        assert f'xmlns:adlcp="{ADLCP}"' in raw
        meta = root.find(q("metadata"))
        assert meta is not None
        assert [meta.findtext(q("schema")), meta.findtext(q("schemaversion"))] == ["ADL SCORM", "1.2"]
        assert orgs.get("default") == orgs.find(q("organization")).get("identifier")
        assert orgs.find(q("organization")).findtext(q("title")) == title
        assert f">{language}</imsmd:language>" in raw
        (res,) = resources.values()
        assert res.get(f"{{{ADLCP}}}scormtype") == "sco" and res.get("type") == "webcontent"
        out["launch"] = res.get("href")
        out["items"] = [(i.findtext(q("title")), i.get("parameters"), i.findtext(f"{{{ADLCP}}}masteryscore"))
                        for i in orgs.iter(q("item"))]
    else:
        meta = root.find(q("metadata"))
        assert meta is not None and meta.findtext(q("schemaversion")) == "1.1.0"
        page = next(r for r in resources.values() if r.get("type") == "webcontent")
        quiz = next(r for r in resources.values() if r.get("type") == "imsqti_xmlv1p2/imscc_xmlv1p1/assessment")
        out["launch"] = page.get("href")
        out["qti"] = ET.fromstring(data[quiz.find(q("file")).get("href")])
    assert out["launch"] in present, "the launch page is in the package"
    return out


def page_is_framed(html: str) -> None:
    """A packaged page runs no inline code and allows only its own files."""
    assert re.search(r'<meta http-equiv="Content-Security-Policy" content="default-src \'self\'; script-src \'self\';'
                     r" style-src 'self';", html)
    assert "unsafe-inline" not in html and "unsafe-eval" not in html
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
    assert scripts and all('src="' in attrs or 'type="application/json"' in attrs for attrs, _ in scripts)
    assert all(not body.strip() for attrs, body in scripts if 'src="' in attrs)
    assert "<style" not in html and not re.search(r"\s(on[a-z]+|style)=", html)
    assert not re.search(r"""(src|href)=["'](https?:)?//""", html), "a file from outside the package"


# -- a small lecture folder, written by the page's own code (no video rendered) ---------------------
def small_lecture(folder: Path, big: int = 0) -> Path:
    """A lecture folder as ``attnvid lecture`` leaves it, its videos a few bytes (or ``big`` bytes)."""
    from attnvid.publish.page import lecture_page
    from attnvid.publish.selfcheck import self_check_section

    folder.mkdir(parents=True)
    chapters = [{"title": f"1 · Embeddings — {t}", "start_s": k * 10.0, "end_s": k * 10.0 + 10} for k, t in
                enumerate(["Words become vectors", "Reading a vector", "One word, two meanings"])]
    manifest = {"title": TITLE, "video": "lecture.mp4", "posters": ["posters/a.png"], "chapters": chapters,
                "duration_s": 30.0, "exercises": {"count": 3, "seed": 0}, "playground": "playground.html",
                "parts": []}
    exercises = make_exercises(trace_lesson(default_lesson()), 3, 0)
    page = lecture_page(manifest, TITLE, [], self_check_section(exercises, chapters))
    (folder / "index.html").write_text(page, encoding="utf-8")
    (folder / "playground.html").write_text('<!doctype html><html><head><meta charset="utf-8"><style>p{}</style>'
                                            "</head><body><script>var x = 1;</script></body></html>",
                                            encoding="utf-8")
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    (folder / "lecture.mp4").write_bytes(os.urandom(big or 64))
    (folder / "posters").mkdir()
    (folder / "posters" / "a.png").write_bytes(b"\x89PNG")
    return folder


def run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([ATTNVID, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=300)


def test_packages_of_a_small_lecture(tmp_path: Path) -> None:
    folder = small_lecture(tmp_path / "media" / "lecture" / "low")
    r = run("package", "--format", "scorm12", "--format", "cc", "--format", "zip", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    printed = r.stdout.strip().splitlines()
    assert printed == [f"media/lecture/low/attnvid-default-en{SUFFIX[f]}" for f in ("scorm12", "cc", "zip")]
    for fmt in SUFFIX:
        got = check_package(tmp_path / printed[list(SUFFIX).index(fmt)], fmt)
        prefix = "web_resources/" if fmt == "cc" else ""
        assert {f"{prefix}{n}" for n in ("index.html", "playground.html", "scorm.js", "lecture.mp4", "manifest.json",
                                         "posters/a.png")} <= got["present"]
        assert f"{prefix}invideo.js" not in got["present"]
        with zipfile.ZipFile(tmp_path / printed[list(SUFFIX).index(fmt)]) as z:
            page_is_framed(z.read(f"{prefix}index.html").decode())
            page_is_framed(z.read(f"{prefix}playground.html").decode())
            assert z.read(f"{prefix}lecture.mp4") == (folder / "lecture.mp4").read_bytes()
    assert not list(folder.glob(".*part")), "no part file left"


def test_the_cartridge_quiz_is_the_self_check(tmp_path: Path) -> None:
    small_lecture(tmp_path / "media" / "lecture" / "low")
    assert run("package", "--format", "cc", cwd=tmp_path).returncode == 0
    qti = check_package(tmp_path / "media/lecture/low/attnvid-default-en.imscc", "cc")["qti"]
    exercises = make_exercises(trace_lesson(default_lesson()), 3, 0)
    items = list(qti.iter(f"{{{QTI}}}item"))
    assert [i.get("ident") for i in items] == [f"exercise-{e.number}" for e in exercises]
    for item, ex in zip(items, exercises, strict=True):
        profile = item.find(f".//{{{QTI}}}fieldentry").text
        scored = [c for c in item.iter(f"{{{QTI}}}respcondition") if c.find(f"{{{QTI}}}setvar") is not None]
        (right,) = scored
        said = [v.text for v in right.iter(f"{{{QTI}}}varequal")]
        if ex.numerical:
            assert profile == "cc.fib.v0p1" and ex.answer_number in said
        else:
            assert profile == "cc.multiple_choice.v0p1"
            k = next(k for k, c in enumerate(ex.choices) if not c.mistake)
            assert said == [f"choice-{k}"]


def one_line_refusal(r: subprocess.CompletedProcess[str], *words: str) -> None:
    assert r.returncode == 2, (r.returncode, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    for w in words:
        assert w in lines[0], lines[0]


def test_bad_input(tmp_path: Path) -> None:
    one_line_refusal(run("package", "--format", "scorm2004", cwd=tmp_path), "scorm2004", "scorm12")
    one_line_refusal(run("package", "--quality", "high", "--language", "fr", cwd=tmp_path),
                     "no rendered lecture", "attnvid lecture --quality high --language fr")
    assert not (tmp_path / "media").exists(), "nothing made for a lecture that is not there"
    folder = small_lecture(tmp_path / "media" / "lecture" / "low", big=3_000_000)
    for mastery in ("101", "-1", "eighty"):
        one_line_refusal(run("package", "--mastery", mastery, cwd=tmp_path), "--mastery")
    before = sorted(p.name for p in folder.iterdir())
    one_line_refusal(run("package", "--format", "zip", "--format", "scorm12", "--max-size", "2", cwd=tmp_path),
                     "over --max-size 2 MB")
    assert sorted(p.name for p in folder.iterdir()) == before, "no package and no part file left"
    r = run("package", "--max-size", "4", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.strip().endswith(".scorm12.zip")


def test_selfcheck_in_video_in_the_lesson() -> None:
    data = tomllib.loads(resources.files("attncore").joinpath("lessons/default.toml").read_text(encoding="utf-8"))
    assert parse_lesson({**data, "selfcheck": {"in_video": True}}).in_video_questions
    assert not parse_lesson(data).in_video_questions
    with pytest.raises(LessonError, match=r"selfcheck\.in_video: 'yes' is not true or false"):
        parse_lesson({**data, "selfcheck": {"in_video": "yes"}})
    with pytest.raises(LessonError, match="did you mean 'in_video'"):
        parse_lesson({**data, "selfcheck": {"in_vidoe": True}})
