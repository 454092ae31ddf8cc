"""Compiles the gettext catalogues (attncore/locale/*/LC_MESSAGES/attnvid.po) to .mo when the
package is built or installed (pip install ., pip install -e ., a wheel); everything else
is in pyproject.toml. The .mo files are never committed: they are made from the .po here."""

from __future__ import annotations

import io
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithCatalogues(build_py):
    def run(self) -> None:
        super().run()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        root = Path(__file__).resolve().parent
        for po in sorted((root / "attncore" / "locale").glob("*/LC_MESSAGES/*.po")):
            with po.open("rb") as f:
                catalog = read_po(f)
            out = io.BytesIO()
            write_mo(out, catalog)
            rel = po.relative_to(root).with_suffix(".mo")
            # an editable install reads the package from the source tree: the .mo goes beside its .po
            targets = [root / rel] if getattr(self, "editable_mode", False) else [Path(self.build_lib) / rel]
            for target in targets:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(out.getvalue())


if __name__ == "__main__":  # setuptools runs this file as __main__; tests import the class above
    setup(cmdclass={"build_py": BuildWithCatalogues})
