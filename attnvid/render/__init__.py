"""Rendering: from the lecture's scenes to one video (or folder of frames) per scene.

- what to render: job planning (:mod:`~attnvid.render.jobs`), each job's cache key
  (:mod:`~attnvid.render.cache`), the longest scene first (:mod:`~attnvid.render.schedule`);
- how a scene renders: Manim's settings and x264's options (:mod:`~attnvid.render.settings`),
  the camera that draws (:mod:`~attnvid.render.camera`) and the encoder that writes
  (:mod:`~attnvid.render.encoder`) inside each render process;
- where it renders: the engine (:mod:`~attnvid.render.engine`) and its worker processes
  (:mod:`~attnvid.render.workers`), or a Dask cluster (:mod:`~attnvid.render.cluster`),
  with a progress display (:mod:`~attnvid.render.progress`);
- frames without video (:mod:`~attnvid.render.frames`), and the runtime checks a render
  needs to pass first (:mod:`~attnvid.render.runtime`, ``attnvid doctor``).

Rendering may use speech (a scene's narration sets its length) but never what publishes
the videos (:mod:`attnvid.publish`) nor the commands. This file imports nothing:
``render.settings`` and ``render.encoder`` run inside every render, and the cache key
covers them.
"""
