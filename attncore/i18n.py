"""The viewer's language: gettext catalogues, and numbers as the language writes them.

Everything a viewer sees or hears (scene text, captions, narration, chapters, the deck,
the handout, the page, the workbook's labels) is written in English in the code, marked
for translation, and translated when it is made, into the *current* language:

``_("Softmax")``
    the translation of a message in the current language (English when it has none);
``N_("Softmax")``
    marks a constant for extraction without translating it (translate it with ``_`` where
    it is used: module constants are made before any language is chosen);
``ngettext("{n} word", "{n} words", n)``
    a message whose form follows a count (each language's own plural rule);
``pgettext("matrix", "sum")``
    a short message that needs a context to be translated right.

Placeholders are named and filled with ``str.format`` *after* translation
(``_("{word} looks at itself").format(word=...)``), so a translation may put them in the
order its language needs; a test checks that every translation keeps the same ones.

The current language is a context variable: :func:`use` sets it for a block, and
:func:`set_language` for the rest of the thread (a scene sets its lesson's language when
it is made). Messages to the author (errors, ``doctor``, warnings) are never marked: they
stay English.

Catalogues are gettext's: ``attncore/locale/<language>/LC_MESSAGES/attnvid.po``, message
ids extracted from the code with Babel (``python -m attncore.locale extract``), compiled
to ``.mo`` when the package is built or installed (``setup.py``). A ``.po`` newer than
its ``.mo`` (a translator's edit not yet installed) is read directly, through Babel.

Numbers: :func:`number` writes a number :func:`attncore.display.fmt` rounded in the
language's decimal sign and digit grouping, from Babel's locale data (CLDR); the rounding
stays ours (half away from zero), only the symbols change.
"""

from __future__ import annotations

import contextvars
import gettext as _gettext
import io
import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

__all__ = [
    "DOMAIN", "LANGUAGES", "LOCALE_DIR", "N_", "_", "catalogue_path", "language", "list_of", "ngettext",
    "number", "pgettext", "fields", "problems", "quoted", "set_language", "translations", "use", "viewer_language",
]

DOMAIN = "attnvid"
LOCALE_DIR = Path(__file__).with_name("locale")
#: The languages the lecture is written in: English (the code's own) and each catalogue shipped.
LANGUAGES: tuple[str, ...] = ("en", "fr", "de", "es", "zh")
#: A language's name in itself, as a lecturer picks it.
NAMES = {"en": "English", "fr": "français", "de": "Deutsch", "es": "español", "zh": "中文"}
#: Its name in English (messages to the author stay English).
ENGLISH_NAMES = {"en": "English", "fr": "French", "de": "German", "es": "Spanish", "zh": "Chinese"}

_current: contextvars.ContextVar[str] = contextvars.ContextVar("attnvid_language", default="en")


def viewer_language(code: str | None) -> str:
    """The shipped language a lesson's ``language`` (an espeak-ng code such as ``fr``,
    ``de-ch`` or ``cmn``) is shown in: its first part when shipped, else English.

    >>> viewer_language("fr"), viewer_language("de-ch"), viewer_language("cmn"), viewer_language("it")
    ('fr', 'de', 'zh', 'en')
    """
    base = (code or "en").lower().split("-")[0].split("_")[0]
    base = {"cmn": "zh", "yue": "zh"}.get(base, base)
    return base if base in LANGUAGES else "en"


def language() -> str:
    """The current viewer language (a code of :data:`LANGUAGES`)."""
    return _current.get()


def set_language(code: str | None) -> str:
    """Make ``code`` (see :func:`viewer_language`) the current language of this thread; return it."""
    lang = viewer_language(code)
    _current.set(lang)
    return lang


@contextmanager
def use(code: str | None) -> Iterator[str]:
    """The block is written in ``code`` (see :func:`viewer_language`)."""
    token = _current.set(viewer_language(code))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def catalogue_path(lang: str, suffix: str = ".po") -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


@cache
def translations(lang: str) -> _gettext.NullTranslations:
    """The catalogue of ``lang``: its compiled ``.mo``, or its ``.po`` when that is newer
    (or the ``.mo`` is missing); English and a language without one translate nothing."""
    if lang == "en":
        return _gettext.NullTranslations()
    po, mo = catalogue_path(lang), catalogue_path(lang, ".mo")
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as f:
            return _gettext.GNUTranslations(f)
    if not po.exists():
        return _gettext.NullTranslations()
    return _gettext.GNUTranslations(io.BytesIO(compile_po(po)))


