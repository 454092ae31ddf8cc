"""``python -m attnvid``: the same command as the ``attnvid`` console script."""

from attnvid.cli import main

main()
