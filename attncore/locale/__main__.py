"""python -m attncore.locale init CODE | check | compile | update | extract | fragment | merge (--help)."""

import sys

from attncore.i18n import locale_main

raise SystemExit(locale_main(sys.argv[1:]))
