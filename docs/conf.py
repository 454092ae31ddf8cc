"""Sphinx configuration of attnvid's documentation (built by ``bash .ci/setup --docs``).

Offline: furo's theme, MyST for the Markdown pages, sphinx-click for the command
reference (generated from the click group, never typed twice), Graphviz for the picture
of the house (drawn from the code at build time, ``_ext/house.py``) and Manim's own
``manim`` directive for the components' examples (rendered at build time).
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path[:0] = [str(ROOT), str(DOCS / "_ext")]

project = "attnvid"
author = "attnvid's authors"
copyright = "attnvid's authors, MIT licence"

extensions = [
    "myst_parser",
    "sphinx_click",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.graphviz",
    "manim.utils.docbuild.manim_directive",
    "house",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "media", "Thumbs.db", ".DS_Store", "**/README.md"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3  # a heading's anchor is its slug, as GitHub makes it
suppress_warnings: list[str] = []
# Quotes and ellipses only: "--quality" in the click help stays two hyphens, not a dash.
smartquotes_action = "qe"

html_theme = "furo"
html_title = "attnvid"
html_static_path = ["_static"]
html_css_files = ["attnvid.css"]
html_copy_source = False
html_show_sourcelink = False
html_last_updated_fmt = None

autodoc_member_order = "bysource"
autodoc_typehints = "description"
napoleon_numpy_docstring = True
napoleon_google_docstring = False

graphviz_output_format = "svg"
graphviz_dot_args = ["-Gfontname=DejaVu Sans", "-Nfontname=DejaVu Sans", "-Efontname=DejaVu Sans"]
