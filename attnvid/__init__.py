"""attnvid: the application that turns the ``scenes`` into lecture videos.

A package by stage, one room each (the rule below is checked by ``tests/test_imports.py``):

- :mod:`attnvid.speech`: who speaks a section's narration (voices) and its captions;
- :mod:`attnvid.render`: job planning, the cache key, Manim's settings, the render engine,
  its worker processes or a Dask cluster, frames without video, the runtime checks;
- :mod:`attnvid.publish`: the lecture folder (assembly, section clips, deck, handout,
  offline page) and the companion workbook;
- the command line: :mod:`attnvid.cli` (the click group) and one module per command
  under :mod:`attnvid.commands`;
- here, the helpers the rooms share, named by concept: environment-variable names
  (:mod:`~attnvid.env`), errors, signals, paths, atomic outputs and the output lock
  (:mod:`~attnvid.outputs`), the lesson a command works on (:mod:`~attnvid.lessons`),
  shared command-line options (:mod:`~attnvid.options`), the scene catalogue
  (:mod:`~attnvid.catalog`).

The rule: the scenes may use speech (and :mod:`~attnvid.env`), never rendering,
publishing or the commands; speech uses none of the other rooms, rendering uses speech
but not publishing, publishing uses rendering and speech, the commands use them all.

Importing this package, or :mod:`attnvid.speech` and its modules, imports no manim and
no scenes, so that ``scenes`` can import them without an import cycle; a test proves it.
"""
