"""python -m attncore.locale extract | update | compile | check | fragment DIR PREFIX... | merge DIR..."""

import sys

from attncore.i18n import _main

raise SystemExit(_main(sys.argv[1:]))
