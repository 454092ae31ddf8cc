"""The two styles (issue 26): contrast by construction, colours told apart by colour-blind
viewers, and ``--theme`` on every command that renders.

The walk (:func:`test_every_text_keeps_its_contrast`) rasterises the end of every section
of every scene, in both styles, for the built-in lessons and the largest lesson at the
bounds, and reads the colour behind every text from the frame
(:func:`scenes.inspect.text_contrasts`).
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import ATTNVID, built_scene
from test_lesson_scenes import bounds_toml, check_scene

from attncore import find_lesson
from attnvid.cli import cli
from scenes.lecture import LECTURE
from scenes.palette_checks import (
    AA_GRAPHIC,
    AA_TEXT,
    MIN_CVD_DISTANCE,
    VISIONS,
    ciede2000,
    close_pairs,
    contrast_ratio,
    relative_luminance,
    simulated_lab,
)
from scenes.theme import STYLES, Theme, lesson_colour_warnings, must_differ

BUILT_IN = ("default", "bank", "souris")
ROOT = Path(__file__).resolve().parents[1]
STYLE_NAMES = tuple(STYLES)


# -- the arithmetic ----------------------------------------------------------------------
def test_wcag_contrast_ratio() -> None:
    """WCAG 2.1's own numbers: black on white 21:1, a colour on itself 1:1, #767676 the
    lightest grey with 4.5:1 on white (#777777 falls just short)."""
    assert relative_luminance("#ffffff") == pytest.approx(1.0) and relative_luminance("#000000") == 0.0
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast_ratio("#3a7bd5", "#3a7bd5") == pytest.approx(1.0)
    assert contrast_ratio("#767676", "#ffffff") >= AA_TEXT > contrast_ratio("#777777", "#ffffff")
    assert contrast_ratio("#ffffff", "#767676") == contrast_ratio("#767676", "#ffffff")


#: Test pairs of Sharma, Wu & Dalal (2005), "The CIEDE2000 color-difference formula:
#: implementation notes, supplementary test data", pairs 1, 7, 13, 17, 25 and 34.
SHARMA = [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0011), 7.2195),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((2.0776, 0.0795, -1.135), (0.9033, -0.0636, -0.5514), 0.9082),
]


@pytest.mark.parametrize(("lab1", "lab2", "expected"), SHARMA)
def test_ciede2000_matches_the_published_test_data(lab1: Any, lab2: Any, expected: float) -> None:
    assert ciede2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)
    assert ciede2000(lab2, lab1) == pytest.approx(expected, abs=1e-4)


def test_the_simulations_are_machado_2009() -> None:
    """Pure red under protanopia is darker than under deuteranopia, and red and green, far
    apart for normal vision, come close under both (the classic confusion); blue and yellow
    stay apart except under tritanopia."""
    red, green = "#d62728", "#2ca02c"
    normal = ciede2000(simulated_lab(red), simulated_lab(green))
    for vision in ("protanopia", "deuteranopia"):
        assert ciede2000(simulated_lab(red, vision), simulated_lab(green, vision)) < normal / 2
    assert simulated_lab(red, "protanopia")[0] < simulated_lab(red, "deuteranopia")[0]
    assert set(VISIONS) == {"protanopia", "deuteranopia", "tritanopia"}


# -- the palettes ------------------------------------------------------------------------
TEXT_ROLES = ("text", "muted", "accent", "query", "key", "value", "output", "weight", "animal", "tech", "grammar",
              "other", "positive", "negative")


@pytest.mark.parametrize("style", STYLE_NAMES)
def test_every_text_colour_reads_on_the_background_and_the_panel(style: str) -> None:
    theme = Theme(style=style)
    colours = [theme[r] for r in TEXT_ROLES] + theme.dim_palette + theme.head_palette
    for ground in ("background", "panel"):
        low = [
            (c, round(contrast_ratio(c, theme[ground]), 2))
            for c in colours
            if contrast_ratio(c, theme[ground]) < AA_TEXT
        ]
        assert not low, f"{style}: under 4.5:1 on the {ground}: {low}"
    # Lines that carry meaning (a matrix's grid, a cell's frame) are graphics: 3:1.
    assert min(contrast_ratio(theme["grid"], theme[g]) for g in ("background", "panel")) >= AA_GRAPHIC


