"""Compiles the gettext catalogues (attncore/locale/*/LC_MESSAGES/attnvid.po) to .mo when the
package is built or installed (pip install ., pip install -e ., a wheel), and builds the one C
extension, :mod:`attnvid.render._trace` (Manim's outlines handed to Cairo in C; it links the Cairo
that pycairo, which Manim builds from source, needs too: ``libcairo2-dev``). Everything else is in
pyproject.toml. The .mo files are never committed: they are made from the .po here."""

from __future__ import annotations

import io
import shlex
import subprocess
from pathlib import Path

from setuptools import Extension, setup
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


def cairo_extension() -> Extension:
    """attnvid.render._trace, compiled against Cairo's headers and library (pkg-config's flags).
    ``-ffp-contract=off``: ``atol + rtol * |x|`` rounded as Python rounds it (no fused multiply-add)."""
    try:
        flags = shlex.split(subprocess.run(["pkg-config", "--cflags", "--libs", "cairo"], capture_output=True,
                                           text=True, check=True).stdout)
    except (OSError, subprocess.CalledProcessError):  # no pkg-config: Debian's place for the headers
        flags = ["-I/usr/include/cairo", "-lcairo"]
    return Extension(
        "attnvid.render._trace",
        ["attnvid/render/_trace.c"],
        include_dirs=[f[2:] for f in flags if f.startswith("-I")],
        library_dirs=[f[2:] for f in flags if f.startswith("-L")],
        libraries=[f[2:] for f in flags if f.startswith("-l")],
        extra_compile_args=["-O2", "-ffp-contract=off"],
    )


if __name__ == "__main__":  # setuptools runs this file as __main__; tests import the class above
    setup(cmdclass={"build_py": BuildWithCatalogues}, ext_modules=[cairo_extension()])