def compile_po(po: Path) -> bytes:
    """The ``.mo`` bytes of a ``.po`` file (Babel's reader and writer; fuzzy entries left out)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalog = read_po(f)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


#: ``ATTNVID_PSEUDO=1``: every translated message is shown in ⟦brackets⟧, so that a frame shows
#: at a glance which of its texts were never marked for translation (an author's aid).
PSEUDO = os.environ.get("ATTNVID_PSEUDO", "") == "1"


def _pseudo(text: str) -> str:
    return f"⟦{text}⟧" if PSEUDO else text


def _(message: str) -> str:
    """``message`` in the current language."""
    lang = _current.get()
    return _pseudo(message if lang == "en" else translations(lang).gettext(message))


def N_(message: str) -> str:
    """Mark ``message`` for extraction; translate it where it is used."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the count ``n``, in the current language."""
    lang = _current.get()
    if lang == "en":
        return _pseudo(singular if n == 1 else plural)
    return _pseudo(translations(lang).ngettext(singular, plural, n))


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, where ``context`` tells what it is."""
    lang = _current.get()
    return _pseudo(message if lang == "en" else translations(lang).pgettext(context, message))


# -- numbers and words ------------------------------------------------------------------------


@cache
def _symbols(lang: str) -> tuple[str, str]:
    from babel.numbers import get_decimal_symbol, get_group_symbol

    return get_decimal_symbol(lang), get_group_symbol(lang)


_PLAIN = re.compile(r"(?P<sign>[+\u2212-]?)(?P<int>\d+)(?:\.(?P<frac>\d+))?")


def number(plain: str, lang: str | None = None) -> str:
    """A number written ``[sign]digits[.digits]`` (as :func:`attncore.display.fmt` rounds it)
    in the language's decimal sign and digit grouping (Babel's CLDR data). Anything else is
    returned as it is.

    >>> number("0.26", "fr"), number("\u22121234.50", "de"), number("12345.6", "fr"), number("0.26", "zh")
    ('0,26', '\u22121.234,50', '12\u202f345,6', '0.26')
    """
    lang = lang or _current.get()
    if lang == "en":
        return plain
    m = _PLAIN.fullmatch(plain)
    if m is None:
        return plain
    decimal_sign, _group = _symbols(lang)
    frac = m["frac"]
    digits = m["int"]
    if len(digits) > 3:
        from babel.numbers import format_decimal

        # grouping only: the integer part is exact, Babel does not round it
        digits = format_decimal(Decimal(digits), locale=lang)
    return m["sign"] + digits + ((decimal_sign + frac) if frac is not None else "")


#: Where a line may break: ordinary white space, not a no-break space (French sets one inside
#: « » and before : ; ? !, which must not start a line). ``str.split()`` breaks at both.
_BREAK = re.compile(r"[ \t\r\n]+")


def breakable_words(text: str) -> list[str]:
    """``text``'s words, split where a line may break (a no-break space holds).

    >>> breakable_words("phrases\u00a0: «\u00a0chat\u00a0»  et")
    ['phrases\xa0:', '«\xa0chat\xa0»', 'et']
    """
    return [w for w in _BREAK.split(text) if w]


#: A full stop a template adds after text that already ends a sentence: "?." "!." "…." "..",
#: and the same in CJK ("？。"); a "..." ellipsis is left alone.
_DOUBLED_STOP = re.compile(r"(?<=[?!…？！。])[.。]|(?<=[^.][.])[.](?![.])")


def tidy_punctuation(text: str) -> str:
    """``text`` without the full stop a template adds after a sentence that already ends, the one
    place narration and captions pass through (a title "Pesca: frutto o sport?" followed by
    "{title}. A lecture on …").

    >>> tidy_punctuation("Pesca: frutto o sport?. A lecture. Wait... Done..")
    'Pesca: frutto o sport? A lecture. Wait... Done.'
    >>> tidy_punctuation("苹果：水果还是手机？。")
    '苹果：水果还是手机？'
    """
    return _DOUBLED_STOP.sub("", text)


def quoted(word: str) -> str:
    """``word`` in the quotation marks of the current language (“cat”, « chat », „Katze“)."""
    # Translators: the quotation marks around a word of the lesson; keep {word}.
    return _("“{word}”").format(word=word)


def list_of(items: list[str] | tuple[str, ...]) -> str:
    """Items joined as the current language lists them ("a, b and c"; Babel's CLDR patterns).

    >>> with use("fr"):
    ...     list_of(["a", "b", "c"])
    'a, b et c'
    """
    from babel.lists import format_list

    items = list(items)
    if not items:
        return ""
    lang = _current.get()
    if lang == "en":  # the lecture's English has no serial comma
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
    return format_list(items, locale=lang)


# -- catalogue upkeep: python -m attncore.locale extract|update|compile ---------------------------

#: What Babel extracts: the packages whose text a viewer sees, and our markers.
EXTRACT_DIRS = ("attncore", "attnvid", "scenes")
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


_FIELD = re.compile(r"(?<!\{)\{([^{}]*)\}(?!\})")


def fields(text: str) -> list[str]:
    """The placeholders of a message, sorted (``{word}`` and ``{n}``; ``{{`` is a brace).

    >>> fields("{word} looks at {other}, {{not}} {n:.2f}")
    ['n:.2f', 'other', 'word']
    """
    return sorted(_FIELD.findall(text))


def problems(catalog: Any, template: Any) -> list[str]:
    """What is wrong with a language's catalogue against the template: a message missing or
    untranslated (or fuzzy), a translation whose placeholders are not the message's, a
    plural message without every form of the language. One line each."""
    from babel.messages.catalog import Catalog

    assert isinstance(catalog, Catalog) and isinstance(template, Catalog)
    out = []
    for m in template:
        if not m.id:
            continue
        t = catalog.get(m.id, context=m.context)
        ident = m.id[0] if isinstance(m.id, tuple) else m.id
        if t is None or t.fuzzy:
            out.append(f"{catalog.locale}: {'fuzzy' if t is not None else 'missing'}: {ident!r}")
            continue
        ids: tuple[str, ...] = tuple(m.id) if isinstance(m.id, (tuple, list)) else (str(m.id),)
        strings: tuple[str, ...] = tuple(t.string) if isinstance(t.string, (tuple, list)) else (str(t.string or ""),)
        if isinstance(m.id, tuple) and len(strings) != catalog.num_plurals:
            out.append(f"{catalog.locale}: {len(strings)} plural forms, the language has {catalog.num_plurals}: {ident!r}")
        if not all(strings):
            out.append(f"{catalog.locale}: untranslated: {ident!r}")
            continue
        want = set(fields(ids[-1])) | set(fields(ids[0]))
        for s in strings:
            got = set(fields(s))
            # a plural form may leave the count out ("un mot") but never add or rename one
            if not (got <= want and set(fields(ids[-1])) - {"n"} <= got | {"n"}):
                out.append(f"{catalog.locale}: placeholders {sorted(got)} instead of {sorted(want)}: {ident!r} -> {s!r}")
    return out


def _read(path: Path, lang: str | None = None) -> Any:
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        return read_po(f, locale=lang)


def _write(path: Path, catalog: Any) -> None:
    from babel.messages.pofile import write_po

    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    with tmp.open("wb") as f:
        write_po(f, catalog, width=0, include_lineno=False, ignore_obsolete=True)
    os.replace(tmp, path)


def _main(argv: list[str]) -> int:
    """python -m attncore.locale extract | update | compile | check | fragment DIR PREFIX... | merge DIR...

    extract: write the template (locale/attnvid.pot); update: also bring every language's .po
    up to the template (new messages empty, gone ones dropped); compile: .po -> .mo; check: list
    every problem of every catalogue; fragment DIR PREFIX...: write DIR/<lang>.po with the
    template's messages from files under the PREFIXes (keeping translations already in DIR or
    in the catalogue), for a translator to fill; merge DIR...: copy the filled translations of
    fragments into the catalogues."""
    what, rest = (argv[0], argv[1:]) if argv else ("", [])
    commands: dict[str, Callable[[list[str]], int]] = {
        "extract": _cmd_extract, "update": _cmd_update, "compile": _cmd_compile, "check": _cmd_check,
        "fragment": _cmd_fragment, "merge": _cmd_merge}
    if what not in commands:
        print(_main.__doc__, file=sys.stderr)
        return 2
    return commands[what](rest)


def _catalogue(lang: str) -> Any:
    from babel.messages.catalog import Catalog

    path = catalogue_path(lang)
    return _read(path, lang) if path.exists() else Catalog(locale=lang, project=DOMAIN)


def _cmd_extract(rest: list[str]) -> int:
    _write_template(extract())
    return 0


def _write_template(template: Any) -> None:
    pot = LOCALE_DIR / f"{DOMAIN}.pot"
    _write(pot, template)
    print(f"{pot}: {len(template)} messages")


def _cmd_update(rest: list[str]) -> int:
    template = extract()
    _write_template(template)
    for lang in LANGUAGES[1:]:
        cat = _catalogue(lang)
        cat.update(template, no_fuzzy_matching=True)
        _write(catalogue_path(lang), cat)
        print(f"{catalogue_path(lang)}: {len(cat)} messages, {len(problems(cat, template))} problems")
    return 0


def _cmd_check(rest: list[str]) -> int:
    template = extract()
    found = [p for lang in LANGUAGES[1:] for p in problems(_read(catalogue_path(lang), lang), template)]
    print("\n".join(found) or "every catalogue complete")
    return 1 if found else 0


def _cmd_fragment(rest: list[str]) -> int:
    from babel.messages.catalog import Catalog

    if len(rest) < 2:
        print("fragment needs a folder and at least one path prefix", file=sys.stderr)
        return 2
    template = extract()
    out, prefixes = Path(rest[0]), rest[1:]
    for lang in LANGUAGES[1:]:
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
    for lang in LANGUAGES[1:]:
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
    for lang in LANGUAGES[1:]:
        po = catalogue_path(lang)
        if po.exists():
            tmp = po.with_suffix(".mo.tmp")
            tmp.write_bytes(compile_po(po))
            os.replace(tmp, po.with_suffix(".mo"))
            print(po.with_suffix(".mo"))
    return 0


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
