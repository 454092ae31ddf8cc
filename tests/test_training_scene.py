"""The scene "How the weights are learned" (scenes/steps/training.py) with every kind of weights.

Built without rendering for: the default lesson with trained weights, with seeded random
weights, with training too short for its claims; the bank lesson trained; generated
lessons at the bounds, trained (with ``leans`` taken from their own simplified outputs)
and asking for training without stating any sense. For each: the declared sections,
every number on screen equal to the trace (training values included), no digit outside
a number or the provenance line, nothing out of the frame, no overlap, nothing too small
at 480p. Then what is said: the claim only when training says it holds, else its reason.
One real low-quality render.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import av
import numpy as np
import pytest
from conftest import ATTNVID, ROOT, built_scene, shown_frames
from manim import Text
from test_lesson_scenes import check_scene, lesson_toml

from attncore import fmt, trace_lesson
from attncore.display import said
from attncore.lesson import tomllib
from attncore.training import ATTENTION_CLAIM
from scenes.base import LessonScene
from scenes.components import Num, Source
from scenes.components import resolve as draw_resolve
from scenes.inspect import (
    resolve,
    visible_texts,
)
from scenes.lecture import LECTURE
from scenes.order import numbered
from scenes.steps.training import LearningTheWeights

LESSONS = ROOT / "attncore" / "lessons"
DIGIT_CLASSES = ("Provenance", "StepTitle")


def with_projections(text: str, line: str) -> str:
    """``text`` (a lesson) with ``line`` added under its ``[projections]`` table."""
    assert "[projections]" in text
    return text.replace("[projections]", f"[projections]\n{line}", 1)


def with_leans(text: str) -> str:
    """A generated lesson whose contexts claim the dimension their focus word's simplified
    output is strictly largest in (the claim a lesson file may make; none on a tie)."""
    trace = trace_lesson(find_lesson_text(text))
    dims = trace.lesson.dimensions
    out = []
    for part, ctx in zip(text.split("[[contexts]]\n")[1:], trace.contexts):
        row = ctx.output[ctx.focus_index]
        k = int(np.argmax(row))
        strict = int(np.sum(row == row[k])) == 1
        out.append(f'leans = "{dims[k]}"\n' + part if strict else part)
    head = text.split("[[contexts]]\n")[0]
    return head + "".join("[[contexts]]\n" + p for p in out)


def find_lesson_text(text: str) -> object:
    from attncore import parse_lesson

    return parse_lesson(tomllib.loads(text), "generated.toml")


@pytest.fixture(scope="module")
def lessons(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Lesson files by name, written once for the module."""
    folder = tmp_path_factory.mktemp("training_lessons")
    default = (LESSONS / "default.toml").read_text(encoding="utf-8")
    texts = {
        "trained": with_projections(default, 'weights = "trained"'),
        "random": with_projections(default, 'weights = "random"'),
        "too-short": with_projections(default, 'weights = "trained"') + "\n[training]\nsteps = 1\n",
        "bank": with_projections((LESSONS / "bank.toml").read_text(encoding="utf-8"), 'weights = "trained"'),
        "largest": with_projections(with_leans(lesson_toml(3, 8, 8, 4)), 'weights = "trained"'),
        "smallest": with_projections(with_leans(lesson_toml(1, 2, 2, 1, seed=3)), 'weights = "trained"'),
        "no-sense": with_projections(lesson_toml(2, 8, 2, 2), 'weights = "trained"'),
        "no-sense-fr": 'language = "fr"\n' + with_projections(lesson_toml(2, 8, 2, 2), 'weights = "trained"'),
    }
    paths = {}
    for name, text in texts.items():
        path = folder / f"{name}.toml"
        path.write_text(text, encoding="utf-8")
        paths[name] = str(path)
    return paths


def scene(lessons: dict[str, str], name: str) -> LessonScene:
    built = built_scene(LearningTheWeights, lessons[name])
    assert isinstance(built, LearningTheWeights)
    return built


def sources(s: LessonScene) -> list[Source]:
    return [t.mob.source for cp in s.checkpoints for t in visible_texts(cp)
            if isinstance(t.mob, Num) and t.mob.source is not None]


# -- the scene is in the lecture where it belongs ----------------------------------------------


def test_scene_comes_between_two_contexts_and_learned_projections() -> None:
    names = [c.__name__ for c in LECTURE]
    k = names.index("LearningTheWeights")
    assert names[k - 1] == "TwoContexts" and names[k + 1] == "LearnedProjections"
    assert numbered("LearningTheWeights", LearningTheWeights.TITLE) == "9 · How the weights are learned"


