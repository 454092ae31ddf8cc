"""Publishing: from the rendered scene videos to the lecture folder a lecturer hands out.

The lecture folder (:mod:`~attnvid.publish.assemble`): one MP4 with chapters and
captions, one per part, section clips cut without re-encoding
(:mod:`~attnvid.publish.clips`), the slides (:mod:`~attnvid.publish.deck`), the handout
(:mod:`~attnvid.publish.handout`), the offline page (:mod:`~attnvid.publish.page`) and
the companion workbook (:mod:`attnvid.publish.workbook`).

Publishing reads what rendering wrote (its jobs and results, its encoder options);
neither rendering nor the scenes import it. This file imports nothing.
"""
