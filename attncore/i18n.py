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
The languages are English and every catalogue found there (:func:`languages`): a lecturer
adds one with ``python -m attncore.locale init it``. A lesson may carry its own catalogue
beside its file, ``<stem>.<code>.po`` (:func:`lesson_catalogue`), read at run time and
taking precedence over the package's for that language.

A language is any CLDR locale Babel knows (:func:`cldr_language`); one without a
catalogue is shown in English, with its own numbers.

Numbers: :func:`number` writes a number :func:`attncore.display.fmt` rounded in the
language's decimal sign, digit grouping and digits, from Babel's locale data (CLDR); the
rounding stays ours (half away from zero), only the symbols change. Plural forms come from
the catalogue's header, which Babel fills from CLDR's plural rule of the language.
"""

from __future__ import annotations

import contextvars
import gettext as _gettext
import io
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal, localcontext
from functools import cache
from pathlib import Path
from typing import Any

__all__ = [
    "_", "catalogue_digest", "catalogue_path", "cldr_language", "coverage", "DOMAIN", "english_name",
    "fields", "forget_catalogues", "has_text", "language", "language_warnings", "LANGUAGES", "languages",
    "lesson_catalogue", "list_of", "LOCALE_DIR", "locale_dir", "LOCALE_ENV", "N_",
    "ngettext", "number", "pgettext", "problems", "quoted", "set_language", "set_pseudo", "translations",
    "UnknownLanguage", "unnumber", "use", "viewer_language", "wrong_placeholders",
]

DOMAIN = "attnvid"
LOCALE_DIR = Path(__file__).with_name("locale")
#: Another folder of catalogues read instead of the package's, in the same layout
#: (``<code>/LC_MESSAGES/attnvid.po``, and the template ``attnvid.pot``): a copy in which to try
#: a language without touching the installed package (the tests use one).
LOCALE_ENV = "ATTNCORE_LOCALE_DIR"
#: The languages shipped with the lecture: English (the code's own) and each catalogue shipped.
#: :func:`languages` is every one a lecturer can pick (those plus any catalogue added).
LANGUAGES: tuple[str, ...] = ("en", "fr", "de", "es", "zh")

_current: contextvars.ContextVar[str] = contextvars.ContextVar("attnvid_language", default="en")
#: The lesson's own catalogue (a ``.po`` path) for the current language, "" when it has none.
_lesson_po: contextvars.ContextVar[str] = contextvars.ContextVar("attnvid_lesson_catalogue", default="")


class UnknownLanguage(ValueError):
    """A language code that is no CLDR locale (``xx``): nothing knows how to write it."""


@cache
def cldr_language(code: str) -> str:
    """The CLDR language of a lesson's ``language`` (an espeak-ng or BCP 47 code: ``fr``,
    ``de-ch``, ``cmn``, ``pt-br``), as Babel names it; :class:`UnknownLanguage` when Babel
    (CLDR) knows no such language.

    >>> cldr_language("de-ch"), cldr_language("cmn"), cldr_language("iw"), cldr_language("it")
    ('de', 'zh', 'he', 'it')
    """
    from babel import Locale, UnknownLocaleError

    base = code.strip().lower().replace("_", "-").split("-")[0]
    try:
        return str(Locale.parse(base).language)
    except (UnknownLocaleError, ValueError, TypeError):
        raise UnknownLanguage(f"{code!r} is not a language code CLDR knows") from None


def english_name(code: str) -> str:
    """The language's name in English, for messages to the author ("Italian")."""
    from babel import Locale

    try:
        return str(Locale.parse(cldr_language(code)).english_name)
    except UnknownLanguage:
        return code


def viewer_language(code: str | None) -> str:
    """The language a lesson's ``language`` (an espeak-ng code such as ``fr``, ``de-ch`` or
    ``cmn``) is shown in: its CLDR language (numbers follow it; its catalogue, when there is
    one, translates the text), English for a code CLDR does not know (refused when a lesson
    or ``--language`` names it).

    >>> viewer_language("fr"), viewer_language("de-ch"), viewer_language("cmn"), viewer_language("it")
    ('fr', 'de', 'zh', 'it')
    """
    try:
        return cldr_language(code or "en")
    except UnknownLanguage:
        return "en"


def language() -> str:
    """The current viewer language (a CLDR language code)."""
    return _current.get()


def set_language(code: str | None, catalogue: str = "") -> str:
    """Make ``code`` (see :func:`viewer_language`) the current language of this thread, with the
    lesson's own ``catalogue`` for it (a ``.po`` path, :func:`lesson_catalogue`); return it."""
    lang = viewer_language(code)
    _current.set(lang)
    _lesson_po.set(catalogue)
    return lang