# -- every lesson: builds, numbers from the trace, layout ------------------------------------------

ALL = ["trained", "random", "too-short", "bank", "largest", "smallest", "no-sense"]


@pytest.mark.parametrize("name", ALL)
def test_builds_with_numbers_from_the_trace_and_a_clean_layout(lessons: dict[str, str], name: str) -> None:
    s = scene(lessons, name)
    assert [cp.section for cp in s.checkpoints] == LearningTheWeights.section_names()
    assert [n.section for n in s.narrations] == LearningTheWeights.section_names(), "one narration per section"
    check_scene(s, name)  # nothing leaves the frame, overlaps or is too small; numbers are the trace's
    for cp in s.checkpoints:
        where = f"{name} / {cp.section}"
        for shown in visible_texts(cp):
            m = shown.mob
            if isinstance(m, Num):
                assert not m.constant, f"{where}: constant {m.text}"
            elif re.search(r"[0-9]", m.text):
                assert type(m).__name__ in DIGIT_CLASSES, f"{where}: typed-in number in {m.text!r}"


def test_content_stays_in_the_content_box(lessons: dict[str, str]) -> None:
    """Everything but the header and the caption lies between them, in every section of every lesson."""
    for name in ALL:
        s = scene(lessons, name)
        for cp in s.checkpoints:
            for top in cp.mobjects:
                if type(top).__name__ in ("PipelineMarker", "StepTitle", "Formula"):
                    continue
                if isinstance(top, Text) and top.get_top()[1] < s.content.bottom:  # the caption
                    continue
                assert s.content.contains(top), f"{name} / {cp.section}: {type(top).__name__} outside the content box"


# -- trained weights: the history on screen ---------------------------------------------------------


def test_trained_lesson_shows_the_loss_the_snapshots_and_the_claims(lessons: dict[str, str]) -> None:
    s = scene(lessons, "trained")
    t = s.trace.training
    assert t is not None and t.claims_hold
    names = {src.name for src in sources(s)}
    assert {"training.loss", "training.snapshot_steps", "training.snapshots.0", "training.snapshots.1"} <= names
    assert {"training.claims.0.simple", "training.claims.0.trained", "training.claims.1.trained"} <= names
    loss = [src.index for src in sources(s) if src.name == "training.loss"]
    assert sorted(loss) == [(0,), (len(t.loss) - 1,)], "the first and the last loss"
    # a positive loss is never shown as zero ("none"): too small for the decimals, it reads <0.01
    shown = {t.mob.digits for cp in s.checkpoints for t in visible_texts(cp)
             if isinstance(t.mob, Num) and t.mob.source is not None and t.mob.source.name == "training.loss"}
    assert all(t.loss) and not any(set(d) <= set("0.") for d in shown), shown
    last = fmt(t.loss[-1], s.dec)
    assert (f"<{fmt(10.0 ** -s.dec, s.dec)}" if set(last) <= set("0.") else last) in shown
    k = len(t.snapshot_steps)
    rows = {src.index[0] for src in sources(s) if src.name == "training.snapshots.0"}
    assert rows == set(range(k)), "every snapshot is a row"
    # the last snapshot is the trained row the next scenes use
    for c, ctx in enumerate(s.trace.contexts):
        assert np.allclose(t.snapshots[c][-1], ctx.projected.attention[ctx.focus_index])


def test_training_sources_resolve_in_both_resolvers(lessons: dict[str, str]) -> None:
    s = scene(lessons, "trained")
    t = s.trace.training
    assert t is not None
    for src, want in [(Source(0, "training.loss", (3,)), t.loss[3]),
                      (Source(1, "training.snapshots.1", (2, 0)), t.snapshots[1][2, 0]),
                      (Source(0, "training.claims.1.trained"), t.claims[1].trained)]:
        assert float(resolve(s.trace, src)[1]) == pytest.approx(want)
        assert float(draw_resolve(s.trace, src)[1]) == pytest.approx(want)


