"""The lecture deck, ``lecture.pptx``: one slide per section, its clip playing by itself,
and a title slide before each part of the lecture.

Each slide holds the section's clip (:mod:`attnvid.publish.clips`) filling the 16:9 slide, the
section's last frame as the clip's poster (what the slide shows before it plays, and
what a PDF export or a print shows), the chapter title as the slide's title, and the
section's narration as the speaker notes. The title sits behind the video: it names the
slide in the outline, the slide sorter and for a screen reader, while the frame shows
the scene's own header.

A slide starts its video as soon as it opens. python-pptx adds a movie that plays on
a click; the "start automatically" timing PowerPoint writes is added here
(:func:`_autoplay_timing`): a main sequence whose first effect, triggered when the slide
begins, calls ``playFrom(0.0)`` on the movie.

The package gets fixed dates (the zip entries' and the document's), so the same
lecture gives the same bytes; the clips and posters are stored, not deflated again.
"""

from __future__ import annotations

import datetime
import io
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pptx import Presentation
from pptx.dml.color import RGBColor
from pptx.oxml import parse_xml
from pptx.oxml.ns import nsdecls
from pptx.shapes.base import BaseShape
from pptx.shapes.placeholder import SlidePlaceholder
from pptx.slide import Slide
from pptx.util import Emu

from attncore.i18n import _, ngettext

from ..catalog import scene_heading
from ..outputs import atomic_path
from .clips import SectionClip, chapter_title, shown

DECK_NAME = "lecture.pptx"
#: 16:9 at PowerPoint's widescreen size (13.333 × 7.5 in).
SLIDE_WIDTH, SLIDE_HEIGHT = Emu(12192000), Emu(6858000)
#: The layout with a title and nothing else, in python-pptx's default template.
TITLE_ONLY = 5
#: The layout with a title and a subtitle (a part's first slide).
TITLE_SLIDE = 0
#: A part's title slide in the lecture page's colours (:mod:`attnvid.publish.page`): dark like the scenes.
PART_COLOURS: dict[str, RGBColor] = {
    "background": RGBColor(0x14, 0x16, 0x1C),  # type: ignore[no-untyped-call]  # python-pptx leaves it untyped
    "title": RGBColor(0xF2, 0xC1, 0x4E),  # type: ignore[no-untyped-call]
    "subtitle": RGBColor(0xEC, 0xE8, 0xE1),  # type: ignore[no-untyped-call]
}
#: The zip format starts in 1980; the same date stands for "when" in the document.
FIXED_DATE = (1980, 1, 1, 0, 0, 0)
#: Zip members kept as they are: already compressed media.
STORED = (".mp4", ".png", ".jpg", ".jpeg")


def _autoplay_timing(movie_id: int) -> str:
    """The ``p:timing`` of a slide whose movie shape ``movie_id`` plays as the slide opens."""
    target = f'<p:tgtEl><p:spTgt spid="{movie_id}"/></p:tgtEl>'
    return (
        f'<p:timing {nsdecls("p")}><p:tnLst><p:par>'
        '<p:cTn id="1" dur="indefinite" restart="never" nodeType="tmRoot"><p:childTnLst>'
        '<p:seq concurrent="1" nextAc="seek"><p:cTn id="2" dur="indefinite" nodeType="mainSeq"><p:childTnLst>'
        '<p:par><p:cTn id="3" fill="hold"><p:stCondLst><p:cond delay="indefinite"/>'
        '<p:cond evt="onBegin" delay="0"><p:tn val="2"/></p:cond></p:stCondLst><p:childTnLst>'
        '<p:par><p:cTn id="4" fill="hold"><p:stCondLst><p:cond delay="0"/></p:stCondLst><p:childTnLst>'
        '<p:par><p:cTn id="5" presetID="1" presetClass="mediacall" presetSubtype="0" fill="hold" '
        'nodeType="afterEffect"><p:stCondLst><p:cond delay="0"/></p:stCondLst><p:childTnLst>'
        f'<p:cmd type="call" cmd="playFrom(0.0)"><p:cBhvr><p:cTn id="6" dur="1" fill="hold"/>{target}</p:cBhvr></p:cmd>'
        '</p:childTnLst></p:cTn></p:par>'
        '</p:childTnLst></p:cTn></p:par>'
        '</p:childTnLst></p:cTn></p:par>'
        '</p:childTnLst></p:cTn>'
        '<p:prevCondLst><p:cond evt="onPrev" delay="0"><p:tgtEl><p:sldTgt/></p:tgtEl></p:cond></p:prevCondLst>'
        '<p:nextCondLst><p:cond evt="onNext" delay="0"><p:tgtEl><p:sldTgt/></p:tgtEl></p:cond></p:nextCondLst>'
        '</p:seq>'
        '<p:video><p:cMediaNode vol="80000"><p:cTn id="7" fill="hold" display="0">'
        f'<p:stCondLst><p:cond delay="indefinite"/></p:stCondLst></p:cTn>{target}</p:cMediaNode></p:video>'
        '</p:childTnLst></p:cTn></p:par></p:tnLst></p:timing>'
    )


