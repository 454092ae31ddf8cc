"""Reusable, typed mobject builders that every scene composes, one module per concept.

- :mod:`~scenes.components.text`: ``LightText``, ``label``, baselines, ``Provenance``,
  captions in words;
- :mod:`~scenes.components.numbers`: ``Source``, ``resolve``, ``Num``, ``ShapeLabel``;
- :mod:`~scenes.components.grids`: ``NumberGrid``, ``Tiles``, ``column_labels``;
- :mod:`~scenes.components.matrices`: ``trace_grid``, ``matrix_grid``, heat maps, word
  matrices, ``fit_numbers``/``fit_row``;
- :mod:`~scenes.components.bars`: ``VectorBars``, ``WeightBars``, ``readable_numbers``;
- :mod:`~scenes.components.charts`: ``LossCurve`` (a loss over training steps, on Manim's ``Axes``);
- :mod:`~scenes.components.equations`: ``MatrixBlock``, ``arrange_equation``, operators;
- :mod:`~scenes.components.placement`: ``stagger_levels``, ``stagger_names``, collisions;
- :mod:`~scenes.components.tokens`: ``TokenRow`` and its wrapping and tinting;
- :mod:`~scenes.components.typeset`: ``Formula`` (maths typeset by Typst; ``label`` typesets a label with a root);
- :mod:`~scenes.components.header`: ``PipelineMarker`` (and ``Formula``, re-exported);
- :mod:`~scenes.components.masks`: ``MaskedCell`` ("−∞"), ``MaskOver``, ``mask_edge``, ``lift_entries``;
- :mod:`~scenes.components.comparisons`: ``CompareRow``, ``compare_rows``, ``cell_outline``, ``row_outline``;
- :mod:`~scenes.components.definitions`: ``Definition``, ``POSITIONAL_ENCODING``;
- :mod:`~scenes.components.inbox`: ``at_top``, ``below``, ``centre_in`` (placing in a layout ``Box``);
- :mod:`~scenes.components.wording`: ``listed``, ``quoted``, ``which_sentence`` (words for narration);
- :mod:`~scenes.components.sizing`: ``cell_height``, ``row_labels_width``, ``operators_width`` (a row of matrices);
- :mod:`~scenes.components.pictures`: ``Picture``, ``picture`` (a matrix as named tiles);
- :mod:`~scenes.components.copying`: a mobject's deep copy, Manim's own made faster (``Mobject.__deepcopy__`` from the
  moment ``scenes.components`` is imported);
- :mod:`~scenes.components.subpaths`: where a path's curves meet, Manim's own answer without a NumPy call per curve
  (``VMobject.get_subpaths_from_points`` and ``consider_points_equals``, from the same moment);
- :mod:`~scenes.components.family`: a mobject's family, Manim's own list without a generator per member
  (``Mobject.get_family``, from the same moment);
- :mod:`~scenes.components.bounds`: a mobject's bounding box, Manim's own points gathered by NumPy
  (``VMobject.get_points_defining_boundary`` and ``Mobject.reduce_across_dimension``, from the same moment);
- :mod:`~scenes.components.updating`: a mobject's update, skipped while no updater exists in the process
  (``Mobject.update`` and ``Mobject.add_updater``, from the same moment);
- :mod:`~scenes.components.transforming`: a transform's frame, Manim's own values for all its submobjects
  at once (``Transform.interpolate_mobject``, from the same moment).

Everything Manim already has (Text, Rectangle, Arrow, SurroundingRectangle, animations)
is Manim's own.

**What a lecturer may import** (a scene of their own, see ``docs/api/``) is ``__all__``
below, and only that: the numbers and where they come from (``Source``, ``Num``,
``resolve``), matrices from a trace path (``trace_grid``), bars (``VectorBars``,
``WeightBars``), equations (``MatrixBlock``, ``named_block``, ``arrange_equation``,
``operator``), tokens (``TokenRow``), text and maths (``label``, ``Formula``), the content
box and the named gaps (``Box``, ``CONTENT``, ``TINY_BUFF`` ... ``GROUP_BUFF``, ``DRIFT``, from
:mod:`scenes.layout`) and the theme (``Theme``, from :mod:`scenes.theme`). Each has a docstring
with a small scene as its example, rendered into the docs by Manim's ``manim`` directive.
Every other name imported here is shared by the built-in scenes and may change without notice
(mypy's ``implicit_reexport`` for this module, ruff's F401 ignored here, say so in pyproject).
"""

