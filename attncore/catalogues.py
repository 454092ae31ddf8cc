"""Catalogue upkeep: ``python -m attncore.locale init CODE | check | compile | update | extract |
fragment | merge`` (and ``attnvid locale``), Babel doing the work.

Split from :mod:`attncore.i18n`, which reads the catalogues at run time; this module writes them.
"""

from __future__ import annotations

import io
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .i18n import (
    DOMAIN,
    UnknownLanguage,
    _read,
    catalogue_path,
    cldr_language,
    compile_po,
    english_name,
    forget_catalogues,
    languages,
    locale_dir,
    problems,
    template_path,
)

__all__ = ["extract", "locale_main"]


# -- catalogue upkeep: python -m attncore.locale extract|update|compile ---------------------------

#: What Babel extracts: the packages whose text a viewer sees, and our markers.
EXTRACT_DIRS = ("attncore", "attnstage", "attnvid", "scenes")
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}


def extract() -> Any:
    """The message template (a Babel ``Catalog``) of every marked message in the code."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    root = Path(__file__).resolve().parent.parent
    catalog = Catalog(project=DOMAIN, fuzzy=False)
    for folder in EXTRACT_DIRS:
        for filename, lineno, message, comments, context in extract_from_dir(
                root / folder, method_map=[("**.py", "python")], keywords=KEYWORDS,
                comment_tags=("Translators:",), strip_comment_tags=True):
            catalog.add(message, None, [(f"{folder}/{filename}", lineno)], auto_comments=comments, context=context)
    return catalog


#: The header lines that change at every write (a date), whatever the messages.
_DATES = re.compile(rb'^"(?:POT-Creation-Date|PO-Revision-Date): [^"\n]*\\n"\n', re.M)


def _write(path: Path, catalog: Any) -> bool:
    """Write ``catalog`` to ``path`` (atomically) when its messages or header differ from the file's
    beyond the dates; return whether it was written (an unchanged tree stays untouched)."""
    from babel.messages.pofile import write_po

    out = io.BytesIO()
    write_po(out, catalog, width=0, include_lineno=False, ignore_obsolete=True)
    new = out.getvalue()
    if path.is_file() and _DATES.sub(b"", path.read_bytes()) == _DATES.sub(b"", new):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_bytes(new)
    os.replace(tmp, path)
    return True


_USAGE = """python -m attncore.locale COMMAND  (or: attnvid locale COMMAND)

The gettext catalogues of the lecture's text, in attncore/locale/<code>/LC_MESSAGES/attnvid.po
(or in $ATTNCORE_LOCALE_DIR when set: a copy to work in).

commands:
  init CODE              write the catalogue of a new language (a CLDR code: it, pt, ar...): every
                         message of the template, untranslated, with its translator comment
  check                  for every catalogue found: how many messages it translates, which
                         placeholders or plural forms are wrong (status 1 when one is incomplete or wrong)
  compile                .po -> .mo for every catalogue found (what installing the package does)
  update                 extract the template from the code and bring every catalogue up to it
                         (new messages empty, gone ones dropped); writes only what changed
  extract                write the template (attnvid.pot) only
  fragment DIR PREFIX... write DIR/<code>.po with the template's messages from files under the
                         PREFIXes (keeping translations already in DIR or the catalogue), for a translator
  merge DIR...           copy the filled translations of fragments into the catalogues

A lesson may also carry its own catalogue beside it, <lesson stem>.<code>.po, read as it is.
"""


def locale_main(argv: list[str]) -> int:
    """``python -m attncore.locale`` (and ``attnvid locale``): see :data:`_USAGE`; the exit status."""
    what, rest = (argv[0], argv[1:]) if argv else ("", [])
    commands: dict[str, Callable[[list[str]], int]] = {
        "init": _cmd_init, "extract": _cmd_extract, "update": _cmd_update, "compile": _cmd_compile,
        "check": _cmd_check, "fragment": _cmd_fragment, "merge": _cmd_merge}
    if what in ("-h", "--help", "help"):
        print(_USAGE, end="")
        return 0
    if what not in commands:
        print(f"attncore.locale: error: {'no command' if not what else f'no command {what!r}'}; "
              f"give one of {', '.join(commands)} (--help says what each does)", file=sys.stderr)
        return 2
    return commands[what](rest)


def _catalogue(lang: str) -> Any:
    from babel.messages.catalog import Catalog

    path = catalogue_path(lang)
    return _read(path, lang) if path.exists() else Catalog(locale=lang, project=DOMAIN)


def _cmd_init(rest: list[str]) -> int:
    """Write the catalogue of a language not there yet: every message of the template
    (``attnvid.pot``), untranslated, with its translator comment and CLDR's plural rule."""
    from babel.messages.catalog import Catalog

    if len(rest) != 1 or rest[0].startswith("-"):
        print("attncore.locale: error: init takes one language code, e.g. init it", file=sys.stderr)
        return 2
    try:
        lang = cldr_language(rest[0])
    except UnknownLanguage as exc:
        print(f"attncore.locale: error: {exc}; give a CLDR code such as it, pt, pl or ar", file=sys.stderr)
        return 2
    path = catalogue_path(lang)
    if lang == "en" or path.exists():
        why = "English is the code's own language" if lang == "en" else f"{path} exists"
        print(f"attncore.locale: error: {why}; update brings an existing catalogue up to the template",
              file=sys.stderr)
        return 2
    template = _read(template_path())
    cat = Catalog(locale=lang, project=DOMAIN, fuzzy=False)
    for m in template:
        if m.id:
            cat.add(m.id, ("",) * cat.num_plurals if isinstance(m.id, tuple) else "", m.locations,
                    auto_comments=m.auto_comments, context=m.context)
    _write(path, cat)
    print(f"{path}: {len([m for m in cat if m.id])} messages to translate ({english_name(lang)}, "
          f"{cat.num_plurals} plural form{'s' if cat.num_plurals != 1 else ''}: {cat.plural_expr})")
    return 0


