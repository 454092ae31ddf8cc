"""Speech: who says a section's narration (:mod:`~attnstage.speech.voices`) and the
captions that show it (:mod:`~attnstage.speech.captions`).

The scenes import these modules to time their sections by the words, so this package
imports nothing but :mod:`attncore` and the standard library: no manim, no scenes, none
of rendering, publishing or the commands (a test checks the import graph). This file
imports nothing at all.
"""