@pytest.mark.parametrize("lesson", BUILT_IN)
@pytest.mark.parametrize("style", STYLE_NAMES)
def test_colours_that_must_differ_stay_apart_under_colour_blindness(style: str, lesson: str) -> None:
    """The lesson's dimensions, query/key/value, the contexts and the heads: every pair at
    least MIN_CVD_DISTANCE (CIEDE2000) apart for normal vision and under protanopia,
    deuteranopia and tritanopia, in both styles."""
    ls = find_lesson(lesson)
    theme = Theme(ls.theme, ls.dimensions, style)
    groups = must_differ(theme, ls.dimensions, 4, [c.leans for c in ls.contexts])  # four heads: the most a lesson has
    assert set(groups) == {"dimensions", "query/key/value", "heads", "contexts"}
    problems = [str(p) for group, colours in groups.items() for p in close_pairs(group, colours)]
    assert not problems, problems


def test_the_pair_check_fails_on_a_classic_confusion() -> None:
    (problem,) = close_pairs("senses", {"animal": "#d62728", "tech": "#2ca02c"})
    assert problem.vision in ("protanopia", "deuteranopia") and problem.distance < MIN_CVD_DISTANCE
    assert "animal and tech look alike under" in str(problem)


CONFUSED = """
title = "Confused"
dimensions = ["animal", "tech"]
[vocabulary]
cat = [3, 0]
mouse = [2, 2]
keyboard = [0, 3]
[[contexts]]
sentence = "cat mouse"
focus = "mouse"
[[contexts]]
sentence = "keyboard mouse"
focus = "mouse"
[heads]
count = 1
[theme]
animal = "#d62728"
tech = "#2ca02c"
"""


