"""The title card: the lesson's title and its contexts, before the first step.

The lecture opens here, and the card's last frame is the lecture page's first poster.
Nothing on it is computed: the title and the sentences are the lesson's own words, the
focus word of each sentence outlined as in every later scene.
"""

from __future__ import annotations

from dataclasses import dataclass

from manim import DOWN, UP, FadeIn, VGroup, Write

from attncore import LessonTrace
from attncore.bidi import own
from attncore.i18n import N_, _
from scenes.base import LessonScene
from scenes.components import TokenRow, label, quoted, wrap_token_row, wrapped_text
from scenes.layout import DRIFT, FRAME_X, GROUP_BUFF, LABEL_BUFF, LARGE_BUFF, MED_LARGE_BUFF, Box
from scenes.theme import LAG, TIME, Theme

#: What every lecture is about, under the lesson's own title.
SUBTITLE = N_("Self-attention, step by step")
#: The card uses the whole frame but a margin: it has no header and no caption.
CARD_Y = 3.4
CARD = Box(left=-FRAME_X + LARGE_BUFF, right=FRAME_X - LARGE_BUFF, bottom=-CARD_Y, top=CARD_Y)
#: Token sizes tried for the sentences, largest first (three long sentences must fit).
TOKEN_SIZES = ("body", "label", "small")
#: The title is set this much larger than a scene's title, when it fits the card's width.
TITLE_SCALE = 1.3


@dataclass(frozen=True)
class Card:
    title: VGroup
    subtitle: VGroup
    names: tuple[VGroup, ...]  # each context's name, over its sentence
    sentences: tuple[TokenRow, ...]


def sentence_block(
    trace: LessonTrace, theme: Theme, size: str, width: float
) -> tuple[tuple[VGroup, ...], tuple[TokenRow, ...]]:
    """Each context's name (in its ``leans`` colour when it has one) and its sentence, focus outlined."""
    names, rows = [], []
    for c in trace.contexts:
        colour = theme.dim(c.context.leans) if c.context.leans else theme["muted"]
        names.append(VGroup(label(c.context.name, "small" if size != "body" else "label", colour)))
        rows.append(wrap_token_row(TokenRow(c.tokens, theme, focus=c.focus_index, size=size), width))
    return tuple(names), tuple(rows)


def card_layout(trace: LessonTrace, theme: Theme, box: Box = CARD) -> Card:
    """The title (wrapped to the card, up to TITLE_SCALE of the title size), the subtitle,
    then the sentences in the largest size that fits the rest of the card, all centred."""
    # the lesson's own words: read in their own direction (an Arabic title holding "GPT" from the right)
    title = wrapped_text(own(trace.lesson.title), "title", theme["text"], box.width / TITLE_SCALE)
    title.arrange(DOWN, buff=LABEL_BUFF).scale(min(TITLE_SCALE, box.width / title.width))
    title.move_to(box.top * UP, aligned_edge=UP).set_x(0)
    subtitle = VGroup(label(_(SUBTITLE), "body", theme["accent"])).next_to(title, DOWN, buff=MED_LARGE_BUFF)
    room = subtitle.get_bottom()[1] - LARGE_BUFF - box.bottom
    for size in TOKEN_SIZES:
        names, rows = sentence_block(trace, theme, size, box.width)
        stack = VGroup(*(VGroup(n, r).arrange(DOWN, buff=LABEL_BUFF) for n, r in zip(names, rows, strict=True)))
        stack.arrange(DOWN, buff=GROUP_BUFF)
        if stack.height <= room:
            break
    if stack.height > room:
        stack.scale(room / stack.height)
    stack.next_to(subtitle, DOWN, buff=LARGE_BUFF).set_x(0)
    VGroup(title, subtitle, stack).set_y(box.centre_y)  # the whole card centred in the frame
    return Card(title, subtitle, names, rows)


class TitleCard(LessonScene):
    TITLE = ""
    SECTIONS = ((N_("Title"), "title_card"),)

    def add_header(self) -> None:
        """The card has no header: no pipeline marker, no formula."""

    def title_card(self) -> None:
        ctxs = self.trace.contexts
        focus = list(dict.fromkeys(c.focus for c in ctxs))
        sentences = quoted([c.context.sentence for c in ctxs])
        # Whole sentences, the count in words: no digit the card does not show.
        opening = (
            _(
                "{title}. A lecture on self-attention, step by step. We follow {focus} through one sentence: "
                "{sentences}."
            ),
            _(
                "{title}. A lecture on self-attention, step by step. We follow {focus} through two sentences: "
                "{sentences}."
            ),
            _(
                "{title}. A lecture on self-attention, step by step. We follow {focus} through three sentences: "
                "{sentences}."
            ),
        )[len(ctxs) - 1]
        self.narrate(opening.format(title=self.lesson.title, focus=quoted(focus), sentences=sentences))

        lay = card_layout(self.trace, self.theme)
        self.play(Write(lay.title), run_time=TIME.write)
        self.play(FadeIn(lay.subtitle, shift=DOWN * DRIFT), run_time=TIME.fade)
        self.play(
            *(
                FadeIn(VGroup(n, s), shift=UP * DRIFT, lag_ratio=LAG.item)
                for n, s in zip(lay.names, lay.sentences, strict=True)
            ),
            run_time=TIME.fade,
        )
        self.hold()
