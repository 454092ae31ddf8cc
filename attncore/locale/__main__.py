"""python -m attncore.locale init CODE | check | compile | update | extract | fragment | merge (--help)."""

import sys

from attncore.catalogues import locale_main

raise SystemExit(locale_main(sys.argv[1:]))
