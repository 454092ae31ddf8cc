"""attnvid: the application that turns the ``scenes`` into lecture videos.

A package by stage, one room each (the rule below is checked by ``tests/test_imports.py``);
it stands on :mod:`attnstage` (the settings a render is made with, the speech: voices and
captions), which the scenes stand on too:

- :mod:`attnvid.render`: job planning, the cache key, Manim's settings, the render engine,
  its worker processes or a Dask cluster, frames without video, the runtime checks;
- :mod:`attnvid.publish`: the lecture folder (assembly, section clips, deck, handout,
  offline page) and the companion workbook;
- the command line: :mod:`attnvid.cli` (the click group) and one module per command
  under :mod:`attnvid.commands`;
- here, the helpers the rooms share, named by concept: errors, signals, paths, atomic outputs and the output lock
  (:mod:`~attnvid.outputs`), the lesson a command works on (:mod:`~attnvid.lessons`),
  shared command-line options (:mod:`~attnvid.options`), the scene catalogue
  (:mod:`~attnvid.catalog`, the application's only door to the scenes).

The rule: the scenes never use attnvid; rendering does not use publishing, publishing
uses rendering, the commands use them all.

Importing this package imports no manim and no scenes; a test proves it.
"""