@contextmanager
def use(code: str | None, catalogue: str = "") -> Iterator[str]:
    """The block is written in ``code`` (see :func:`viewer_language`), with the lesson's own
    ``catalogue`` for it (:func:`lesson_catalogue`)."""
    token = _current.set(viewer_language(code))
    po_token = _lesson_po.set(catalogue)
    try:
        yield _current.get()
    finally:
        _lesson_po.reset(po_token)
        _current.reset(token)


def locale_dir() -> Path:
    """The folder of catalogues: the package's, or :data:`LOCALE_ENV`'s when set."""
    other = os.environ.get(LOCALE_ENV, "")
    return Path(other) if other else LOCALE_DIR


def catalogue_path(lang: str, suffix: str = ".po") -> Path:
    return locale_dir() / lang / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


def languages() -> tuple[str, ...]:
    """English and every language with a catalogue (``.po`` or ``.mo``) in :func:`locale_dir`."""
    folder = locale_dir()
    found = sorted(p.name for p in folder.iterdir() if p.is_dir() and p.name != "en"
                   and any((p / "LC_MESSAGES" / f"{DOMAIN}{s}").is_file() for s in (".po", ".mo"))) \
        if folder.is_dir() else []
    return ("en", *found)


def lesson_catalogue(source: str, code: str) -> str:
    """The lesson's own catalogue for ``code``: ``<stem>.<lang>.po`` beside the lesson file
    (``pesca.toml`` and ``pesca.it.po``), "" when there is none (or the lesson is built in)."""
    if not source.endswith(".toml") or not Path(source).is_file():  # built in: "built-in", "souris.toml"
        return ""
    lang = viewer_language(code)
    path = Path(source).with_suffix(f".{lang}.po")
    return str(path) if lang != "en" and path.is_file() else ""


def translations(lang: str, catalogue: str | None = None) -> _gettext.NullTranslations:
    """The catalogue of ``lang``: the lesson's own (``catalogue``; None: the current lesson's
    when ``lang`` is the current language) before the package's compiled ``.mo``, or its
    ``.po`` when that is newer (or the ``.mo`` is missing); English and a language without
    one translate nothing."""
    if catalogue is None:
        catalogue = _lesson_po.get() if lang == _current.get() else ""
    return _translations(os.environ.get(LOCALE_ENV, ""), lang, catalogue)


@cache
def _translations(folder: str, lang: str, catalogue: str) -> _gettext.NullTranslations:
    """``folder``: :data:`LOCALE_ENV`'s value ("" the package's), the key of this cache."""
    if lang == "en":
        return _gettext.NullTranslations()
    package = _package_translations(Path(folder) if folder else LOCALE_DIR, lang)
    if not catalogue:
        return package
    own = _gettext.GNUTranslations(io.BytesIO(compile_po(Path(catalogue), lang)))
    own.add_fallback(package)
    return own


def _package_translations(folder: Path, lang: str) -> _gettext.NullTranslations:
    po = folder / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    mo = po.with_suffix(".mo")
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as f:
            return _gettext.GNUTranslations(f)
    if not po.exists():
        return _gettext.NullTranslations()
    return _gettext.GNUTranslations(io.BytesIO(compile_po(po, lang)))


def catalogue_digest(code: str, catalogue: str = "") -> str:
    """A digest of the catalogues that translate ``code`` (the package's ``.po`` and ``.mo``, the
    lesson's own ``catalogue``): part of a render's cache key, so that a translation edited
    renders again. "" for English."""
    import hashlib

    lang = viewer_language(code)
    if lang == "en":
        return ""
    h = hashlib.sha256(lang.encode())
    for path in (catalogue_path(lang), catalogue_path(lang, ".mo"), Path(catalogue) if catalogue else None):
        h.update(path.read_bytes() if path is not None and path.is_file() else b"-")
    return f"|catalogues:{h.hexdigest()[:16]}"


def forget_catalogues() -> None:
    """Read the catalogues again at the next message (they are read once per process)."""
    _translations.cache_clear()


def has_text(lang: str | None = None) -> bool:
    """Whether ``lang`` (the current language when None) has a catalogue: its text is its own,
    not the English of the code."""
    lang = lang or _current.get()
    return lang == "en" or type(translations(lang)) is not _gettext.NullTranslations