def _cmd_extract(rest: list[str]) -> int:
    _write_template(extract())
    return 0


def _write_template(template: Any) -> None:
    pot = locale_dir() / f"{DOMAIN}.pot"
    written = _write(pot, template)
    print(f"{pot}: {len(template)} messages{'' if written else ', unchanged'}")


def _cmd_update(rest: list[str]) -> int:
    template = extract()
    _write_template(template)
    for lang in languages()[1:]:
        cat = _catalogue(lang)
        cat.update(template, no_fuzzy_matching=True)
        written = _write(catalogue_path(lang), cat)
        print(f"{catalogue_path(lang)}: {len(cat)} messages, {len(problems(cat, template))} problems"
              f"{'' if written else ', unchanged'}")
    return 0


#: A problem :func:`problems` reports that ``check`` counts rather than lists.
_UNDONE = re.compile(r"^[^:]+: (missing|fuzzy|untranslated): ")


def _cmd_check(rest: list[str]) -> int:
    template = extract()
    total = len([m for m in template if m.id])
    bad = False
    for lang in languages()[1:]:
        po = catalogue_path(lang)
        if not po.is_file():
            print(f"{lang}: compiled only ({po.with_suffix('.mo')}), no .po to check")
            continue
        cat = _read(po, lang)
        found = problems(cat, template)
        wrong = [p for p in found if not _UNDONE.match(p)]
        done = total - (len(found) - len(wrong))
        print(f"{lang} ({english_name(lang)}): {done} of {total} messages translated"
              + (f", {len(wrong)} wrong" if wrong else ""))
        for line in wrong:
            print(f"  {line}")
        bad = bad or bool(found)
    if not bad:
        print("every catalogue complete")
    return 1 if bad else 0


def _cmd_fragment(rest: list[str]) -> int:
    from babel.messages.catalog import Catalog

    if len(rest) < 2:
        print("fragment needs a folder and at least one path prefix", file=sys.stderr)
        return 2
    template = extract()
    out, prefixes = Path(rest[0]), rest[1:]
    for lang in languages()[1:]:
        path = out / f"{lang}.po"
        old = [c for c in (_read(path, lang) if path.exists() else None, _catalogue(lang)) if c]
        frag = Catalog(locale=lang, project=DOMAIN)
        for m in template:
            if m.id and any(loc.startswith(p) for loc, _line in m.locations for p in prefixes):
                known = next((k for c in old for k in [c.get(m.id, context=m.context)] if k is not None and k.string),
                             None)
                frag.add(m.id, known.string if known else ("", "") if isinstance(m.id, tuple) else "",
                         m.locations, auto_comments=m.auto_comments, context=m.context)
        _write(path, frag)
        print(f"{path}: {len(frag)} messages")
    return 0


def _cmd_merge(rest: list[str]) -> int:
    for lang in languages()[1:]:
        cat = _catalogue(lang)
        for folder in rest:
            frag_path = Path(folder) / f"{lang}.po"
            if frag_path.exists():
                for m in _read(frag_path, lang):
                    if m.id and (all(m.string) if isinstance(m.string, tuple) else m.string):
                        cat.delete(m.id, context=m.context)
                        cat.add(m.id, m.string, m.locations, auto_comments=m.auto_comments, context=m.context)
        _write(catalogue_path(lang), cat)
        print(f"{catalogue_path(lang)}: {len(cat)} messages")
    return 0


def _cmd_compile(rest: list[str]) -> int:
    for lang in languages()[1:]:
        po = catalogue_path(lang)
        if po.exists():
            tmp = po.with_suffix(".mo.tmp")
            tmp.write_bytes(compile_po(po, lang))
            os.replace(tmp, po.with_suffix(".mo"))
            print(po.with_suffix(".mo"))
    forget_catalogues()
    return 0


_main = locale_main

if __name__ == "__main__":
    raise SystemExit(locale_main(sys.argv[1:]))
