"""The lecture folder as one file a learning platform imports: SCORM 1.2, Common Cartridge 1.1, or a zip.

Made from what ``attnvid lecture`` wrote (nothing is rendered again): every file of the
lecture folder, its pages made safe for a platform's frame (:mod:`.frame_page`: no inline
code, a Content-Security-Policy allowing only the package's own files), ``scorm.js`` (which
finds the platform's SCORM 1.2 API and reports progress, score and state; without one the
page is as before) and, when asked, ``invideo.js`` (the self-check's questions in the player).

- ``scorm12``: ``imsmanifest.xml`` (:func:`.imsmanifest.scorm12_manifest`) at the root, one SCO
  per part of the lecture (``index.html?part=N``) or one for the whole (``one_item``);
- ``cc``: Common Cartridge 1.1, the page as web content under ``web_resources/`` and the
  exercises as a QTI 1.2 assessment (:mod:`.qti`);
- ``zip``: the same page and files, nothing else, for a course site to unpack.

Every package is written to a ``.part`` file; all of them are checked against the size the
lecturer allows before any is renamed into place, so a refused run leaves no package behind.
"""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from attncore import Lesson, trace_lesson
from attncore.exercises import Exercise, make_exercises
from attncore.i18n import _, use

from ..errors import UserError
from ..outputs import part_path
from .frame_page import framed_page
from .imsmanifest import Item, cc_manifest, scorm12_manifest
from .qti import qti_assessment

#: Each format and the ending of its file's name.
FORMATS = {"scorm12": ".scorm12.zip", "cc": ".imscc", "zip": ".zip"}
#: The score (0-100) a student needs to pass, unless the lecturer says otherwise.
DEFAULT_MASTERY = 80
#: The lecture folder's pages that get the frame treatment; the first is the launch page.
PAGES = ("index.html", "playground.html")
#: Files the packages add: the SCORM runtime of the page and the in-video questions.
SCORM_JS, INVIDEO_JS = "scorm.js", "invideo.js"
#: Where a cartridge keeps the page and its files, and its QTI assessment.
CC_WEB, CC_QUIZ = "web_resources", "self-check/assessment.xml"
#: Already compressed: stored as they are (compressing them again costs time and saves nothing).
_STORED = {".mp4", ".png", ".jpg", ".pptx", ".xlsx", ".pdf", ".zip", ".imscc"}
_EPOCH = (2000, 1, 1, 0, 0, 0)  # every member's date: the same folder gives the same bytes


@dataclass(frozen=True)
class PackageSettings:
    """What the lecturer chose for the packages (``attnvid package``'s options)."""

    mastery: int = DEFAULT_MASTERY  # 0-100: the score that passes (adlcp:masteryscore, and the page's verdict)
    max_size_mb: float | None = None  # refuse a package larger than this many MB (10^6 bytes)
    one_item: bool = False  # one SCO for the whole lecture instead of one per part
    in_video: bool = False  # the self-check's questions also in the player, at the end of their chapter


def package_path(folder: Path, lesson: Lesson, fmt: str) -> Path:
    """``folder/attnvid-<lesson>-<language>.scorm12.zip`` (``.imscc``, ``.zip``)."""
    return folder / f"attnvid-{lesson.slug}-{lesson.language}{FORMATS[fmt]}"


#: Lecture files no page of a package opens: the sections' clips are the slides' own videos,
#: which lecture.pptx holds inside itself (a third of a package's bytes, 36 MB at low quality).
NOT_PACKAGED = ("sections/",)


def _ours(rel: str) -> bool:
    """Whether ``rel`` is one of the lecture's files a package carries (not a hidden file, a lock,
    a package, or a file no page opens: :data:`NOT_PACKAGED`)."""
    parts = rel.split("/")
    if any(p.startswith(".") for p in parts) or rel.startswith(NOT_PACKAGED):
        return False
    return not (len(parts) == 1 and parts[0].startswith("attnvid-") and parts[0].endswith(tuple(FORMATS.values())))


def lecture_files(folder: Path) -> list[str]:
    """Every file of the lecture folder, as sorted relative paths with '/'."""
    return sorted(rel for p in folder.rglob("*") if p.is_file() and _ours(rel := p.relative_to(folder).as_posix()))