from __future__ import annotations

# -- the room and the colours, re-exported for a lecturer's scene ---------------------------------
from ..layout import CONTENT, DRIFT, GROUP_BUFF, ITEM_BUFF, LABEL_BUFF, TINY_BUFF, Box
from ..theme import Theme
from .bars import (
    VectorBars,
    WeightBars,
    bar_names,
    bar_word_angle,
    bar_words_depth,
    grow_bars,
    names_pitch,
    readable_numbers,
)
from .bounds import get_points_defining_boundary, reduce_across_dimension
from .charts import LossCurve
from .comparisons import (
    ROW_OUTLINE_BUFF,
    CompareRow,
    cell_outline,
    compare_rows,
    labelled_row_outline,
    row_outline,
)
from .copying import IMMUTABLE, deepcopy_mobject
from .definitions import POSITIONAL_ENCODING, Definition
from .equations import (
    EQ_BUFF,
    MatrixBlock,
    arrange_equation,
    arrow,
    named_block,
    operator,
    place_after,
    row_transfer,
)
from .family import get_family
from .grids import (
    COMPACT_SIZES,
    LABEL_LINE_STEP,
    PREFERRED_STYLES,
    CellGrid,
    ColumnStyle,
    Grid,
    NumberGrid,
    TileFill,
    Tiles,
    axis_titles,
    column_labels,
    column_labels_height,
    column_labels_on_one_line,
    fit_cells,
    label_width,
    one_line_cell_width,
    one_line_header,
    text_size,
    turned_reach,
)
from .header import PIPELINE, Formula, PipelineMarker
from .inbox import at_top, below, centre_in
from .masks import MaskedCell, MaskOver, lift_entries, mask_edge
from .matrices import (
    CellFit,
    HeatLegend,
    RowFit,
    fit_numbers,
    fit_row,
    fit_token_cells,
    heat_fill,
    heat_grid,
    ink_on_heat,
    matrix_grid,
    role_fill,
    strip,
    token_header_room,
    token_matrix,
    trace_grid,
)
from .numbers import (
    APPROX,
    EXP_ROW,
    EXTRA_DECIMALS,
    Num,
    ShapeLabel,
    Source,
    exp_row_marked,
    exp_row_name,
    number_cell_width,
    resolve,
    row_total,
    softmax_row_decimals,
)
from .pictures import PICTURE_H, Picture, picture
from .placement import (
    STAGGER_GAP,
    boxes_touch,
    edge_through,
    ink_corners,
    keep_inside,
    stagger_levels,
    stagger_names,
)
from .sizing import (
    BLOCK_LABELS_H,
    CELL_H_MAX,
    CELL_H_MIN,
    TITLE_RISE,
    WIDEN,
    cell_height,
    operators_width,
    readable_cell_width,
    readable_scale,
    row_labels_width,
)
from .subpaths import points_equal, subpaths_from_points
from .text import (
    ORDINALS,
    LightText,
    Provenance,
    cap_centre,
    cap_height,
    centre_on_baseline,
    label,
    label_extent,
    plain_width,
    text_baseline,
    wrapped_text,
)
from .tokens import TokenRow, fitted_token_row, tint_tokens, wrap_token_row
from .transforming import MANIMS_INTERPOLATE_MOBJECT as _MANIMS_INTERPOLATE_MOBJECT  # installs it
from .updating import any_updater
from .wording import EXP_ROW_NOTE, approx_note, listed, quoted, sum_head, which_sentence

#: The public components: what a lecturer's own scene may import (docs/api/components.md).
__all__ = [
    # numbers, and where in the trace each comes from
    "Source", "Num", "resolve",
    # matrices from a trace path
    "trace_grid",
    # bars
    "VectorBars", "WeightBars",
    # equations
    "MatrixBlock", "named_block", "arrange_equation", "operator",
    # tokens
    "TokenRow",
    # text and maths
    "label", "Formula",
    # the content box and the named gaps (scenes.layout)
    "Box", "CONTENT", "TINY_BUFF", "LABEL_BUFF", "ITEM_BUFF", "GROUP_BUFF", "DRIFT",
    # the theme (scenes.theme)
    "Theme",
]
