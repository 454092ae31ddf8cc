"""attnvid: the application that turns the ``scenes`` into lecture videos.

- the command line: :mod:`attnvid.cli` (the click group) and one module per command
  under :mod:`attnvid.commands`;
- rendering: job planning (:mod:`~attnvid.jobs`), the cache key (:mod:`~attnvid.cache`),
  Manim's settings (:mod:`~attnvid.render_settings`), the render engine
  (:mod:`~attnvid.engine`) and its worker processes (:mod:`~attnvid.workers`), atomic
  outputs (:mod:`~attnvid.outputs`), frames without video (:mod:`~attnvid.frames`);
- the lecture folder: :mod:`~attnvid.assemble` and the offline page (:mod:`~attnvid.page`);
- shared helpers named by concept: errors, signals, lessons, options, the scene
  catalogue, runtime checks, paths, progress;
- manim-free modules the scenes use too: environment-variable names
  (:mod:`~attnvid.env`), voices (:mod:`~attnvid.voices`) and captions
  (:mod:`~attnvid.captions`).

Importing this package imports nothing else (no manim, no scenes), so that ``scenes``
can import those manim-free modules without an import cycle; a test proves it.
"""