def _add_section(slide: Slide, folder: Path, clip: SectionClip) -> None:
    title = slide.shapes.title
    if title is not None:  # first, so that the video covers it
        title.text = chapter_title(clip.scene, clip.scene_title, clip.title)
    movie = slide.shapes.add_movie(str(folder / clip.path), Emu(0), Emu(0), SLIDE_WIDTH, SLIDE_HEIGHT,
                                   poster_frame_image=str(folder / clip.poster), mime_type="video/mp4")
    # Translators: the name of a slide's video (read by a screen reader); {title} is the section's.
    movie.name = _("Section video: {title}").format(title=shown(clip.title))
    sld = slide._element
    old = sld.find(f"{{{sld.nsmap['p']}}}timing")
    if old is not None:
        sld.remove(old)
    sld.insert_element_before(parse_xml(_autoplay_timing(movie.shape_id)), "p:extLst")
    notes = slide.notes_slide.notes_text_frame
    if notes is not None:
        notes.text = clip.narration


@dataclass(frozen=True)
class DeckPart:
    """A part of the lecture: its title slide comes before the first section of its first scene."""

    title: str  # as shown (translated)
    scenes: Sequence[str]  # class names, in lecture order


def _place(shape: BaseShape, top: float, height: float, text: str, colour: RGBColor) -> None:
    """Put ``shape`` across the 16:9 slide (the template's layouts are 4:3), from ``top`` for
    ``height`` (fractions of the slide's height), and set its text."""
    shape.left, shape.width = Emu(SLIDE_WIDTH // 10), Emu(SLIDE_WIDTH * 8 // 10)
    shape.top, shape.height = Emu(round(SLIDE_HEIGHT * top)), Emu(round(SLIDE_HEIGHT * height))
    assert isinstance(shape, SlidePlaceholder)
    shape.text = text
    for paragraph in shape.text_frame.paragraphs:
        for run in paragraph.runs:
            run.font.color.rgb = colour


def _add_part_title(slide: Slide, n: int, part: DeckPart, clips: Sequence[SectionClip]) -> None:
    """Part ``n``'s title slide, dark like the scenes: its title; its scenes, sections and
    length below; its scenes in the notes."""
    mine = [c for c in clips if c.scene in part.scenes]
    seconds = round(sum(c.end_s - c.start_s for c in mine))
    scene_titles = list(dict.fromkeys(scene_heading(c.scene, c.scene_title) for c in mine))
    slide.background.fill.solid()
    slide.background.fill.fore_color.rgb = PART_COLOURS["background"]
    if slide.shapes.title is not None:
        _place(slide.shapes.title, 0.3, 0.2, _("Part {n}: {title}").format(n=n, title=part.title),
               PART_COLOURS["title"])
    scenes = ngettext("{n} scene", "{n} scenes", len(scene_titles)).format(n=len(scene_titles))
    sections = ngettext("{n} section", "{n} sections", len(mine)).format(n=len(mine))
    _place(slide.placeholders[1], 0.52, 0.12, f"{scenes} · {sections} · {seconds // 60}:{seconds % 60:02d}",
           PART_COLOURS["subtitle"])
    notes = slide.notes_slide.notes_text_frame
    if notes is not None:
        notes.text = "\n".join(scene_titles)


def write_deck(out: Path, folder: Path, title: str, clips: Sequence[SectionClip],
               parts: Sequence[DeckPart] = ()) -> None:
    """Write the deck of ``clips`` (paths relative to ``folder``) to ``out``, atomically; each
    of ``parts`` gets a title slide before its first section."""
    prs = Presentation()
    prs.slide_width, prs.slide_height = SLIDE_WIDTH, SLIDE_HEIGHT
    opens = {part.scenes[0]: (n, part) for n, part in enumerate(parts, 1) if part.scenes}
    for k, clip in enumerate(clips):
        if clip.scene in opens and (k == 0 or clips[k - 1].scene != clip.scene):
            n, part = opens[clip.scene]
            _add_part_title(prs.slides.add_slide(prs.slide_layouts[TITLE_SLIDE]), n, part, clips)
        _add_section(prs.slides.add_slide(prs.slide_layouts[TITLE_ONLY]), folder, clip)
    props = prs.core_properties
    props.title = title
    props.subject = _("Self-attention, explained with real numbers")
    props.author = props.last_modified_by = "attnvid"
    props.created = props.modified = datetime.datetime(*FIXED_DATE)
    props.revision = 1
    raw = io.BytesIO()
    prs.save(raw)
    with atomic_path(out) as tmp:
        _with_fixed_dates(raw, tmp)


def _with_fixed_dates(package: io.BytesIO, out: Path) -> None:
    """Copy the zip ``package`` to ``out`` with every entry dated :data:`FIXED_DATE`, media stored as they are."""
    with zipfile.ZipFile(package) as src, zipfile.ZipFile(out, "w") as dst:
        for item in src.infolist():
            how = zipfile.ZIP_STORED if item.filename.lower().endswith(STORED) else zipfile.ZIP_DEFLATED
            dst.writestr(zipfile.ZipInfo(item.filename, FIXED_DATE), src.read(item), how)