def test_a_lesson_whose_colours_colour_blind_viewers_confuse_is_warned(tmp_path: Path) -> None:
    path = tmp_path / "confused.toml"
    path.write_text(CONFUSED, encoding="utf-8")
    warnings = lesson_colour_warnings(find_lesson(path))
    assert [w for w in warnings if "look alike" in w] == [
        w for w in warnings if "theme: dimensions: animal and tech look alike under" in w and "dark style" in w]
    assert any("look alike" in w for w in warnings)
    r = subprocess.run([ATTNVID, "list", "--lesson", str(path)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "attnvid: warning: " in r.stderr and "animal and tech look alike under" in r.stderr
    # The built-in lessons' colours draw no warning (they are the palette's, which the test above checks).
    assert not any(lesson_colour_warnings(find_lesson(name)) for name in BUILT_IN)


def test_a_lesson_colour_without_contrast_in_its_style_is_warned(tmp_path: Path) -> None:
    """The dark style's orange is fine on dark, 2.2:1 on the light background."""
    text = (ROOT / "attncore" / "lessons" / "default.toml").read_text(encoding="utf-8")
    for style, expected in (("dark", []), ("light", ["theme.query: #f2a65a has only"])):
        path = tmp_path / f"{style}.toml"
        path.write_text(text + f'\n[theme]\nstyle = "{style}"\nquery = "#f2a65a"\n', encoding="utf-8")
        warnings = lesson_colour_warnings(find_lesson(path))
        assert [e for e in expected if any(e in w and "light background" in w for w in warnings)] == expected
        assert len(warnings) == len(expected), warnings


# -- the option and the lesson's style ---------------------------------------------------
RENDERING = ("render", "preview", "storyboard", "lecture", "batch", "workbook")  # the workbook takes its colours


@pytest.mark.parametrize("command", RENDERING)
def test_every_command_that_renders_takes_theme(command: str) -> None:
    result = CliRunner().invoke(cli, [command, "--help"])
    assert result.exit_code == 0 and "--theme [dark|light]" in result.output


def test_a_lesson_chooses_its_style_and_the_styles_are_kept_apart(tmp_path: Path) -> None:
    from attnstage.settings import SceneSettings
    from attnvid.lessons import output_root
    from attnvid.render.jobs import plan

    text = (ROOT / "attncore" / "lessons" / "bank.toml").read_text(encoding="utf-8")
    path = tmp_path / "bank.toml"
    path.write_text(text + '\n[theme]\nstyle = "light"\n', encoding="utf-8")
    light = find_lesson(path)
    assert light.style == "light" and light.theme == ()
    settings = SceneSettings(lesson=str(path))
    assert settings.with_style(light.style).style == "light"
    assert SceneSettings(style="dark").with_style(light.style).style == "dark"
    assert settings.with_style(find_lesson("bank").style).style == "dark"
    media = tmp_path / "media"
    dark, lit = (SceneSettings(lesson=str(path), style=s) for s in ("dark", "light"))
    assert output_root(light, media, lit) == media / "bank" / "light" != output_root(light, media, dark)
    (a,), (b,) = (plan(light, SceneSettings(lesson=str(path), style=s), ["Softmax"], "mp4", media) for s in STYLE_NAMES)
    assert a.key != b.key and a.final != b.final and {a.settings.style, b.settings.style} == set(STYLE_NAMES)
    path.write_text(text + '\n[theme]\nstyle = "sepia"\n', encoding="utf-8")
    r = subprocess.run([ATTNVID, "list", "--lesson", str(path)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "theme.style: 'sepia' is not a style" in r.stderr


def test_a_light_lecture_has_a_light_page() -> None:
    from attncore import default_lesson
    from attnvid.publish.assemble import lecture_manifest
    from attnvid.publish.page import LIGHT_CSS, LIGHT_LINK, lecture_page

    pages = {}
    for style in STYLE_NAMES:
        m = lecture_manifest(default_lesson(), "low", 1.0, [], ["posters/00_TitleCard.png"], "none", style=style)
        assert m["style"] == style
        pages[style] = lecture_page(m, "t")
    # light.css (LIGHT_CSS, written beside the page) over the page's own style
    assert LIGHT_LINK in pages["light"] and LIGHT_LINK not in pages["dark"] and "color-scheme: light" in LIGHT_CSS
    light = Theme(style="light")
    for role in ("background", "panel", "text", "muted", "accent"):
        assert light[role] in LIGHT_CSS, f"the page's light {role} is the theme's"


# -- the walk ----------------------------------------------------------------------------
def rasterise(built: Any) -> list[Any]:
    """The frame at every checkpoint of a built scene, drawn by Manim's camera at 480p."""
    from manim import Camera, ManimColor, tempconfig

    images = []
    with tempconfig({"quality": "low_quality", "dry_run": True, "verbosity": "ERROR"}):
        camera = Camera(background_color=ManimColor(built.theme["background"]))
        for cp in built.checkpoints:
            camera.reset()
            camera.capture_mobjects(cp.mobjects)
            images.append(camera.get_image().copy())
    return images


def low_contrast(built: Any) -> list[str]:
    from scenes.inspect import text_contrasts

    out = []
    for cp, image in zip(built.checkpoints, rasterise(built), strict=True):
        out += [f"{cp.section}: {c.text!r} {c.colour} on {c.behind} is {c.ratio:.2f}:1 (under {c.least:g}:1)"
                for c in text_contrasts(cp, image) if not c.passes]
    return out


@pytest.fixture(scope="module")
def largest_lesson(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("theme-bounds") / "largest.toml"
    path.write_text(bounds_toml("largest"), encoding="utf-8")  # the same content as test_lesson_scenes': one build
    return str(path)


@pytest.mark.slow  # rasterises the end of every section of every scene, 8 lessons × styles
@pytest.mark.parametrize("cls", LECTURE, ids=[c.__name__ for c in LECTURE])
@pytest.mark.parametrize("lesson", [*BUILT_IN, "largest"])
@pytest.mark.parametrize("style", STYLE_NAMES)
def test_every_text_keeps_its_contrast(style: str, lesson: str, cls: type, largest_lesson: str) -> None:
    """Every text at the end of every section: at least 4.5:1 against what is behind its
    centre (3:1 when large), read from the rasterised frame; and, in the dark style, the layout
    of every built-in lesson holds (test_lesson_scenes.check_scene: the frame's edge, overlaps,
    sizes, headers on one line, the trace's numbers)."""
    spec = largest_lesson if lesson == "largest" else ("" if lesson == "default" else lesson)
    built = built_scene(cls, spec, "" if style == "dark" else style)
    assert built.theme.style == style
    if style == "dark":
        check_scene(built, lesson)
    problems = low_contrast(built)
    assert not problems, problems


def test_the_walk_sees_a_low_contrast_colour(tmp_path: Path) -> None:
    """A lesson that sets the text colour near the background fails the walk's check."""
    text = (ROOT / "attncore" / "lessons" / "default.toml").read_text(encoding="utf-8")
    path = tmp_path / "dim.toml"
    path.write_text(text + '\n[theme]\ntext = "#3a3d46"\n', encoding="utf-8")  # 1.7:1 on the dark background
    problems = low_contrast(built_scene(LECTURE[0], str(path)))
    assert problems and all("#3a3d46" in p for p in problems)