def read_lecture(folder: Path, render_command: str) -> dict[str, Any]:
    """The lecture folder's manifest; a folder the lecture was not rendered into is one line."""
    manifest = folder / "manifest.json"
    if not manifest.is_file() or not (folder / PAGES[0]).is_file():
        raise UserError(f"no rendered lecture in {folder}; render it first with: {render_command}")
    try:
        data: dict[str, Any] = json.loads(manifest.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise UserError(f"{manifest} is damaged ({exc}); render the lecture again with: {render_command}") from None
    return data


def _asset(name: str) -> bytes:
    return resources.files("attnvid.publish").joinpath(name).read_bytes()


def page_settings(identifier: str, page: bytes, settings: PackageSettings, in_video: bool) -> dict[str, Any]:
    """What scorm.js and invideo.js read from the lecture page: whose state a ``suspend_data`` is
    (the package and the page it was made from), the mastery score, the in-video questions."""
    return {"id": f"{identifier}/{hashlib.sha256(page).hexdigest()[:12]}", "mastery": settings.mastery,
            "in_video": in_video}


def page_files(folder: Path, identifier: str, settings: PackageSettings, in_video: bool) -> dict[str, bytes | Path]:
    """The lecture's files as a package holds them (relative path: bytes, or the file to copy)."""
    files: dict[str, bytes | Path] = {rel: folder / rel for rel in lecture_files(folder)}
    scripts = (SCORM_JS, INVIDEO_JS) if in_video else (SCORM_JS,)
    for k, name in enumerate(PAGES):
        if not (folder / name).is_file():
            continue
        raw = (folder / name).read_bytes()
        launch = k == 0
        page, extra = framed_page(raw.decode(), Path(name).stem,
                                  page_settings(identifier, raw, settings, in_video) if launch else None,
                                  scripts if launch else ())
        files[name] = page.encode()
        files.update(extra)
    for name in scripts:
        files[name] = _asset(name)
    return files


def _items(lesson: Lesson, manifest: Mapping[str, Any], one_item: bool) -> list[Item]:
    parts = manifest.get("parts") or []
    if one_item or len(parts) < 2:
        return [Item(lesson.title)]
    with use(lesson.language):
        return [Item(_("Part {n} · {title}").format(n=n, title=p["title"]), f"?part={n}")
                for n, p in enumerate(parts, 1)]


def package_contents(folder: Path, lesson: Lesson, fmt: str, settings: PackageSettings,
                     exercises: Sequence[Exercise]) -> dict[str, bytes | Path]:
    """Every member of the ``fmt`` package of the lecture in ``folder``, by its path in the zip."""
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    identifier = f"attnvid-{lesson.slug}-{lesson.language}"
    in_video = settings.in_video or lesson.in_video_questions
    files = page_files(folder, identifier, settings, in_video)
    if fmt == "zip":
        return files
    if fmt == "scorm12":
        items = _items(lesson, manifest, settings.one_item)
        xml = scorm12_manifest(
            identifier, lesson.title, lesson.language, items, sorted(files), settings.mastery, PAGES[0]
        )
        return {"imsmanifest.xml": xml, **files}
    web = {f"{CC_WEB}/{rel}": data for rel, data in files.items()}
    quiz = None
    if exercises:
        with use(lesson.language):
            title = _("Check yourself")
            web[CC_QUIZ] = qti_assessment(f"{identifier}-self-check", f"{lesson.title}: {title}", exercises)
        quiz = (title, CC_QUIZ)
    pages = sorted(k for k in web if k != CC_QUIZ)
    xml = cc_manifest(identifier, lesson.title, lesson.language, pages, f"{CC_WEB}/{PAGES[0]}", quiz)
    return {"imsmanifest.xml": xml, **web}


def write_zip(path: Path, members: Mapping[str, bytes | Path]) -> int:
    """Write ``members`` into the zip at ``path`` (the manifest first), the same bytes for the same
    members; its size in bytes."""
    order = sorted(members, key=lambda n: (n != "imsmanifest.xml", n))
    with zipfile.ZipFile(path, "w") as z:
        for name in order:
            info = zipfile.ZipInfo(name, _EPOCH)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_STORED if Path(name).suffix.lower() in _STORED else zipfile.ZIP_DEFLATED
            data = members[name]
            with z.open(info, "w", force_zip64=True) as out, \
                    (open(data, "rb") if isinstance(data, Path) else _Bytes(data)) as src:
                while chunk := src.read(1 << 20):
                    out.write(chunk)
    with open(path, "rb") as f:
        os.fsync(f.fileno())
    return path.stat().st_size


class _Bytes:
    """Bytes read like a file, in a ``with`` block."""

    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def read(self, n: int) -> bytes:
        chunk = self.data[self.at: self.at + n]
        self.at += len(chunk)
        return chunk

    def __enter__(self) -> _Bytes:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


def build_packages(folder: Path, lesson: Lesson, formats: Sequence[str], settings: PackageSettings,
                   exercises: Sequence[Exercise]) -> list[tuple[Path, int]]:
    """Write one package per format into ``folder``; their paths and sizes (bytes).

    All are written to ``.part`` files first and renamed into place only once every one is
    within ``settings.max_size_mb``: a refused run leaves neither a package nor a part file.
    """
    done: list[tuple[Path, Path, int]] = []
    try:
        for fmt in dict.fromkeys(formats):
            path = package_path(folder, lesson, fmt)
            tmp = part_path(path)
            done.append((path, tmp, 0))
            size = write_zip(tmp, package_contents(folder, lesson, fmt, settings, exercises))
            done[-1] = (path, tmp, size)
            limit = settings.max_size_mb
            if limit is not None and size > limit * 1e6:
                raise UserError(f"{path.name} would be {size / 1e6:.1f} MB, over --max-size {limit:g} MB; "
                                "allow more, or package a lower --quality")
        for path, tmp, _size in done:
            os.replace(tmp, path)
    finally:
        for _path, tmp, _size in done:
            tmp.unlink(missing_ok=True)
    return [(path, size) for path, _tmp, size in done]


def lecture_exercises(folder: Path, lesson: Lesson) -> list[Exercise]:
    """The exercises of the lecture's self-check (as many, from the same seed, as its manifest says)."""
    entry = json.loads((folder / "manifest.json").read_text(encoding="utf-8")).get("exercises") or {}
    if not entry.get("count"):
        return []
    with use(lesson.language):
        return list(make_exercises(trace_lesson(lesson), int(entry["count"]), int(entry.get("seed", 0))))