def compile_po(po: Path, lang: str | None = None) -> bytes:
    """The ``.mo`` bytes of a ``.po`` file (Babel's reader and writer; fuzzy and untranslated
    entries left out, and those whose placeholders are wrong: :func:`wrong_placeholders`). The plural rule is the
    file's ``Plural-Forms``, else CLDR's for ``lang``."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalog = read_po(f, locale=lang)
    for m in [m for m in catalog if m.id and m.string and wrong_placeholders(m.id, m.string)]:
        catalog.delete(m.id, context=m.context)  # shown in English rather than failing (check names it)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def template_path() -> Path:
    """The message template: :func:`locale_dir`'s, else the package's."""
    pot = locale_dir() / f"{DOMAIN}.pot"
    return pot if pot.is_file() else LOCALE_DIR / f"{DOMAIN}.pot"


def _translated(catalog: Any) -> tuple[set[tuple[Any, Any]], set[tuple[Any, Any]]]:
    """The (id, context) of every message ``catalog`` translates (every form, not fuzzy), and of
    those among them whose placeholders are wrong (left out when read: shown in English)."""
    done = {(m.id, m.context): m for m in catalog if m.id and not m.fuzzy
            and (all(m.string) if isinstance(m.string, (tuple, list)) else m.string)}
    wrong = {k for k, m in done.items() if wrong_placeholders(m.id, m.string)}
    return set(done) - wrong, wrong


@cache
def _coverage(folder: str, lang: str, catalogue: str, stamp: tuple[float, ...]) -> tuple[int, int, int]:
    template = _read(template_path())
    done: set[tuple[Any, Any]] = set()
    wrong: set[tuple[Any, Any]] = set()
    for path in (Path(folder) / lang / "LC_MESSAGES" / f"{DOMAIN}.po", Path(catalogue) if catalogue else None):
        if path is not None and path.is_file():
            good, bad = _translated(_read(path, lang))
            done, wrong = done | good, wrong | bad
    wanted = {(m.id, m.context) for m in template if m.id}
    return len(wanted & done), len(wanted), len(wanted & wrong - done)


def coverage(lang: str, catalogue: str = "") -> tuple[int, int, int]:
    """How many of the template's messages ``lang`` translates (its package catalogue and the
    lesson's own ``catalogue`` together), how many there are, and how many translations are
    left out because their placeholders are wrong. A compiled ``.mo`` without its ``.po``
    counts as complete."""
    po = catalogue_path(lang)
    if not po.is_file() and catalogue_path(lang, ".mo").is_file() and not catalogue:
        n = len([m for m in _read(template_path()) if m.id])
        return n, n, 0
    stamp = tuple(p.stat().st_mtime for p in (po, Path(catalogue)) if str(p) and p.is_file())
    return _coverage(str(locale_dir()), lang, catalogue, stamp)


def language_warnings(code: str, catalogue: str = "") -> list[str]:
    """What the author should know about the language a lesson is shown in (without the
    ``attnvid: warning:`` prefix): a language without a catalogue is shown in English, one
    whose catalogue is partial shows the rest in English. English and a complete catalogue: none."""
    lang = viewer_language(code)
    if lang == "en":
        return []
    name = english_name(lang)
    if not catalogue and lang not in languages():
        return [f"no {name} catalogue ({lang}): the lecture's text is shown in English, its numbers as {name} "
                f"writes them; to translate it: python -m attncore.locale init {lang} (docs/how-to/language.md)"]
    done, total, wrong = coverage(lang, catalogue)
    left_out = (f" ({wrong} more left out: {'its' if wrong == 1 else 'their'} placeholders are wrong; "
                f"python -m attncore.locale check names {'it' if wrong == 1 else 'them'})") if wrong else ""
    if done < total:
        return [f"{name} catalogue translates {done} of {total} messages{left_out}; the rest are shown in English"]
    return []


#: Every translated message shown in ⟦brackets⟧, so that a frame shows at a glance which of its
#: texts were never marked for translation (an author's aid): set by :func:`set_pseudo`, from the
#: scene's settings (:attr:`attnstage.settings.SceneSettings.pseudo`).
_PSEUDO = [False]


def set_pseudo(on: bool) -> None:
    """Bracket every translated message from now on (``on``), or show it bare."""
    _PSEUDO[0] = on


def _pseudo(text: str) -> str:
    return f"⟦{text}⟧" if _PSEUDO[0] else text


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


#: The zero of each decimal numbering system a CLDR locale may default to (its digits follow
#: it in Unicode): Babel names a locale's numbering system but carries no digits.
ZEROS = {"latn": "0", "arab": "\u0660", "arabext": "\u06f0", "beng": "\u09e6", "deva": "\u0966", "mymr": "\u1040",
         "tibt": "\u0f20", "olck": "\u1c50", "mtei": "\uabf0", "nkoo": "\u07c0", "adlm": "\U0001e950"}


@cache
def _symbols(lang: str) -> tuple[str, str, dict[int, str]]:
    """The language's decimal sign, group sign and digits (its CLDR default numbering system:
    ``0``–``9`` for most, ``۰``–``۹`` for Persian), from Babel."""
    from babel import Locale
    from babel.numbers import get_decimal_symbol, get_group_symbol

    zero = ord(ZEROS.get(Locale.parse(lang).default_numbering_system, "0"))
    digits = {ord("0") + d: chr(zero + d) for d in range(10)} if zero != ord("0") else {}
    return (
        get_decimal_symbol(lang, numbering_system="default"),
        get_group_symbol(lang, numbering_system="default"),
        digits,
    )


_PLAIN = re.compile(r"(?P<sign>[+\u2212-]?)(?P<int>\d+)(?:\.(?P<frac>\d+))?")


def number(plain: str, lang: str | None = None) -> str:
    """A number written ``[sign]digits[.digits]`` (as :func:`attncore.display.fmt` rounds it)
    in the language's decimal sign, digit grouping and digits (Babel's CLDR data, for any
    CLDR language). Anything else is returned as it is.

    >>> number("0.26", "fr"), number("\u22121234.50", "de"), number("12345.6", "fr"), number("0.26", "zh")
    ('0,26', '\u22121.234,50', '12\u202f345,6', '0.26')
    >>> number("0.26", "it"), number("1.5", "fa")
    ('0,26', '۱٫۵')
    """
    lang = lang or _current.get()
    if lang == "en":
        return plain
    m = _PLAIN.fullmatch(plain)
    if m is None:
        return plain
    decimal_sign, _group, digits_of = _symbols(lang)
    frac = m["frac"]
    digits = m["int"]
    if len(digits) > 3:
        from babel.numbers import format_decimal

        # grouping only: the integer part is exact, Babel does not round it; Babel quantizes in the
        # current context, whose 28 digits a sum of large exponentials (10^25 and up) outgrows
        with localcontext(prec=len(digits) + 8):
            digits = format_decimal(Decimal(digits), locale=lang, numbering_system="default")
    return m["sign"] + (digits + ((decimal_sign + frac) if frac is not None else "")).translate(digits_of)


def unnumber(text: str, lang: str | None = None) -> str:
    """The numbers of ``text`` written by :func:`number` in ``lang`` back in the ``.`` form code
    parses: ASCII digits, grouping dropped, a decimal point.

    >>> unnumber("\u22121.234,50", "de"), unnumber("۱٬۲۳۴٫۵", "fa"), unnumber("2,5 e 0,5", "it")
    ('\u22121234.50', '1234.5', '2.5 e 0.5')
    """
    lang = lang or _current.get()
    if lang == "en":
        return text
    decimal, group, digits_of = _symbols(lang)
    text = text.translate({ord(v): chr(k) for k, v in digits_of.items()})
    text = re.sub(rf"(?<=\d){re.escape(group)}(?=\d{{3}})", "", text)
    return re.sub(rf"(?<=\d){re.escape(decimal)}(?=\d)", ".", text) if decimal != "." else text


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
    if lang == "en" or not has_text(lang):  # the lecture's English has no serial comma
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
    return format_list(items, locale=lang)


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
            out.append(
                f"{catalog.locale}: {len(strings)} plural forms, the language has {catalog.num_plurals}: {ident!r}"
            )
        if not all(strings):
            out.append(f"{catalog.locale}: untranslated: {ident!r}")
            continue
        want = sorted(set(fields(ids[-1])) | set(fields(ids[0])))
        for s in wrong_placeholders(m.id, t.string):
            out.append(f"{catalog.locale}: placeholders {fields(s)} instead of {want}: {ident!r} -> {s!r}")
    return out


def wrong_placeholders(msgid: Any, string: Any) -> list[str]:
    """The translations (``string``: one, or a plural's forms) of ``msgid`` whose placeholders are
    not the message's: filled with ``str.format`` they would fail, so they are never shown."""
    ids: tuple[str, ...] = tuple(msgid) if isinstance(msgid, (tuple, list)) else (str(msgid),)
    strings: tuple[str, ...] = tuple(string) if isinstance(string, (tuple, list)) else (str(string or ""),)
    want = set(fields(ids[-1])) | set(fields(ids[0]))
    # a plural form may leave the count out ("un mot") but never add or rename one
    return [s for s in strings if s and not (set(fields(s)) <= want
                                             and set(fields(ids[-1])) - {"n"} <= set(fields(s)) | {"n"})]


def _read(path: Path, lang: str | None = None) -> Any:
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        return read_po(f, locale=lang)
