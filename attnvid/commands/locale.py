"""``attnvid locale``: the catalogues of the lecture's text, as ``python -m attncore.locale``.

A lecturer adds a language with ``attnvid locale init it``, translates
``attncore/locale/it/LC_MESSAGES/attnvid.po``, sees how far it is with ``check`` and builds
it with ``compile``. Every subcommand runs :func:`attncore.catalogues.locale_main`, the one
implementation (attncore has no click), and exits with its status.
"""

from __future__ import annotations

import click

from attncore.catalogues import locale_main


def _run(*argv: str) -> None:
    code = locale_main(list(argv))
    if code:
        raise SystemExit(code)


@click.group()
def locale() -> None:
    """The catalogues of the lecture's text: add a language, check, compile, update."""


@locale.command()
@click.argument("code")
def init(code: str) -> None:
    """Write the catalogue of language CODE (it, pt, ar...): every message, untranslated, with its translator
    comment."""
    _run("init", code)


@locale.command()
def check() -> None:
    """For every catalogue: how many messages it translates, which placeholders are wrong (status 1 if any is short)."""
    _run("check")


@locale.command(name="compile")
def compile_() -> None:
    """.po -> .mo for every catalogue found."""
    _run("compile")


@locale.command()
def update() -> None:
    """Extract the messages from the code and bring every catalogue up to them (writes only what changed)."""
    _run("update")


@locale.command()
def extract() -> None:
    """Write the message template (attnvid.pot) from the code only."""
    _run("extract")


@locale.command()
@click.argument("folder", type=click.Path(file_okay=False))
@click.argument("prefixes", nargs=-1, required=True)
def fragment(folder: str, prefixes: tuple[str, ...]) -> None:
    """Write FOLDER/<code>.po with the messages of files under PREFIXES, for a translator to fill."""
    _run("fragment", folder, *prefixes)


@locale.command()
@click.argument("folders", nargs=-1, required=True, type=click.Path(file_okay=False))
def merge(folders: tuple[str, ...]) -> None:
    """Copy the filled translations of fragments in FOLDERS into the catalogues."""
    _run("merge", *folders)