def test_claim_is_said_only_when_training_says_it_holds(lessons: dict[str, str]) -> None:
    assert ATTENTION_CLAIM == 0.5, "the scene says 'half'"
    s = scene(lessons, "trained")
    t = s.trace.training
    assert t is not None and t.claims_hold
    last = s.narrations[-1].text
    # the calibrated words (attncore.lexicon): "almost all" from 0.9, "at least half" below it
    shares = [cl.trained for cl in t.claims]
    want = "Almost all of its attention" if min(shares) >= 0.9 else "At least half of its attention"
    assert want in last, (shares, last)
    for cl in t.claims:
        assert f"{fmt(cl.trained, s.dec)} to “{cl.sense_words[0]}”" in last
        assert f"against {fmt(cl.simple, s.dec)}" in last
    loss = s.narrations[1].text
    assert f"falls from {said(t.loss[0], s.dec)} to {said(t.loss[-1], s.dec)}" in loss and f"{t.steps} steps" in loss
    assert "sentences generated from them" in s.narrations[0].text  # the screen's words (no count it does not show)


def test_failed_claims_are_said_plainly_with_the_reason(lessons: dict[str, str]) -> None:
    s = scene(lessons, "too-short")
    t = s.trace.training
    assert t is not None and not t.claims_hold and t.reason
    words = " ".join(n.text for n in s.narrations)
    assert t.reason in words
    assert "at least half" not in words.lower()
    captions = [m.mob.text for cp in s.checkpoints for m in visible_texts(cp)]
    assert not any("atleasthalf" in c.replace(" ", "") for c in captions)


# -- untrained weights: said plainly ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["random", "no-sense"])
def test_untrained_weights_are_said_plainly(lessons: dict[str, str], name: str) -> None:
    s = scene(lessons, name)
    assert not any(src.name.startswith("training.") for src in sources(s)), "no training history to show"
    first = s.narrations[0].text
    assert "not trained" in first and s.trace.weights.provenance in first
    shown = [m.mob for cp in s.checkpoints[:1] for m in visible_texts(cp)]
    assert any(type(m).__name__ == "Provenance" and m.provenance == s.trace.weights.provenance for m in shown)
    assert "arbitrary" in s.narrations[-1].text
    if name == "no-sense":  # why: said with the provenance, in the first section
        assert "no sentence of the lesson states the sense" in first
        assert s.trace.training is not None and s.trace.training.reason not in s.narrations[-1].text


def test_the_task_asks_of_several_focus_words_as_alternatives(lessons: dict[str, str]) -> None:
    """Several focus words are asked of as the training task asks ("which sense does “a” or “b”
    have", never "does “a” and “b”"), said and on screen, in English and in French; and an
    untrained lesson in French says nothing in English (attncore's reason is the English of `values`)."""
    from attncore.i18n import quoted
    from scenes.steps.training_layout import question_text

    for name, spoken, shown in (("no-sense", "which sense does {} or {} have here?", "Which sense does {} or {} have"),
                              ("no-sense-fr", "quel sens a {} ou {} ici\xa0?", "Quel sens a {} ou {} dans")):
        s = scene(lessons, name)
        a, b = (quoted(f) for f in dict.fromkeys(c.focus for c in s.trace.contexts))
        assert spoken.format(a, b) in s.narrations[0].text, s.narrations[0].text
        assert question_text(s.trace)[0].startswith(shown.format(a, b)), question_text(s.trace)
        t = s.trace.training
        assert t is not None and t.reason
        words = " ".join(n.text for n in s.narrations)
        assert t.reason not in words, words
        if name == "no-sense-fr":
            assert "trained" not in words and "sentence" not in words, words


# -- one real render ---------------------------------------------------------------------------------


@pytest.mark.render
def test_render_the_trained_scene_at_low_quality(lessons: dict[str, str], tmp_path: Path) -> None:
    r = subprocess.run([ATTNVID, "render", "LearningTheWeights", "--quality", "low", "--lesson", lessons["trained"]],
                       cwd=tmp_path, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr
    out = Path(r.stdout.strip().splitlines()[-1])
    path = out if out.is_absolute() else tmp_path / out
    assert path.name.endswith("_LearningTheWeights.mp4") and path.is_file()
    expected_s = scene(lessons, "trained").renderer.time
    with av.open(str(path)) as container:
        v = container.streams.video[0]
        assert v.codec_context.name == "h264"
        assert (v.codec_context.width, v.codec_context.height) == (854, 480)
    frames = shown_frames(path)
    # frames are whole and the build's times are not: each section's wait for its words may
    # round to a frame either way (one frame per section at most, measured: 2 of 4)
    assert abs(frames - round(expected_s * 15)) <= len(LearningTheWeights.SECTIONS), (frames, expected_s)
